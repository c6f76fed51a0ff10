import type { Migration } from './migration';

/** Cluster membership (issue 14): every node of a cluster, with a heartbeat. */
export const migration0006: Migration = {
  version: 6,
  name: 'membership',
  sql: `
-- One row per node: what it runs, where others reach it, what version it speaks. A node whose heartbeat
-- is older than the membership timeout is out; rows of nodes gone for long are pruned by the others.
CREATE TABLE cluster_members (
  node_id        text PRIMARY KEY,
  roles          text[] NOT NULL,
  advertise_url  text NOT NULL,
  version        text NOT NULL,
  rpc_version    integer NOT NULL,
  started_at     timestamptz NOT NULL,
  heartbeat_at   timestamptz NOT NULL
);
`,
};
