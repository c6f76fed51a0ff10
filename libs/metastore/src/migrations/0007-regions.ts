import type { Migration } from './migration';

/**
 * Regions (issue 14): each dataset lives in one region (Axiom's edge deployment), served by that
 * region's cluster. '' is the installation's home region (datasets created before regions existed).
 */
export const migration0007: Migration = {
  version: 7,
  name: 'regions',
  sql: `
ALTER TABLE datasets ADD COLUMN region text NOT NULL DEFAULT '';
`,
};
