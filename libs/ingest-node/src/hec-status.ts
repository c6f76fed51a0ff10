/**
 * Splunk HTTP Event Collector status codes, as Splunk documents them ("Troubleshoot HTTP Event Collector",
 * response status table) and as Axiom's HEC OpenAPI document narrows them (v1-edge-hec.json). HEC clients
 * branch on `code`, never on `text`, so `text` is Splunk's phrase and any Quarry detail travels apart.
 */
export const HEC_CODES = {
  success: { code: 0, status: 200, text: 'Success' },
  tokenRequired: { code: 2, status: 401, text: 'Token is required' },
  invalidAuthorization: { code: 3, status: 401, text: 'Invalid authorization' },
  invalidToken: { code: 4, status: 403, text: 'Invalid token' },
  noData: { code: 5, status: 400, text: 'No data' },
  invalidDataFormat: { code: 6, status: 400, text: 'Invalid data format' },
  incorrectIndex: { code: 7, status: 400, text: 'Incorrect index' },
  internalError: { code: 8, status: 500, text: 'Internal server error' },
  serverBusy: { code: 9, status: 503, text: 'Server is busy' },
  channelMissing: { code: 10, status: 400, text: 'Data channel is missing' },
  invalidChannel: { code: 11, status: 400, text: 'Invalid data channel' },
  eventFieldRequired: { code: 12, status: 400, text: 'Event field is required' },
  eventFieldBlank: { code: 13, status: 400, text: 'Event field cannot be blank' },
  indexedFieldsError: { code: 15, status: 400, text: 'Error in handling indexed fields' },
  healthy: { code: 17, status: 200, text: 'HEC is healthy' },
  unhealthy: { code: 18, status: 503, text: 'HEC is unhealthy, queues are full' },
} as const;

export type HecCode = (typeof HEC_CODES)[keyof typeof HEC_CODES];

/** The HEC response body (`HecStatus` in the OpenAPI document, plus Splunk's optional keys). */
export interface HecStatusBody {
  text: string;
  code: number;
  /** Splunk's 0-based position of the offending event in the request (codes 6, 12, 13, 15). */
  'invalid-event-number'?: number;
  /** Quarry's explanation, when it says more than Splunk's fixed phrase. */
  detail?: string;
  /** Indexer acknowledgement: the request's ack id on its channel (when it named one). */
  ackId?: number;
}

/**
 * A request HEC refuses, as a value: the HTTP status, the Splunk code and, for a bad event, its
 * position. Thrown by the HEC parsers and services and rendered by `HecExceptionFilter`.
 */
export class HecRejection extends Error {
  constructor(
    readonly hec: HecCode,
    detail?: string,
    readonly invalidEventNumber?: number,
    /** Overrides the status of `hec` (403 for a missing capability, 413 for a body too large, ...). */
    readonly status: number = hec.status,
  ) {
    super(detail ?? hec.text);
    this.name = 'HecRejection';
  }

  body(): HecStatusBody {
    const body: HecStatusBody = { text: this.hec.text, code: this.hec.code };
    if (this.invalidEventNumber !== undefined) body['invalid-event-number'] = this.invalidEventNumber;
    if (this.message !== this.hec.text) body.detail = this.message;
    return body;
  }
}

export function hecBody(hec: HecCode): HecStatusBody {
  return { text: hec.text, code: hec.code };
}
