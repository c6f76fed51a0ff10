import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import {
  Server,
  ServerCredentials,
  status as GrpcStatus,
  type Metadata,
  type sendUnaryData,
  type ServerUnaryCall,
  type ServiceDefinition,
} from '@grpc/grpc-js';
import { isQuarryError, type ErrorKind } from '@quarry/common';
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
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const { otlpGrpcPort, host, maxBodyBytes, metricsMaxBodyBytes } = this.storage.config;
    if (otlpGrpcPort === undefined) return;
    const server = new Server({
      'grpc.max_receive_message_length': Math.max(maxBodyBytes, metricsMaxBodyBytes),
    });
    for (const signal of Object.keys(SERVICE_PATHS) as Signal[]) {
      server.addService(exportService(SERVICE_PATHS[signal]), {
        Export: (call: ServerUnaryCall<Buffer, Buffer>, callback: sendUnaryData<Buffer>) => {
          this.export(signal, call.request, call.metadata).then(
            (answer) => callback(null, answer),
            (err: unknown) => callback(this.grpcError(signal, err)),
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

  private async export(signal: Signal, body: Buffer, metadata: Metadata): Promise<Buffer> {
    const value = (name: string) => {
      const v = metadata.get(name)[0];
      return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
    };
    const principal = await this.auth.authenticate(value('authorization'), value('x-axiom-org-id'), RULE);
    const request = { body, contentType: 'application/x-protobuf', contentEncoding: undefined };
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

  private grpcError(signal: Signal, err: unknown): { code: GrpcStatus; details: string } {
    if (isQuarryError(err))
      return { code: GRPC_STATUS[err.kind] ?? GrpcStatus.INTERNAL, details: err.message };
    this.logger.error(`OTLP/gRPC ${signal} export failed: ${(err as Error).stack ?? String(err)}`);
    return { code: GrpcStatus.INTERNAL, details: 'internal error' };
  }
}
