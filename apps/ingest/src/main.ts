import { INGEST_ROLE } from '@quarry/ingest-node';
import { mainForRole } from '@quarry/server';

/** A cluster ingest node (docs/architecture.md): one role per process, over Kafka, S3 and PostgreSQL. */
mainForRole('ingest', { ingest: INGEST_ROLE });
