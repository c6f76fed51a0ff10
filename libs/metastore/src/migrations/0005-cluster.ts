import { migration0002 } from './0002-rbac';
import { migration0003 } from './0003-resources';
import { migration0004 } from './0004-metrics';
import type { Migration } from './migration';

/**
 * Early builds (e.g. 9f96303) shipped migrations 0002–0004 as placeholders (`SELECT 1`) that were filled
 * in later, so a metastore made by them has those versions recorded as applied without their tables.
 * Their statements are idempotent (IF NOT EXISTS), and 0005 runs them again first: on such a metastore
 * they create what is missing; on every other one they change nothing.
 */
const REPAIR_PLACEHOLDER_MIGRATIONS = [migration0002, migration0003, migration0004]
  .map((m) => m.sql)
  .join('\n');

/**
 * The cluster shape (issue 13): processes that keep in-memory copies of the catalog (query, compactor,
 * ingest and management nodes) learn what changed from version counters, read in the same snapshot as
 * the rows they describe, and the block merger runs on one node at a time under a lease.
 */
export const migration0005: Migration = {
  version: 5,
  name: 'cluster',
  sql: `${REPAIR_PLACEHOLDER_MIGRATIONS}
-- Bumped by the statement-level triggers below whenever a dataset's blocks change (registered, merged,
-- trimmed, deleted), in the same transaction: a node that read version v of a dataset and finds v again
-- in a later snapshot knows its block list is still current.
CREATE TABLE block_versions (
  dataset_id  text PRIMARY KEY,
  version     bigint NOT NULL
);

CREATE TABLE metric_block_versions (
  dataset_id  text PRIMARY KEY,
  version     bigint NOT NULL
);

-- Named counters: 'datasets' moves with every change to the datasets table.
CREATE TABLE catalog_epochs (
  name     text PRIMARY KEY,
  version  bigint NOT NULL
);
INSERT INTO catalog_epochs (name, version) VALUES ('datasets', 1);

CREATE FUNCTION bump_block_versions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    INSERT INTO block_versions AS v SELECT DISTINCT dataset_id, 1 FROM old_rows
      ON CONFLICT (dataset_id) DO UPDATE SET version = v.version + 1;
  ELSE
    INSERT INTO block_versions AS v SELECT DISTINCT dataset_id, 1 FROM new_rows
      ON CONFLICT (dataset_id) DO UPDATE SET version = v.version + 1;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER blocks_inserted_version AFTER INSERT ON blocks
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_block_versions();
CREATE TRIGGER blocks_deleted_version AFTER DELETE ON blocks
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_block_versions();

CREATE FUNCTION bump_metric_block_versions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    INSERT INTO metric_block_versions AS v SELECT DISTINCT dataset_id, 1 FROM old_rows
      ON CONFLICT (dataset_id) DO UPDATE SET version = v.version + 1;
  ELSE
    INSERT INTO metric_block_versions AS v SELECT DISTINCT dataset_id, 1 FROM new_rows
      ON CONFLICT (dataset_id) DO UPDATE SET version = v.version + 1;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER metric_blocks_inserted_version AFTER INSERT ON metric_blocks
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_metric_block_versions();
CREATE TRIGGER metric_blocks_deleted_version AFTER DELETE ON metric_blocks
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_metric_block_versions();

CREATE FUNCTION bump_datasets_epoch() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE catalog_epochs SET version = version + 1 WHERE name = 'datasets';
  RETURN NULL;
END $$;
CREATE TRIGGER datasets_epoch AFTER INSERT OR UPDATE OR DELETE ON datasets
  FOR EACH STATEMENT EXECUTE FUNCTION bump_datasets_epoch();

-- How often each log was replaced by an empty one (offsets starting over): block ids carry the epoch,
-- so blocks of a new epoch never collide with an old epoch's ids. quarry_reset_log_offsets() is what a
-- development cluster calls when it starts a fresh in-memory Kafka.
CREATE TABLE log_epochs (
  log    text PRIMARY KEY,
  epoch  integer NOT NULL
);
INSERT INTO log_epochs (log, epoch) VALUES ('events', 0), ('metrics', 0);
CREATE FUNCTION quarry_reset_log_offsets() RETURNS void LANGUAGE sql AS $$
  DELETE FROM log_offsets;
  DELETE FROM metric_log_offsets;
  UPDATE log_epochs SET epoch = epoch + 1;
$$;

-- Work that one node at a time may do (the block merger): held by holder until expires_at, renewed by
-- the holder, taken over by anyone once expired.
CREATE TABLE leases (
  name        text PRIMARY KEY,
  holder      text NOT NULL,
  expires_at  timestamptz NOT NULL
);
`,
};
