import * as protobuf from 'protobufjs';
import { invalid } from '@quarry/common';
import { OTLP_TRACES_LOGS_PROTO } from './otlp-traces-logs.proto';

/** The OTLP signals stored as events. */
export type OtlpEventSignal = 'traces' | 'logs';

const root = protobuf.parse(OTLP_TRACES_LOGS_PROTO, { keepCase: false }).root;

const MESSAGES = {
  traces: {
    request: root.lookupType('quarry.otlp.signals.ExportTraceServiceRequest'),
    response: root.lookupType('quarry.otlp.signals.ExportTraceServiceResponse'),
    list: 'resourceSpans',
    rejectedKey: 'rejectedSpans',
  },
  logs: {
    request: root.lookupType('quarry.otlp.signals.ExportLogsServiceRequest'),
    response: root.lookupType('quarry.otlp.signals.ExportLogsServiceResponse'),
    list: 'resourceLogs',
    rejectedKey: 'rejectedLogRecords',
  },
} as const;

/**
 * An export request in the proto3 JSON shape (camelCase keys, 64-bit integers as strings). From
 * protobuf, `bytes` fields (ids) are `Uint8Array`; from OTLP/JSON, ids are hex strings and `bytesValue`
 * is base64 — the converters accept both.
 */
export type OtlpSignalRequest = Record<string, unknown>;

export function decodeSignalProtobuf(signal: OtlpEventSignal, body: Uint8Array): OtlpSignalRequest {
  const type = MESSAGES[signal].request;
  let message: protobuf.Message;
  try {
    message = type.decode(body);
  } catch (err) {
    throw invalid(`request body is not a valid OTLP ${type.name}: ${(err as Error).message}`, {
      code: 'otlp_invalid',
    });
  }
  return type.toObject(message, { longs: String, enums: Number }) as OtlpSignalRequest;
}

export function decodeSignalJson(signal: OtlpEventSignal, body: Uint8Array): OtlpSignalRequest {
  const { request, list } = MESSAGES[signal];
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8'));
  } catch (err) {
    throw invalid(`request body is not valid JSON: ${(err as Error).message}`, { code: 'otlp_invalid' });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw invalid(`an OTLP/JSON body must be an ${request.name} object`, { code: 'otlp_invalid' });
  }
  const items = (parsed as Record<string, unknown>)[list];
  if (items !== undefined && !Array.isArray(items)) {
    throw invalid(`"${list}" must be an array`, { code: 'otlp_invalid' });
  }
  return parsed as OtlpSignalRequest;
}

export interface SignalPartialSuccess {
  rejected: number;
  errorMessage: string;
}

/** `Export{Trace,Logs}ServiceResponse`, with `partial_success` only when something was rejected. */
export function encodeSignalResponse(
  signal: OtlpEventSignal,
  partial: SignalPartialSuccess | null,
  as: 'protobuf' | 'json',
): Buffer | object {
  const { response, rejectedKey } = MESSAGES[signal];
  if (as === 'json') {
    return partial
      ? { partialSuccess: { [rejectedKey]: String(partial.rejected), errorMessage: partial.errorMessage } }
      : {};
  }
  const payload = partial
    ? { partialSuccess: { [rejectedKey]: partial.rejected, errorMessage: partial.errorMessage } }
    : {};
  return Buffer.from(response.encode(response.fromObject(payload)).finish());
}
