/**
 * Roles, groups and the roles a user holds through them, run against every `SqlDatabase` backend like the
 * metastore contract. Not part of the build: it uses jest globals.
 */
import { Metastore } from '../metastore';
import { ManualClock, rejection, type SqlDatabaseFactory } from './metastore-contract';

export function rbacContract(factory: SqlDatabaseFactory): void {
  describe(`RBAC repositories on ${factory.name}`, () => {
    let store: Metastore;
    const clock = new ManualClock();

    beforeAll(async () => {
      store = await Metastore.over(await factory.open(), { clock });
    });
    afterAll(async () => {
      await store?.close();
    });
    beforeEach(async () => {
      await store.db.exec('TRUNCATE rbac_roles, rbac_groups, users CASCADE');
    });

    const user = (email: string) => store.users.create({ name: email, email, role: 'none' });

    it('creates, reads, lists, replaces and deletes a role with its members', async () => {
      const alice = await user('alice@example.com');
      const role = await store.roles.create({
        name: 'Readers',
        description: 'read logs',
        orgCapabilities: { datasets: ['read'] },
        datasetCapabilities: { logs: { query: ['read'] } },
        members: [alice.id, alice.id],
      });
      expect(role).toMatchObject({ name: 'Readers', members: [alice.id], description: 'read logs' });
      expect(await store.roles.get(role.id)).toEqual(role);
      expect((await store.roles.list()).map((r) => r.id)).toEqual([role.id]);

      clock.advance(1000);
      const replaced = await store.roles.replace(role.id, { name: 'Readers 2', members: [] });
      expect(replaced).toMatchObject({
        name: 'Readers 2',
        members: [],
        orgCapabilities: {},
        description: '',
      });
      expect(Date.parse(replaced.updatedAt) - Date.parse(role.updatedAt)).toBe(1000);

      await store.roles.delete(role.id);
      expect(await store.roles.get(role.id)).toBeNull();
      expect((await rejection(store.roles.delete(role.id))).kind).toBe('not_found');
    });

    it('rejects duplicate names (any case), unknown members and unknown ids', async () => {
      await store.roles.create({ name: 'ops' });
      expect((await rejection(store.roles.create({ name: 'OPS' }))).kind).toBe('conflict');
      const unknown = await rejection(store.roles.create({ name: 'x', members: ['nobody'] }));
      expect(unknown).toMatchObject({ kind: 'invalid', message: expect.stringContaining('nobody') });
      // The failed create left nothing behind.
      expect((await store.roles.list()).map((r) => r.name)).toEqual(['ops']);
      expect((await rejection(store.roles.replace('role_nope', { name: 'y' }))).kind).toBe('not_found');
      const other = await store.roles.create({ name: 'other' });
      expect((await rejection(store.roles.replace(other.id, { name: 'Ops' }))).kind).toBe('conflict');
    });

    it('groups hold members and roles; a user holds direct and group roles once each', async () => {
      const bob = await user('bob@example.com');
      const carol = await user('carol@example.com');
      const viewers = await store.roles.create({ name: 'viewers', members: [bob.id] });
      const writers = await store.roles.create({ name: 'writers' });
      const group = await store.groups.create({
        name: 'team',
        members: [bob.id, carol.id],
        roles: [viewers.id, writers.id],
      });
      expect(group.members).toEqual([bob.id, carol.id].sort());
      expect(group.roles).toEqual([viewers.id, writers.id].sort());
      expect((await store.roles.rolesOfUser(bob.id)).map((r) => r.name)).toEqual(['viewers', 'writers']);
      expect((await store.roles.rolesOfUser(carol.id)).map((r) => r.name)).toEqual(['viewers', 'writers']);

      await store.groups.replace(group.id, { name: 'team', members: [bob.id], roles: [writers.id] });
      expect(await store.roles.rolesOfUser(carol.id)).toEqual([]);

      // Deleting a role or a user removes their memberships.
      await store.roles.delete(writers.id);
      expect((await store.groups.get(group.id))!.roles).toEqual([]);
      await store.users.delete(bob.id);
      expect((await store.groups.get(group.id))!.members).toEqual([]);

      expect((await rejection(store.groups.create({ name: 'TEAM' }))).kind).toBe('conflict');
      const badRole = await rejection(store.groups.create({ name: 'g2', roles: ['role_nope'] }));
      expect(badRole).toMatchObject({ kind: 'invalid', message: 'unknown role id: role_nope' });
      await store.groups.delete(group.id);
      expect((await rejection(store.groups.delete(group.id))).kind).toBe('not_found');
    });

    it('accepts the read-only built-in user role', async () => {
      const u = await store.users.create({ name: 'r', email: 'r@example.com', role: 'read-only' });
      expect((await store.users.get(u.id))!.role).toBe('read-only');
    });
  });
}
