import type { Migration } from './migration';

export const migration0001: Migration = {
  version: 1,
  name: 'initial',
  sql: `
-- The single org of this installation; the singleton column makes a second row impossible.
CREATE TABLE orgs (
  id          text PRIMARY KEY,
  name        text NOT NULL,
  created_at  timestamptz NOT NULL,
  singleton   boolean NOT NULL DEFAULT true UNIQUE CHECK (singleton)
);

CREATE TABLE users (
  id          text PRIMARY KEY,
  name        text NOT NULL,
  email       text NOT NULL,
  role        text NOT NULL CHECK (role IN ('owner', 'admin', 'user', 'none')),
  created_at  timestamptz NOT NULL
);
CREATE UNIQUE INDEX users_email_key ON users (lower(email));

-- API tokens and personal access tokens. Only the SHA-256 of the secret is stored. No foreign key to
-- users: an API token outlives the user who created it (the repository deletes a user's PATs with the user).
CREATE TABLE tokens (
  id                    text PRIMARY KEY,
  kind                  text NOT NULL CHECK (kind IN ('api', 'personal')),
  name                  text NOT NULL,
  description           text NOT NULL DEFAULT '',
  secret_hash           text NOT NULL,
  user_id               text NOT NULL,
  org_capabilities      jsonb NOT NULL DEFAULT '{}',
  dataset_capabilities  jsonb NOT NULL DEFAULT '{}',
  view_capabilities     jsonb NOT NULL DEFAULT '{}',
  expires_at            timestamptz,
  created_at            timestamptz NOT NULL,
  updated_at            timestamptz NOT NULL
);
CREATE UNIQUE INDEX tokens_secret_hash_key ON tokens (secret_hash);
CREATE INDEX tokens_user_id_idx ON tokens (user_id);

-- id is the incarnation: delete + re-create under the same name gives a new id, so log records of the
-- deleted incarnation never land in the new one.
CREATE TABLE datasets (
  id                    text PRIMARY KEY,
  name                  text NOT NULL,
  description           text NOT NULL DEFAULT '',
  kind                  text NOT NULL DEFAULT 'axiom:events:v1',
  who                   text NOT NULL DEFAULT '',
  created_at            timestamptz NOT NULL,
  updated_at            timestamptz NOT NULL,
  retention_days        integer NOT NULL DEFAULT 0,
  use_retention_period  boolean NOT NULL DEFAULT false,
  map_fields            text[] NOT NULL DEFAULT '{}'
);
CREATE UNIQUE INDEX datasets_name_key ON datasets (name);

CREATE TABLE dataset_fields (
  dataset_id   text NOT NULL REFERENCES datasets (id) ON DELETE CASCADE,
  name         text NOT NULL,
  type         text NOT NULL,
  unit         text NOT NULL DEFAULT '',
  description  text NOT NULL DEFAULT '',
  hidden       boolean NOT NULL DEFAULT false,
  PRIMARY KEY (dataset_id, name)
);

-- No foreign key to datasets: the compactor may register a block of a dataset deleted meanwhile, and that
-- must not fail the transaction that also commits the log offset (it would stall the compactor).
CREATE TABLE blocks (
  id            text PRIMARY KEY,
  dataset_id    text NOT NULL,
  object_key    text NOT NULL,
  row_count     bigint NOT NULL,
  size_bytes    bigint NOT NULL,
  -- epoch ms with a microsecond fraction: float8 holds it exactly.
  min_time      double precision NOT NULL,
  max_time      double precision NOT NULL,
  partition     integer NOT NULL,
  first_offset  bigint NOT NULL,
  last_offset   bigint NOT NULL,
  created_at    timestamptz NOT NULL
);
CREATE INDEX blocks_dataset_time_idx ON blocks (dataset_id, min_time);

-- committed_offset is the next offset to consume (Kafka semantics), 0 when nothing was consumed.
CREATE TABLE log_offsets (
  partition         integer PRIMARY KEY,
  committed_offset  bigint NOT NULL CHECK (committed_offset >= 0)
);
`,
};
