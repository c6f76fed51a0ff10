import { MANAGEMENT_ROLE } from '@quarry/management-node';
import { mainForRole } from '@quarry/server';

/** A cluster management node (docs/architecture.md): one role per process, over Kafka, S3 and PostgreSQL. */
mainForRole('management', { management: MANAGEMENT_ROLE });
