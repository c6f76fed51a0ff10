import type { RoleModule } from '@quarry/server';
import { CLUSTER_LIMITS } from './cluster-limits.provider';
import { HecAuthSchemes } from './hec-auth-scheme';
import { HecController } from './hec.controller';
import { HecService } from './hec.service';
import { IngestController } from './ingest.controller';
import { IngestService } from './ingest.service';
import { MetricsIngestController } from './metrics-ingest.controller';
import { MetricsIngestService } from './metrics-ingest.service';
import { OtelIngestController } from './otel-ingest.controller';
import { OtelIngestService } from './otel-ingest.service';
import { OtlpGrpcServer } from './otlp-grpc.server';

/**
 * The ingest role's HTTP surface: events (`/v1/ingest`, `/v1/datasets/{id}/ingest`), OTLP metrics,
 * OTLP traces and logs (`/v1/traces`, `/v1/logs`), OTLP/gRPC, and Splunk HEC (`/services/collector*`).
 */
export const INGEST_ROLE: RoleModule = {
  controllers: [IngestController, MetricsIngestController, OtelIngestController, HecController],
  // OtlpGrpcServer: OTLP over gRPC on QUARRY_OTLP_GRPC_PORT, when set.
  providers: [
    IngestService,
    MetricsIngestService,
    OtelIngestService,
    HecService,
    HecAuthSchemes,
    OtlpGrpcServer,
    // Cluster shape: rate limits and ingest quotas shared by the region's nodes.
    CLUSTER_LIMITS,
  ],
};
export { OtlpGrpcServer } from './otlp-grpc.server';
