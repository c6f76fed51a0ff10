import type { Migration } from './migration';

/** Dashboards, views, virtual fields, starred queries, annotations, monitors, notifiers (issue 5) */
export const migration0003: Migration = {
  version: 3,
  name: 'resources',
  sql: `SELECT 1;`,
};
