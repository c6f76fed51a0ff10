import * as protobuf from 'protobufjs';
import { invalid } from '@quarry/common';
import { OTLP_METRICS_PROTO } from './otlp-metrics.proto';

const root = protobuf.parse(OTLP_METRICS_PROTO, { keepCase: false }).root;
const RequestType = root.lookupType('quarry.otlp.ExportMetricsServiceRequest');
const ResponseType = root.lookupType('quarry.otlp.ExportMetricsServiceResponse');

/** An OTLP export request in the proto3 JSON shape (camelCase, 64-bit integers as strings). */
export type OtlpRequestJson = { resourceMetrics?: unknown[] };

/** Decodes a protobuf `ExportMetricsServiceRequest` into the same shape OTLP/JSON has. */
export function decodeOtlpProtobuf(body: Uint8Array): OtlpRequestJson {
  let message: protobuf.Message;
  try {
    message = RequestType.decode(body);
  } catch (err) {
    throw invalid(`request body is not a valid OTLP ExportMetricsServiceRequest: ${(err as Error).message}`, {
      code: 'otlp_invalid',
    });
  }
  return RequestType.toObject(message, { longs: String, enums: Number, bytes: String }) as OtlpRequestJson;
}

/** Parses an OTLP/JSON body (our extension; Axiom accepts protobuf only). */
export function decodeOtlpJson(body: Uint8Array): OtlpRequestJson {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8'));
  } catch (err) {
    throw invalid(`request body is not valid JSON: ${(err as Error).message}`, { code: 'otlp_invalid' });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw invalid('an OTLP/JSON body must be an ExportMetricsServiceRequest object', {
      code: 'otlp_invalid',
    });
  }
  const resourceMetrics = (parsed as Record<string, unknown>).resourceMetrics;
  if (resourceMetrics !== undefined && !Array.isArray(resourceMetrics)) {
    throw invalid('"resourceMetrics" must be an array', { code: 'otlp_invalid' });
  }
  return parsed as OtlpRequestJson;
}

export interface PartialSuccess {
  rejectedDataPoints: number;
  errorMessage: string;
}

/** `ExportMetricsServiceResponse`, with `partial_success` only when something was rejected. */
export function encodeOtlpResponse(partial: PartialSuccess | null, as: 'protobuf' | 'json'): Buffer | object {
  if (as === 'json') {
    return partial
      ? {
          partialSuccess: {
            rejectedDataPoints: String(partial.rejectedDataPoints),
            errorMessage: partial.errorMessage,
          },
        }
      : {};
  }
  const payload = partial ? { partialSuccess: partial } : {};
  return Buffer.from(ResponseType.encode(ResponseType.fromObject(payload)).finish());
}
