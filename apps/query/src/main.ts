import { QUERY_ROLE } from '@quarry/query-node';
import { mainForRole } from '@quarry/server';

/** A cluster query node (docs/architecture.md): one role per process, over Kafka, S3 and PostgreSQL. */
mainForRole('query', { query: QUERY_ROLE });
