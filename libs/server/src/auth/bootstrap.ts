import { randomUUID } from 'node:crypto';
import { sha256Hex } from '@quarry/common';
import type { Metastore } from '@quarry/metastore';
import type { QuarryConfig } from '../config/config';
import { allDatasetCapabilities, allOrgCapabilities } from './capabilities';

export interface BootstrapResult {
  orgId: string;
  userId: string;
  /** Secrets created by this start (shown once; only their hashes are stored). */
  createdApiToken?: string;
  createdPersonalToken?: string;
}

const ADMIN_EMAIL = 'admin@localhost';

/**
 * First start: the organization, an owner user, an admin API token and a personal access token.
 * `QUARRY_BOOTSTRAP_TOKEN` / `QUARRY_BOOTSTRAP_PAT` pin the secrets to known values (scripts, CI); they are
 * registered on any start where they are missing, so a restart with the same value keeps working.
 */
export async function bootstrapIdentity(
  metastore: Metastore,
  config: QuarryConfig,
): Promise<BootstrapResult> {
  const org = await metastore.orgs.ensure('quarry');
  let admin = (await metastore.users.list()).find((u) => u.role === 'owner');
  if (!admin) admin = await metastore.users.create({ name: 'admin', email: ADMIN_EMAIL, role: 'owner' });
  const result: BootstrapResult = { orgId: org.id, userId: admin.id };

  const tokens = await metastore.tokens.list();
  const apiSecret =
    config.bootstrapToken ?? (tokens.some((t) => t.kind === 'api') ? undefined : `xaat-${randomUUID()}`);
  if (apiSecret && !(await metastore.tokens.findByHash(sha256Hex(apiSecret)))) {
    await metastore.tokens.create({
      kind: 'api',
      name: 'bootstrap admin',
      description: 'Created at first start with every capability',
      secretHash: sha256Hex(apiSecret),
      userId: admin.id,
      orgCapabilities: allOrgCapabilities(),
      datasetCapabilities: allDatasetCapabilities(),
      viewCapabilities: {},
      expiresAt: null,
    });
    result.createdApiToken = apiSecret;
  }
  const patSecret =
    config.bootstrapPat ?? (tokens.some((t) => t.kind === 'personal') ? undefined : `xapt-${randomUUID()}`);
  if (patSecret && !(await metastore.tokens.findByHash(sha256Hex(patSecret)))) {
    await metastore.tokens.create({
      kind: 'personal',
      name: 'bootstrap personal token',
      description: 'Personal access token of the admin user',
      secretHash: sha256Hex(patSecret),
      userId: admin.id,
      orgCapabilities: {},
      datasetCapabilities: {},
      viewCapabilities: {},
      expiresAt: null,
    });
    result.createdPersonalToken = patSecret;
  }
  return result;
}
