import type { RoleModule } from '@quarry/server';
import { IngestController } from './ingest.controller';
import { IngestService } from './ingest.service';
import { MetricsIngestController } from './metrics-ingest.controller';
import { MetricsIngestService } from './metrics-ingest.service';

/** The ingest role's HTTP surface: events (`/v1/ingest`, `/v1/datasets/{id}/ingest`) and OTLP metrics. */
export const INGEST_ROLE: RoleModule = {
  controllers: [IngestController, MetricsIngestController],
  providers: [IngestService, MetricsIngestService],
};
