/**
 * The `ManagementApi` contract, run against the in-memory fake (`management-api.fake.spec.ts`) and against
 * the HTTP adapter on a real management server (`test/operator/management-api-contract.test.ts`). What the
 * reconcilers rely on is asserted here, so the fake cannot promise what the server does not do.
 * Not part of the build: it uses jest globals.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  isManagementError,
  type ManagementApi,
  type ManagementErrorKind,
  type TokenBody,
} from '../management-api.port';

export interface ManagementApiTarget {
  name: string;
  /** Opens the API with working admin credentials, plus one whose credentials the server refuses. */
  open(): Promise<{
    api: ManagementApi;
    badCredentials: ManagementApi;
    /** A user id the server accepts as a role member. */
    userId: string;
    /** Whether `secret` authenticates right now. */
    secretWorks(secret: string): Promise<boolean>;
    close(): Promise<void>;
  }>;
}

/** Resolves to the kind of the `ManagementError` the call fails with. */
export async function failureKind(
  call: Promise<unknown>,
): Promise<ManagementErrorKind | 'resolved' | 'other'> {
  try {
    await call;
    return 'resolved';
  } catch (err) {
    return isManagementError(err) ? err.kind : 'other';
  }
}

export function managementApiContract(target: ManagementApiTarget): void {
  describe(`ManagementApi contract on ${target.name}`, () => {
    let env: Awaited<ReturnType<ManagementApiTarget['open']>>;
    let api: ManagementApi;
    let n = 0;
    const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${n++}`;

    beforeAll(async () => {
      env = await target.open();
      api = env.api;
    });
    afterAll(async () => {
      await env?.close();
    });

    it('creates, reads, lists, updates and deletes a dataset; a second create is a Conflict', async () => {
      const name = unique('ds');
      const created = await api.createDataset({
        name,
        description: 'd1',
        kind: 'axiom:events:v1',
        retentionDays: 0,
        useRetentionPeriod: false,
      });
      expect(created).toMatchObject({ name, description: 'd1', kind: 'axiom:events:v1' });
      expect(typeof created.edgeDeployment).toBe('string');
      expect(await api.getDataset(name)).toMatchObject({ name, description: 'd1' });
      expect((await api.listDatasets()).map((d) => d.name)).toContain(name);

      const updated = await api.updateDataset(name, {
        description: 'd2',
        retentionDays: 30,
        useRetentionPeriod: true,
      });
      expect(updated).toMatchObject({ description: 'd2', retentionDays: 30, useRetentionPeriod: true });
      expect(await api.replaceMapFields(name, ['attrs', 'resource'])).toEqual(['attrs', 'resource']);
      expect((await api.getDataset(name)).mapFields).toEqual(['attrs', 'resource']);

      expect(
        await failureKind(
          api.createDataset({
            name,
            description: '',
            kind: 'axiom:events:v1',
            retentionDays: 0,
            useRetentionPeriod: false,
          }),
        ),
      ).toBe('Conflict');
      await api.deleteDataset(name);
      expect(await failureKind(api.getDataset(name))).toBe('NotFound');
      expect(await failureKind(api.deleteDataset(name))).toBe('NotFound');
    });

    it('refuses invalid dataset bodies and unknown regions as Invalid', async () => {
      const base = { description: '', kind: 'axiom:events:v1', retentionDays: 0, useRetentionPeriod: false };
      expect(await failureKind(api.createDataset({ ...base, name: 'axiom-reserved' }))).toBe('Invalid');
      expect(await failureKind(api.createDataset({ ...base, name: unique('ds'), kind: 'nope' }))).toBe(
        'Invalid',
      );
      expect(
        await failureKind(api.createDataset({ ...base, name: unique('ds'), edgeDeployment: 'mars-1' })),
      ).toBe('Invalid');
    });

    it('classifies refused credentials as Unauthorized', async () => {
      expect(await failureKind(env.badCredentials.listDatasets())).toBe('Unauthorized');
      expect(await failureKind(env.badCredentials.getRole('role_x'))).toBe('Unauthorized');
    });

    it('creates, replaces and deletes a role; names are unique ignoring case', async () => {
      const name = unique('Role');
      const body = {
        name,
        description: 'r1',
        members: [env.userId],
        orgCapabilities: { datasets: ['read'] },
        datasetCapabilities: { logs: { query: ['read'] } },
        viewCapabilities: {},
      };
      const role = await api.createRole(body);
      expect(role).toMatchObject({ name, description: 'r1', members: [env.userId] });
      expect(role.datasetCapabilities).toEqual({ logs: { query: ['read'] } });
      expect(await api.getRole(role.id)).toMatchObject({ id: role.id, name });
      expect((await api.listRoles()).map((r) => r.id)).toContain(role.id);
      expect(await failureKind(api.createRole({ ...body, name: name.toUpperCase() }))).toBe('Conflict');

      const replaced = await api.replaceRole(role.id, { ...body, description: 'r2', members: [] });
      expect(replaced).toMatchObject({ id: role.id, description: 'r2', members: [] });
      await api.deleteRole(role.id);
      expect(await failureKind(api.getRole(role.id))).toBe('NotFound');
      expect(await failureKind(api.deleteRole(role.id))).toBe('NotFound');
      expect(await failureKind(api.replaceRole(role.id, body))).toBe('NotFound');
    });

    it('shows a token secret only when minting; regenerate mints a new id and expires the old one later', async () => {
      const body: TokenBody = {
        name: unique('tok'),
        description: 't1',
        expiresAt: null,
        orgCapabilities: {},
        datasetCapabilities: { '*': { ingest: ['create'] } },
        viewCapabilities: {},
      };
      const minted = await api.createToken(body);
      expect(minted.secret).toMatch(/^xaat-/);
      expect(minted.token).toMatchObject({ name: body.name, description: 't1' });
      expect(minted.token).not.toHaveProperty('token');
      const fetched = await api.getToken(minted.token.id);
      expect(fetched).toMatchObject({ id: minted.token.id, name: body.name });
      expect(fetched).not.toHaveProperty('token');
      expect(await env.secretWorks(minted.secret)).toBe(true);

      const graceEnd = new Date(Date.now() + 3_600_000).toISOString();
      const rotated = await api.regenerateToken(minted.token.id, {
        existingTokenExpiresAt: graceEnd,
        newToken: { ...body, description: 't2' },
      });
      expect(rotated.token.id).not.toBe(minted.token.id);
      expect(rotated.secret).not.toBe(minted.secret);
      expect(rotated.token.description).toBe('t2');
      expect(Date.parse((await api.getToken(minted.token.id)).expiresAt!)).toBe(Date.parse(graceEnd));
      // Inside the grace period both secrets work.
      expect(await env.secretWorks(minted.secret)).toBe(true);
      expect(await env.secretWorks(rotated.secret)).toBe(true);

      await api.deleteToken(minted.token.id);
      expect(await env.secretWorks(minted.secret)).toBe(false);
      expect(await failureKind(api.getToken(minted.token.id))).toBe('NotFound');
      expect(await failureKind(api.deleteToken(minted.token.id))).toBe('NotFound');
      expect((await api.listTokens()).map((t) => t.id)).toContain(rotated.token.id);
      await api.deleteToken(rotated.token.id);
    });

    it('refuses a token expiring in the past as Invalid', async () => {
      const kind = await failureKind(
        api.createToken({
          name: unique('tok'),
          description: '',
          expiresAt: '2001-01-01T00:00:00Z',
          orgCapabilities: {},
          datasetCapabilities: { '*': { ingest: ['create'] } },
          viewCapabilities: {},
        }),
      );
      expect(kind).toBe('Invalid');
    });
  });
}
