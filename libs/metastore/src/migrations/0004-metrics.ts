import type { Migration } from './migration';

/** Metrics datasets: series catalog and tag index (issue 6) */
export const migration0004: Migration = {
  version: 4,
  name: 'metrics',
  sql: `
-- The series catalog of metrics datasets: one row per (dataset incarnation, series). series_id hashes
-- the metric name and the canonical tag set; min/max_time (unix s) bound the compacted points, so the
-- info endpoints can report only series active in a window. No foreign key: the metrics store deletes
-- a dataset's rows itself, together with the objects they point to.
CREATE TABLE IF NOT EXISTS metric_series (
  dataset_id  text NOT NULL,
  series_id   text NOT NULL,
  metric      text NOT NULL,
  tags        jsonb NOT NULL,
  min_time    bigint NOT NULL,
  max_time    bigint NOT NULL,
  PRIMARY KEY (dataset_id, series_id)
);

-- Per metric: the OTLP kind as the info endpoint reports it (type, temporality, unit).
CREATE TABLE IF NOT EXISTS metric_metadata (
  dataset_id   text NOT NULL,
  metric       text NOT NULL,
  type         text NOT NULL,
  temporality  text,
  unit         text,
  PRIMARY KEY (dataset_id, metric)
);

-- Columnar point blocks in the object store: one per (dataset, metric, time bucket, log range).
CREATE TABLE IF NOT EXISTS metric_blocks (
  id            text PRIMARY KEY,
  dataset_id    text NOT NULL,
  metric        text NOT NULL,
  object_key    text NOT NULL,
  min_time      bigint NOT NULL,
  max_time      bigint NOT NULL,
  series_count  integer NOT NULL,
  point_count   integer NOT NULL,
  size_bytes    integer NOT NULL,
  first_offset  bigint NOT NULL,
  created_at    timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS metric_blocks_dataset_metric_idx ON metric_blocks (dataset_id, metric, min_time);

-- The next offset of the metrics log to compact (its own log, so its own offsets).
CREATE TABLE IF NOT EXISTS metric_log_offsets (
  partition         integer PRIMARY KEY,
  committed_offset  bigint NOT NULL
);
`,
};
