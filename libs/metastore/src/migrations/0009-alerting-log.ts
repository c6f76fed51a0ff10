import type { Migration } from './migration';

/**
 * Monitors and notifiers, what they did (issue 16): a failed monitor run is retried with backoff within
 * its interval (attempts, retry_at on its claim), and every notifier delivery attempt is kept so the
 * API can serve it (GET /v2/notifiers/{id}/deliveries).
 */
export const migration0009: Migration = {
  version: 9,
  name: 'alerting-log',
  sql: `
-- attempts: how many times the interval was run; a 'failed' run whose retry_at has passed may be
-- claimed again (by any node); retry_at is null once no retry is left within the interval.
ALTER TABLE monitor_runs ADD COLUMN attempts integer NOT NULL DEFAULT 1;
ALTER TABLE monitor_runs ADD COLUMN retry_at timestamptz;

-- One row per attempt to deliver a notification through a notifier.
CREATE TABLE notifier_deliveries (
  seq            bigserial PRIMARY KEY,
  notifier_id    text NOT NULL,
  monitor_id     text NOT NULL,
  check_id       text NOT NULL,
  action         text NOT NULL,
  channel        text NOT NULL,
  attempt        integer NOT NULL,
  status         text NOT NULL CHECK (status IN ('delivered', 'failed', 'refused')),
  http_status    integer,
  error          text,
  at             timestamptz NOT NULL
);
CREATE INDEX notifier_deliveries_notifier_idx ON notifier_deliveries (notifier_id, at);
`,
};
