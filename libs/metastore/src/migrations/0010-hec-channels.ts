import type { Migration } from './migration';

/**
 * Splunk HEC indexer acknowledgement (issue 16): each data channel's next ack id. A request that names a
 * channel is answered with the id its events got once they are durable; `POST /services/collector/ack`
 * answers true for every id below `next_ack`. In the installation's metastore, so any ingest node
 * answers for a channel another one served.
 */
export const migration0010: Migration = {
  version: 10,
  name: 'hec-channels',
  sql: `
CREATE TABLE hec_channels (
  channel      text PRIMARY KEY,
  next_ack     bigint NOT NULL,
  updated_at   timestamptz NOT NULL
);
`,
};
