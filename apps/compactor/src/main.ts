import { mainForRole } from '@quarry/server';

/** A cluster compactor node (docs/architecture.md): one role per process, over Kafka, S3 and PostgreSQL. */
mainForRole('compactor');
