import type { Migration } from './migration';

/** Metrics datasets: series catalog and tag index (issue 6) */
export const migration0004: Migration = {
  version: 4,
  name: 'metrics',
  sql: `SELECT 1;`,
};
