import type { Migration } from './migration';

/** Dashboards, views, virtual fields, starred queries, annotations, monitors, notifiers (issue 5) */
export const migration0003: Migration = {
  version: 3,
  name: 'resources',
  sql: `
-- Every user-defined resource of the management API in one table: the validated JSON document as the
-- client sent it (minus server-owned fields), plus the few typed columns that lists filter on and that
-- uniqueness is enforced over. One table keeps seven families from repeating the same SQL.
CREATE TABLE IF NOT EXISTS resources (
  kind         text NOT NULL CHECK (kind IN ('dashboard', 'view', 'vfield', 'starred_query', 'annotation',
                                             'monitor', 'notifier')),
  id           text NOT NULL,
  -- Unique within a kind when set: a dashboard uid, "dataset/name" of a virtual field, a view name.
  natural_key  text,
  -- Datasets the resource belongs to (a virtual field's dataset, an annotation's datasets).
  datasets     text[] NOT NULL DEFAULT '{}',
  -- The user a resource belongs to (the "who" of a starred query, the owner of a dashboard).
  owner        text NOT NULL DEFAULT '',
  -- Time range an annotation marks; null for other kinds.
  start_time   timestamptz,
  end_time     timestamptz,
  document     jsonb NOT NULL,
  -- Optimistic concurrency: starts at 1, incremented by every update.
  version      bigint NOT NULL DEFAULT 1,
  created_by   text NOT NULL,
  updated_by   text NOT NULL,
  created_at   timestamptz NOT NULL,
  updated_at   timestamptz NOT NULL,
  PRIMARY KEY (kind, id)
);
CREATE UNIQUE INDEX IF NOT EXISTS resources_natural_key ON resources (kind, natural_key) WHERE natural_key IS NOT NULL;
CREATE INDEX IF NOT EXISTS resources_datasets_idx ON resources USING gin (datasets);
CREATE INDEX IF NOT EXISTS resources_kind_created_idx ON resources (kind, created_at, id);
`,
};
