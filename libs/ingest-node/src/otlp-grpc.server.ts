import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import {
  Metadata,
  Server,
  ServerCredentials,
  status as GrpcStatus,
  type sendUnaryData,
  type ServerUnaryCall,
  type ServiceDefinition,
} from '@grpc/grpc-js';
import { isQuarryError, type ErrorKind } from '@quarry/common';
import {
  admissionOf,
  admitMessage,
  subjectOf,
  type Admission,
  type MessageRefusal,
  type MessageTicket,
} from '@quarry/nest-kit';
import * as protobuf from 'protobufjs';
import { AuthService, STORAGE_RUNTIME, type AccessRule, type StorageRuntime } from '@quarry/server';
import { MetricsIngestService } from './metrics-ingest.service';
import { encodeOtlpResponse } from './otlp-codec';
import { encodeSignalResponse, type OtlpEventSignal } from './otlp-signal-codec';
import { OtelIngestService } from './otel-ingest.service';

type Signal = OtlpEventSignal | 'metrics';

/** The OTLP collector services (opentelemetry/proto/collector/*): one unary `Export` each. */
const SERVICE_PATHS: Record<Signal, string> = {
  traces: '/opentelemetry.proto.collector.trace.v1.TraceService/Export',
  logs: '/opentelemetry.proto.collector.logs.v1.LogsService/Export',
  metrics: '/opentelemetry.proto.collector.metrics.v1.MetricsService/Export',
};

/** Messages stay bytes: the HTTP path's protobuf decoders and encoders read and write them. */
const asBytes = (b: Buffer) => b;
function exportService(path: string): ServiceDefinition {
  return {
    Export: {
      path,
      requestStream: false,
      responseStream: false,
      requestSerialize: asBytes,
      requestDeserialize: asBytes,
      responseSerialize: asBytes,
      responseDeserialize: asBytes,
    },
  };
}

/** Edge ingest takes API tokens only, as `/v1/traces` does. */
const RULE: AccessRule = { tokens: 'api' };

/** The gRPC status of each Quarry error kind (OTLP/gRPC: retryable ones are UNAVAILABLE / RESOURCE_EXHAUSTED). */
const GRPC_STATUS: Record<ErrorKind, GrpcStatus> = {
  invalid: GrpcStatus.INVALID_ARGUMENT,
  unauthenticated: GrpcStatus.UNAUTHENTICATED,
  forbidden: GrpcStatus.PERMISSION_DENIED,
  not_found: GrpcStatus.NOT_FOUND,
  conflict: GrpcStatus.ABORTED,
  too_large: GrpcStatus.RESOURCE_EXHAUSTED,
  unsupported_media_type: GrpcStatus.INVALID_ARGUMENT,
  misdirected: GrpcStatus.FAILED_PRECONDITION,
  rate_limited: GrpcStatus.RESOURCE_EXHAUSTED,
  unavailable: GrpcStatus.UNAVAILABLE,
  insufficient_storage: GrpcStatus.RESOURCE_EXHAUSTED,
  internal: GrpcStatus.INTERNAL,
};

/** A gRPC error as grpc-js sends it: status, message, and trailers. */
interface GrpcError {
  code: GrpcStatus;
  details: string;
  metadata?: Metadata;
}

/**
 * `google.rpc.Status` with one `google.rpc.RetryInfo` detail, the `grpc-status-details-bin` trailer the
 * OTLP specification names for throttling (RetryInfo.retry_delay: when the client may send again).
 * Hand-encoded: Status{1: code, 2: message, 3: Any{1: type_url, 2: RetryInfo{1: Duration{1: seconds}}}}.
 */
export function retryInfoStatus(code: GrpcStatus, message: string, retryDelaySeconds: number): Buffer {
  const duration = protobuf.Writer.create().uint32(8).int64(retryDelaySeconds).finish();
  const retryInfo = protobuf.Writer.create().uint32(10).bytes(duration).finish();
  const any = protobuf.Writer.create()
    .uint32(10)
    .string('type.googleapis.com/google.rpc.RetryInfo')
    .uint32(18)
    .bytes(retryInfo)
    .finish();
  return Buffer.from(
    protobuf.Writer.create().uint32(8).int32(code).uint32(18).string(message).uint32(26).bytes(any).finish(),
  );
}

/**
 * A refused message as OTLP/gRPC wants it (specification, "Failures" and "OTLP/gRPC Throttling"): a node
 * that cannot keep up answers UNAVAILABLE, a token past its own rate limit or ingest quota answers
 * RESOURCE_EXHAUSTED; both carry RetryInfo with the delay (Retry-After over HTTP), which is what makes
 * RESOURCE_EXHAUSTED retryable for an OTLP client. Axiom's limit headers ride along as trailers.
 */
export function refusalError(refusal: MessageRefusal): GrpcError {
  const code = refusal.kind === 'overloaded' ? GrpcStatus.UNAVAILABLE : GrpcStatus.RESOURCE_EXHAUSTED;
  const metadata = new Metadata();
  metadata.set('grpc-status-details-bin', retryInfoStatus(code, refusal.message, refusal.retryAfterSeconds));
  metadata.set('retry-after', String(refusal.retryAfterSeconds));
  const state = refusal.state;
  if (state !== undefined) {
    const prefix = refusal.reason === 'rate_limit' ? 'x-ratelimit' : 'x-ingestlimit';
    if (refusal.scope !== undefined) metadata.set(`${prefix}-scope`, refusal.scope);
    metadata.set(`${prefix}-limit`, String(state.limit));
    metadata.set(`${prefix}-remaining`, String(state.remaining));
    metadata.set(`${prefix}-reset`, String(state.resetEpochSeconds));
  }
  return { code, details: refusal.message, metadata };
}

/**
 * OTLP/gRPC on the ingest role (`QUARRY_OTLP_GRPC_PORT`): the three collector services' `Export`, as the
 * OpenTelemetry gRPC exporters and the Collector's `otlp` exporter call them. Each request is handled
 * exactly as its OTLP/HTTP protobuf twin — same auth (`authorization: Bearer <API token>` metadata),
 * same dataset metadata (`x-axiom-dataset`; `x-axiom-metrics-dataset` for metrics), same services,
 * same partial success — with errors as gRPC statuses. Plain HTTP/2 (no TLS, like the HTTP port);
 * grpc-js takes gzip-compressed messages itself.
 */
@Injectable()
export class OtlpGrpcServer implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('otlp-grpc');
  private server: Server | null = null;
  /** The bound port, once listening (QUARRY_OTLP_GRPC_PORT=0 picks a free one). */
  port: number | null = null;

  constructor(
    @Inject(STORAGE_RUNTIME) private readonly storage: StorageRuntime,
    private readonly auth: AuthService,
    private readonly otel: OtelIngestService,
    private readonly metrics: MetricsIngestService,
    private readonly http: HttpAdapterHost,
  ) {}

  /**
   * The node's admission control (installed on the HTTP instance by `startQuarry`): the gRPC port shares
   * its per-token counters and its in-flight byte budget with the HTTP port. Undefined in a bare test
   * module that never installed one.
   */
  private get admission(): Admission | undefined {
    const instance = this.http.httpAdapter?.getInstance() as object | undefined;
    return instance === undefined ? undefined : admissionOf(instance);
  }

  async onApplicationBootstrap(): Promise<void> {
    const { otlpGrpcPort, host, maxBodyBytes, metricsMaxBodyBytes } = this.storage.config;
    if (otlpGrpcPort === undefined) return;
    const server = new Server({
      'grpc.max_receive_message_length': Math.max(maxBodyBytes, metricsMaxBodyBytes),
    });
    for (const signal of Object.keys(SERVICE_PATHS) as Signal[]) {
      server.addService(exportService(SERVICE_PATHS[signal]), {
        Export: (call: ServerUnaryCall<Buffer, Buffer>, callback: sendUnaryData<Buffer>) => {
          const ticket = this.admit(call);
          if (ticket !== null && 'reason' in ticket) {
            callback(refusalError(ticket));
            return;
          }
          let ingestedBytes: number | undefined;
          const onDecoded = (bytes: number) => {
            ingestedBytes = bytes;
          };
          this.export(signal, call.request, call.metadata, onDecoded).then(
            (answer) => {
              ticket?.done({ ok: true, ingestedBytes });
              callback(null, answer);
            },
            (err: unknown) => {
              ticket?.done({ ok: false });
              callback(this.grpcError(signal, err));
            },
          );
        },
      });
    }
    this.port = await new Promise<number>((resolve, reject) =>
      server.bindAsync(`${host}:${otlpGrpcPort}`, ServerCredentials.createInsecure(), (err, port) =>
        err ? reject(err) : resolve(port),
      ),
    );
    this.server = server;
    this.logger.log(`OTLP/gRPC listening on ${host}:${this.port}`);
  }

  async onModuleDestroy(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    await new Promise<void>((resolve) => {
      const force = setTimeout(() => {
        server.forceShutdown();
        resolve();
      }, 5_000);
      server.tryShutdown(() => {
        clearTimeout(force);
        resolve();
      });
    });
  }

  /**
   * The HTTP port's admission checks for one message (docs/reliability.md): the token's request rate and
   * ingest quota, and the node's in-flight bytes. grpc-js has already read and decompressed the message
   * (bounded by `grpc.max_receive_message_length`), so what it holds and what the quota is charged are
   * the decompressed bytes. Null when the node has no admission control.
   */
  private admit(call: ServerUnaryCall<Buffer, Buffer>): MessageRefusal | MessageTicket | null {
    const admission = this.admission;
    if (admission === undefined) return null;
    const authorization = call.metadata.get('authorization')[0];
    const subject = subjectOf(
      typeof authorization === 'string' ? authorization : undefined,
      '',
      call.getPeer().replace(/:\d+$/, ''),
    );
    return admitMessage(admission, subject, call.request.length);
  }

  private async export(
    signal: Signal,
    body: Buffer,
    metadata: Metadata,
    onDecoded: (bytes: number) => void,
  ): Promise<Buffer> {
    const value = (name: string) => {
      const v = metadata.get(name)[0];
      return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
    };
    const principal = await this.auth.authenticate(value('authorization'), value('x-axiom-org-id'), RULE);
    const request = { body, contentType: 'application/x-protobuf', contentEncoding: undefined, onDecoded };
    if (signal === 'metrics') {
      const dataset = value('x-axiom-metrics-dataset') ?? value('x-axiom-dataset');
      const result = await this.metrics.ingest({ ...request, dataset }, principal);
      return encodeOtlpResponse(result.partial, 'protobuf') as Buffer;
    }
    const result = await this.otel.export(
      { ...request, signal, dataset: value('x-axiom-dataset') },
      principal,
    );
    return encodeSignalResponse(signal, result.partial, 'protobuf') as Buffer;
  }

  private grpcError(signal: Signal, err: unknown): GrpcError {
    if (isQuarryError(err))
      return { code: GRPC_STATUS[err.kind] ?? GrpcStatus.INTERNAL, details: err.message };
    this.logger.error(`OTLP/gRPC ${signal} export failed: ${(err as Error).stack ?? String(err)}`);
    return { code: GrpcStatus.INTERNAL, details: 'internal error' };
  }
}
