import type { Migration } from './migration';

/** Monitors that run (issue 16): who evaluates which interval, each monitor's alert state, its history. */
export const migration0008: Migration = {
  version: 8,
  name: 'alerts',
  sql: `
-- One row per (monitor, interval end): the claim that makes exactly one node of a cluster evaluate a
-- monitor's interval. A claim that stays 'running' past its deadline (its node died mid-run) may be
-- taken over by another node; 'done' and 'failed' rows are final.
CREATE TABLE monitor_runs (
  monitor_id     text NOT NULL,
  interval_end   timestamptz NOT NULL,
  node_id        text NOT NULL,
  status         text NOT NULL CHECK (status IN ('running', 'done', 'failed')),
  claimed_at     timestamptz NOT NULL,
  finished_at    timestamptz,
  error          text,
  PRIMARY KEY (monitor_id, interval_end)
);

-- The evaluation state of a monitor (the last results per group, open alerts, events already
-- notified), written with the run that produced it. version guards against two writers.
CREATE TABLE monitor_states (
  monitor_id     text PRIMARY KEY,
  state          jsonb NOT NULL,
  version        bigint NOT NULL,
  updated_at     timestamptz NOT NULL
);

-- Alert state changes served by GET /v2/monitors/{id}/history (AlertHistory).
CREATE TABLE alert_history (
  seq            bigserial PRIMARY KEY,
  monitor_id     text NOT NULL,
  check_id       text NOT NULL,
  name           text NOT NULL,
  state          text NOT NULL CHECK (state IN ('open', 'closed')),
  at             timestamptz NOT NULL
);
CREATE INDEX alert_history_monitor_idx ON alert_history (monitor_id, at);
`,
};
