import type { Migration } from './migration';

/** RBAC: roles, groups and their members (issue 5, access control) */
export const migration0002: Migration = {
  version: 2,
  name: 'rbac',
  sql: `
-- Custom roles carry capabilities like tokens do. A user holds the capabilities of their built-in role
-- (users.role), of the roles assigned to them directly and of the roles of every group they belong to.
CREATE TABLE IF NOT EXISTS rbac_roles (
  id                    text PRIMARY KEY,
  name                  text NOT NULL,
  description           text NOT NULL DEFAULT '',
  org_capabilities      jsonb NOT NULL DEFAULT '{}',
  dataset_capabilities  jsonb NOT NULL DEFAULT '{}',
  view_capabilities     jsonb NOT NULL DEFAULT '{}',
  created_at            timestamptz NOT NULL,
  updated_at            timestamptz NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS rbac_roles_name_key ON rbac_roles (lower(name));

CREATE TABLE IF NOT EXISTS rbac_role_members (
  role_id  text NOT NULL REFERENCES rbac_roles (id) ON DELETE CASCADE,
  user_id  text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  PRIMARY KEY (role_id, user_id)
);
CREATE INDEX IF NOT EXISTS rbac_role_members_user_idx ON rbac_role_members (user_id);

CREATE TABLE IF NOT EXISTS rbac_groups (
  id           text PRIMARY KEY,
  name         text NOT NULL,
  description  text NOT NULL DEFAULT '',
  created_at   timestamptz NOT NULL,
  updated_at   timestamptz NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS rbac_groups_name_key ON rbac_groups (lower(name));

CREATE TABLE IF NOT EXISTS rbac_group_members (
  group_id  text NOT NULL REFERENCES rbac_groups (id) ON DELETE CASCADE,
  user_id   text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  PRIMARY KEY (group_id, user_id)
);
CREATE INDEX IF NOT EXISTS rbac_group_members_user_idx ON rbac_group_members (user_id);

CREATE TABLE IF NOT EXISTS rbac_group_roles (
  group_id  text NOT NULL REFERENCES rbac_groups (id) ON DELETE CASCADE,
  role_id   text NOT NULL REFERENCES rbac_roles (id) ON DELETE CASCADE,
  PRIMARY KEY (group_id, role_id)
);

-- Axiom's built-in roles include read-only (the Go client maps none/read-only/user/admin/owner).
ALTER TABLE users DROP CONSTRAINT IF EXISTS users_role_check;
ALTER TABLE users ADD CONSTRAINT users_role_check CHECK (role IN ('owner', 'admin', 'user', 'read-only', 'none'));
`,
};
