import type { Migration } from './migration';

/**
 * Cluster-wide rate limits and quotas (issue 17): each node of a region adds what its tokens consumed
 * since its previous sync to one row per (counter, subject, window) and reads back the region's total
 * (`AdmissionCounterRepository`). A coordination table of the region (REGION_TABLES): each region counts
 * its own nodes. Rows of ended windows are deleted by the nodes (`deleteEnded`), using `window_end_ms`.
 */
export const migration0011: Migration = {
  version: 11,
  name: 'admission-counters',
  sql: `
CREATE TABLE admission_counters (
  counter          text   NOT NULL,
  subject          text   NOT NULL,
  window_start_ms  bigint NOT NULL,
  window_end_ms    bigint NOT NULL,
  used             bigint NOT NULL,
  PRIMARY KEY (counter, subject, window_start_ms)
);
CREATE INDEX admission_counters_window_end ON admission_counters (window_end_ms);
`,
};
