/**
 * The reconcile suite of k8s.md §9.1, table-driven per kind, against an in-memory Kubernetes and any
 * management API: the in-memory fake (`reconcile.spec.ts`) or the real management app over HTTP
 * (`test/operator/reconcile-real-server.test.ts`). Faults are scripted with `InstrumentedManagementApi`,
 * so both targets see the same 503s, timeouts and 401s.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ManualClock } from '../clock';
import { findCondition } from '../conditions';
import { ConnectionResolver } from '../connection-resolver';
import { ANNOTATIONS, FINALIZER, LABELS, SECRET_KEYS, API_VERSION } from '../constants';
import { datasetReconciler } from '../dataset-reconciler';
import { KubeConflictError } from '../kube-objects.port';
import type { ManagedReconciler, ReconcileDeps } from '../managed-reconcile';
import { ManagementError, orMissing, type ManagementApi } from '../management-api.port';
import type { ReconcileResult } from '../reconcile-result';
import type { AllResources, DatasetSpec, ManagedKind, RoleSpec, TokenSpec } from '../resources';
import { roleReconciler } from '../role-reconciler';
import { tokenReconciler } from '../token-reconciler';
import { InstrumentedManagementApi } from './instrumented-management-api';
import { InMemoryKubeObjects } from './kube-objects.fake';

export interface ReconcileTarget {
  name: string;
  /** Opens a management API whose notion of "now" is at or before `clock` (tokens expire by it). */
  open(clock: ManualClock): Promise<{
    api: ManagementApi;
    url: string;
    token: string;
    userId: string;
    secretWorks(secret: string): Promise<boolean>;
    close(): Promise<void>;
  }>;
}

const OPERATOR_NAMESPACE = 'quarry-system';
const NS = 'shop';
/** Long enough that token deadlines (minutes) come before it. */
const RESYNC_MS = 3_600_000;

export function reconcileSuite(target: ReconcileTarget): void {
  describe(`reconcile on ${target.name}`, () => {
    const clock = new ManualClock(Date.now());
    let env: Awaited<ReturnType<ReconcileTarget['open']>>;
    let n = 0;
    const run = Date.now().toString(36);
    /** Names unique across the run: the real server is shared by every case. */
    const unique = (prefix: string) => `${prefix}-${run}-${n++}`;

    beforeAll(async () => {
      env = await target.open(clock);
    });
    afterAll(async () => {
      await env?.close();
    });

    /** One operator with its own in-memory cluster, talking to the shared API. */
    function world() {
      const kube = new InMemoryKubeObjects();
      kube.create('QuarryConnection', {
        apiVersion: API_VERSION,
        kind: 'QuarryConnection',
        metadata: { name: 'default' },
        spec: { url: env.url, credentialsSecretRef: { name: 'quarry-admin', key: 'token' } },
      });
      kube.putSecret({
        metadata: { namespace: OPERATOR_NAMESPACE, name: 'quarry-admin' },
        data: { token: env.token },
      });
      const calls = new InstrumentedManagementApi(env.api);
      const deps: ReconcileDeps = {
        kube,
        connections: new ConnectionResolver(kube, OPERATOR_NAMESPACE),
        apiFor: () => calls.api,
        clock,
        resyncMs: RESYNC_MS,
        random: () => 0.5,
      };
      const reconcilers: { [K in ManagedKind]: ManagedReconciler<K> } = {
        Dataset: datasetReconciler(deps),
        Role: roleReconciler(deps),
        Token: tokenReconciler(deps),
      };
      const w = {
        kube,
        calls,
        api: env.api,
        apply<K extends ManagedKind>(
          kind: K,
          name: string,
          spec: AllResources[K]['spec'],
          annotations?: Record<string, string>,
        ) {
          return kube.create(kind, {
            apiVersion: API_VERSION,
            kind,
            metadata: { name, namespace: NS, ...(annotations ? { annotations } : {}) },
            spec,
          } as AllResources[K]);
        },
        reconcile(kind: ManagedKind, name: string): Promise<ReconcileResult> {
          return reconcilers[kind].reconcile({ namespace: NS, name });
        },
        get<K extends ManagedKind>(kind: K, name: string) {
          return kube.peek(kind, NS, name);
        },
        condition(kind: ManagedKind, name: string, type: 'Ready' | 'Synced') {
          return findCondition(kube.peek(kind, NS, name)?.status?.conditions, type);
        },
        edit<K extends ManagedKind>(kind: K, name: string, change: (o: AllResources[K]) => void) {
          return kube.edit(kind, NS, name, change);
        },
        /** `kubectl delete`, then reconcile until the object is gone (at most a few passes). */
        async remove(kind: ManagedKind, name: string) {
          kube.delete(kind, NS, name);
          const results: ReconcileResult[] = [];
          for (let i = 0; i < 3 && kube.peek(kind, NS, name); i++)
            results.push(await w.reconcile(kind, name));
          return results;
        },
      };
      return w;
    }

    describe('Dataset', () => {
      const spec = (extra: Partial<DatasetSpec> = {}): DatasetSpec => ({
        description: 'checkout logs',
        ...extra,
      });

      it('creates the dataset, reports Ready/Synced, and a resync writes nothing', async () => {
        const w = world();
        const name = unique('logs');
        w.apply('Dataset', name, spec({ retentionDays: 30, mapFields: ['attributes'] }));

        const result = await w.reconcile('Dataset', name);
        expect(result).toEqual({ requeue: 'none' });
        expect(await w.api.getDataset(name)).toMatchObject({
          name,
          description: 'checkout logs',
          kind: 'axiom:events:v1',
          retentionDays: 30,
          useRetentionPeriod: true,
          mapFields: ['attributes'],
        });
        const cr = w.get('Dataset', name)!;
        expect(cr.metadata.finalizers).toEqual([FINALIZER]);
        expect(cr.status).toMatchObject({ observedGeneration: 1, datasetName: name });
        expect(w.condition('Dataset', name, 'Ready')).toMatchObject({
          status: 'True',
          reason: 'Available',
          observedGeneration: 1,
        });
        expect(w.condition('Dataset', name, 'Synced')).toMatchObject({
          status: 'True',
          reason: 'ReconcileSuccess',
        });
        expect(w.kube.events.map((e) => e.reason)).toContain('Created');

        const writes = w.kube.statusWrites();
        w.calls.reset();
        clock.advance(RESYNC_MS);
        await w.reconcile('Dataset', name);
        expect(w.kube.statusWrites()).toBe(writes);
        expect(w.calls.writes()).toEqual([]);
      });

      it('adopts a dataset whose create answers 409 (created between GET and POST)', async () => {
        const w = world();
        const name = unique('race');
        await w.api.createDataset({
          name,
          description: 'made by hand',
          kind: 'axiom:events:v1',
          retentionDays: 0,
          useRetentionPeriod: false,
        });
        w.apply('Dataset', name, spec());
        w.calls.failNext('getDataset', new ManagementError('NotFound', 'not found (stale read)', 404));

        await w.reconcile('Dataset', name);
        expect(w.calls.methods()).toEqual(['getDataset', 'createDataset', 'getDataset', 'updateDataset']);
        expect(w.condition('Dataset', name, 'Ready')).toMatchObject({ status: 'True', reason: 'Available' });
        expect(w.kube.events.map((e) => e.reason)).toContain('Adopted');
        expect((await w.api.getDataset(name)).description).toBe('checkout logs');
      });

      it('puts description and retention back when they drift in Quarry', async () => {
        const w = world();
        const name = unique('drift');
        w.apply('Dataset', name, spec());
        await w.reconcile('Dataset', name);
        await w.api.updateDataset(name, {
          description: 'edited in the UI',
          retentionDays: 7,
          useRetentionPeriod: true,
        });

        w.calls.reset();
        await w.reconcile('Dataset', name);
        expect(w.calls.writes()).toEqual(['updateDataset']);
        expect(await w.api.getDataset(name)).toMatchObject({
          description: 'checkout logs',
          useRetentionPeriod: false,
        });
      });

      it('applies a spec edit and records the new generation', async () => {
        const w = world();
        const name = unique('edit');
        w.apply('Dataset', name, spec());
        await w.reconcile('Dataset', name);
        w.edit('Dataset', name, (d) => (d.spec.description = 'new words'));
        await w.reconcile('Dataset', name);
        expect((await w.api.getDataset(name)).description).toBe('new words');
        expect(w.get('Dataset', name)!.status?.observedGeneration).toBe(2);
        expect(w.condition('Dataset', name, 'Ready')?.observedGeneration).toBe(2);
      });

      it('recreates a dataset deleted outside Kubernetes', async () => {
        const w = world();
        const name = unique('gone');
        w.apply('Dataset', name, spec());
        await w.reconcile('Dataset', name);
        await w.api.deleteDataset(name);
        await w.reconcile('Dataset', name);
        expect(await w.api.getDataset(name)).toMatchObject({ name, description: 'checkout logs' });
        expect(w.condition('Dataset', name, 'Ready')?.status).toBe('True');
      });

      it('reports a kind change as ImmutableFieldChanged and never recreates the dataset', async () => {
        const w = world();
        const name = unique('kind');
        w.apply('Dataset', name, spec());
        await w.reconcile('Dataset', name);
        const created = (await w.api.getDataset(name)).created;
        w.edit('Dataset', name, (d) => (d.spec.kind = 'OTelLogs'));

        w.calls.reset();
        const result = await w.reconcile('Dataset', name);
        expect(w.condition('Dataset', name, 'Ready')).toMatchObject({
          status: 'False',
          reason: 'ImmutableFieldChanged',
        });
        expect(w.condition('Dataset', name, 'Ready')?.message).toContain('otel:logs:v1');
        expect(w.calls.writes()).toEqual([]);
        expect(await w.api.getDataset(name)).toMatchObject({ kind: 'axiom:events:v1', created });
        // No timed requeue: the connection's resync looks again (resync-scan.ts).
        expect(result.requeue).toBe('none');
      });

      it('gives the younger of two CRs naming one dataset ResourceConflict, and its deletion spares the data', async () => {
        const w = world();
        const name = unique('shared');
        w.apply('Dataset', 'older', spec({ name }));
        w.apply('Dataset', 'younger', spec({ name, description: 'other words', deletionPolicy: 'Delete' }));
        await w.reconcile('Dataset', 'older');
        await w.reconcile('Dataset', 'younger');
        expect(w.condition('Dataset', 'older', 'Ready')?.reason).toBe('Available');
        expect(w.condition('Dataset', 'younger', 'Ready')).toMatchObject({
          status: 'False',
          reason: 'ResourceConflict',
        });
        expect(w.condition('Dataset', 'younger', 'Ready')?.message).toContain(`${NS}/older`);
        expect(w.condition('Dataset', 'younger', 'Synced')?.status).toBe('True');
        expect((await w.api.getDataset(name)).description).toBe('checkout logs');

        await w.remove('Dataset', 'younger');
        expect(w.get('Dataset', 'younger')).toBeUndefined();
        expect(await w.api.getDataset(name)).toMatchObject({ name });
      });

      it.each([
        [
          '503',
          new ManagementError('Unavailable', 'GET /v2/datasets/x failed with 503: replaying', 503, 2_000),
          2_000,
        ],
        [
          'a timeout',
          new ManagementError('Unavailable', 'GET /v2/datasets/x: timed out after 10000 ms'),
          undefined,
        ],
      ])(
        'turns %s into Synced=False ManagementAPIUnavailable with backoff, keeping Ready',
        async (_, error, notBefore) => {
          const w = world();
          const name = unique('down');
          w.apply('Dataset', name, spec());
          await w.reconcile('Dataset', name);
          w.calls.failNext('*', error);

          const result = await w.reconcile('Dataset', name);
          expect(result).toMatchObject({ requeue: 'backoff', notBeforeMs: notBefore });
          expect(w.condition('Dataset', name, 'Synced')).toMatchObject({
            status: 'False',
            reason: 'ManagementAPIUnavailable',
          });
          expect(w.condition('Dataset', name, 'Ready')).toMatchObject({
            status: 'True',
            reason: 'Available',
          });
          expect(w.kube.events.at(-1)).toMatchObject({ type: 'Warning', reason: 'ManagementAPIUnavailable' });

          // Recovery: the next pass succeeds and Synced flips back.
          await w.reconcile('Dataset', name);
          expect(w.condition('Dataset', name, 'Synced')).toMatchObject({
            status: 'True',
            reason: 'ReconcileSuccess',
          });
        },
      );

      it('turns 401/403 into Synced=False Unauthorized, retried after 5 minutes', async () => {
        const w = world();
        const name = unique('auth');
        w.apply('Dataset', name, spec());
        w.calls.failNext(
          '*',
          new ManagementError('Unauthorized', 'GET /v2/datasets/x failed with 401: invalid token', 401),
        );
        const result = await w.reconcile('Dataset', name);
        expect(result).toMatchObject({ requeue: 'after', afterMs: 300_000 });
        expect(w.condition('Dataset', name, 'Synced')).toMatchObject({
          status: 'False',
          reason: 'Unauthorized',
        });
        expect(w.condition('Dataset', name, 'Ready')).toMatchObject({ status: 'Unknown' });
      });

      it('turns a refused spec into Ready=False InvalidSpec without requeue, until the spec changes', async () => {
        const w = world();
        const name = unique('invalid');
        // A region the server does not know: the real server and the fake both answer 400.
        w.apply('Dataset', name, spec({ region: 'mars-1' }));
        const result = await w.reconcile('Dataset', name);
        expect(result.requeue).toBe('none');
        expect(w.condition('Dataset', name, 'Ready')).toMatchObject({
          status: 'False',
          reason: 'InvalidSpec',
        });
        expect(w.condition('Dataset', name, 'Ready')?.message).toContain('mars-1');

        w.calls.reset();
        await w.reconcile('Dataset', name);
        expect(w.calls.methods()).toEqual([]);

        w.edit('Dataset', name, (d) => delete d.spec.region);
        await w.reconcile('Dataset', name);
        expect(w.condition('Dataset', name, 'Ready')).toMatchObject({ status: 'True', reason: 'Available' });
      });

      it('treats a scripted 422 like any refused spec', async () => {
        const w = world();
        const name = unique('unproc');
        w.apply('Dataset', name, spec());
        w.calls.failNext('getDataset', new ManagementError('Invalid', 'failed with 422: bad', 422));
        expect((await w.reconcile('Dataset', name)).requeue).toBe('none');
        expect(w.condition('Dataset', name, 'Ready')?.reason).toBe('InvalidSpec');
      });

      it('makes no API call while paused', async () => {
        const w = world();
        const name = unique('paused');
        w.apply('Dataset', name, spec(), { [ANNOTATIONS.paused]: 'true' });
        expect(await w.reconcile('Dataset', name)).toEqual({ requeue: 'none' });
        expect(w.calls.methods()).toEqual([]);
        expect(w.condition('Dataset', name, 'Synced')).toMatchObject({
          status: 'False',
          reason: 'ReconcilePaused',
        });
        expect(await orMissing(w.api.getDataset(name))).toBeUndefined();
      });

      it('reports ConnectionNotReady while the connection Secret is missing', async () => {
        const w = world();
        const name = unique('noconn');
        w.kube.secrets.clear();
        w.apply('Dataset', name, spec());
        expect(await w.reconcile('Dataset', name)).toMatchObject({ requeue: 'after', afterMs: 30_000 });
        expect(w.condition('Dataset', name, 'Ready')).toMatchObject({
          status: 'False',
          reason: 'ConnectionNotReady',
        });
        expect(w.calls.methods()).toEqual([]);
      });

      it('retries shortly, without a status write, when a write loses a resourceVersion race', async () => {
        const w = world();
        const name = unique('race-rv');
        w.apply('Dataset', name, spec());
        w.kube.failNext('patchStatus', new KubeConflictError('stale'));
        expect(await w.reconcile('Dataset', name)).toEqual({ requeue: 'after', afterMs: 1_000 });
        await w.reconcile('Dataset', name);
        expect(w.condition('Dataset', name, 'Ready')?.reason).toBe('Available');
      });

      it.each<['Delete' | 'Orphan', string, boolean]>([
        ['Delete', 'exists', false],
        ['Delete', 'already deleted in Quarry (404 counts as done)', false],
        ['Orphan', 'exists', true],
      ])('deletes with policy %s when the dataset %s', async (policy, state, survives) => {
        const w = world();
        const name = unique('del');
        w.apply('Dataset', name, spec({ deletionPolicy: policy }));
        await w.reconcile('Dataset', name);
        if (state !== 'exists') await w.api.deleteDataset(name);

        await w.remove('Dataset', name);
        expect(w.get('Dataset', name)).toBeUndefined();
        expect((await orMissing(w.api.getDataset(name))) !== undefined).toBe(survives);
      });

      it('orphans by default: deleting the CR keeps the data', async () => {
        const w = world();
        const name = unique('default-orphan');
        w.apply('Dataset', name, spec());
        await w.reconcile('Dataset', name);
        await w.remove('Dataset', name);
        expect(w.get('Dataset', name)).toBeUndefined();
        expect(await w.api.getDataset(name)).toMatchObject({ name });
      });

      it('keeps the finalizer while the API is down during deletion', async () => {
        const w = world();
        const name = unique('del-down');
        w.apply('Dataset', name, spec({ deletionPolicy: 'Delete' }));
        await w.reconcile('Dataset', name);
        w.kube.delete('Dataset', NS, name);
        w.calls.failNext('*', new ManagementError('Unavailable', 'connect ECONNREFUSED'));
        expect((await w.reconcile('Dataset', name)).requeue).toBe('backoff');
        expect(w.get('Dataset', name)?.metadata.finalizers).toEqual([FINALIZER]);
        expect(w.condition('Dataset', name, 'Synced')?.reason).toBe('ManagementAPIUnavailable');
        await w.reconcile('Dataset', name);
        expect(w.get('Dataset', name)).toBeUndefined();
      });
    });

    describe('Role', () => {
      const spec = (extra: Partial<RoleSpec> = {}): RoleSpec => ({
        description: 'read logs',
        members: [env.userId],
        orgCapabilities: { datasets: ['read'] },
        datasetCapabilities: [{ dataset: 'logs', query: ['read'] }],
        ...extra,
      });

      it('creates the role, records its id in the annotation and status, and a resync writes nothing', async () => {
        const w = world();
        const name = unique('readers');
        w.apply('Role', name, spec());
        await w.reconcile('Role', name);
        const cr = w.get('Role', name)!;
        const id = cr.metadata.annotations?.[ANNOTATIONS.externalId];
        expect(id).toBeTruthy();
        expect(cr.metadata.annotations?.[ANNOTATIONS.createPending]).toBeUndefined();
        expect(cr.status?.roleId).toBe(id);
        expect(await w.api.getRole(id!)).toMatchObject({
          name,
          members: [env.userId],
          datasetCapabilities: { logs: { query: ['read'] } },
        });
        expect(w.condition('Role', name, 'Ready')?.reason).toBe('Available');

        w.calls.reset();
        const writes = w.kube.statusWrites();
        await w.reconcile('Role', name);
        expect(w.calls.writes()).toEqual([]);
        expect(w.kube.statusWrites()).toBe(writes);
      });

      it('puts drifted fields back with one PUT of the whole role', async () => {
        const w = world();
        const name = unique('drift');
        w.apply('Role', name, spec());
        await w.reconcile('Role', name);
        const id = w.get('Role', name)!.status!.roleId!;
        await w.api.replaceRole(id, {
          name,
          description: 'changed by hand',
          members: [],
          orgCapabilities: {},
          datasetCapabilities: {},
          viewCapabilities: {},
        });
        w.calls.reset();
        await w.reconcile('Role', name);
        expect(w.calls.writes()).toEqual(['replaceRole']);
        expect(await w.api.getRole(id)).toMatchObject({ description: 'read logs', members: [env.userId] });
      });

      it('recreates a role deleted outside Kubernetes under a new id', async () => {
        const w = world();
        const name = unique('gone');
        w.apply('Role', name, spec());
        await w.reconcile('Role', name);
        const oldId = w.get('Role', name)!.status!.roleId!;
        await w.api.deleteRole(oldId);
        await w.reconcile('Role', name);
        const newId = w.get('Role', name)!.status!.roleId!;
        expect(newId).not.toBe(oldId);
        expect(w.get('Role', name)!.metadata.annotations?.[ANNOTATIONS.externalId]).toBe(newId);
        expect(await w.api.getRole(newId)).toMatchObject({ name });
      });

      it('adopts by name after a crash between the POST and the id write', async () => {
        const w = world();
        const name = unique('crash');
        w.apply('Role', name, spec());
        // The first annotation write sets the pending mark; the second (the id) "crashes".
        w.kube.failNext('setAnnotations', new Error('operator killed'), 1);
        expect((await w.reconcile('Role', name)).requeue).toBe('backoff');
        const crashed = w.get('Role', name)!;
        expect(crashed.metadata.annotations?.[ANNOTATIONS.createPending]).toBeTruthy();
        expect(crashed.metadata.annotations?.[ANNOTATIONS.externalId]).toBeUndefined();

        w.calls.reset();
        await w.reconcile('Role', name);
        expect(w.calls.methods()).not.toContain('createRole');
        const roles = (await w.api.listRoles()).filter((r) => r.name === name);
        expect(roles).toHaveLength(1);
        expect(w.get('Role', name)!.status?.roleId).toBe(roles[0].id);
        expect(w.get('Role', name)!.metadata.annotations?.[ANNOTATIONS.createPending]).toBeUndefined();
      });

      it('adopts an existing role of the same name when create answers 409', async () => {
        const w = world();
        const name = unique('exists');
        const existing = await w.api.createRole({
          name,
          description: 'hand made',
          members: [],
          orgCapabilities: {},
          datasetCapabilities: {},
          viewCapabilities: {},
        });
        w.apply('Role', name, spec());
        await w.reconcile('Role', name);
        expect(w.get('Role', name)!.status?.roleId).toBe(existing.id);
        expect(await w.api.getRole(existing.id)).toMatchObject({ description: 'read logs' });
      });

      it('gives the younger of two Roles with one name (ignoring case) ResourceConflict', async () => {
        const w = world();
        const name = unique('dup');
        w.apply('Role', 'first', spec({ name }));
        w.apply('Role', 'second', spec({ name: name.toUpperCase() }));
        await w.reconcile('Role', 'first');
        await w.reconcile('Role', 'second');
        expect(w.condition('Role', 'second', 'Ready')?.reason).toBe('ResourceConflict');
        expect(w.calls.methods().filter((m) => m === 'createRole')).toHaveLength(1);
      });

      it.each<['Delete' | 'Orphan', boolean]>([
        ['Delete', false],
        ['Orphan', true],
      ])('deletes with policy %s', async (policy, survives) => {
        const w = world();
        const name = unique('del');
        w.apply('Role', name, spec({ deletionPolicy: policy }));
        await w.reconcile('Role', name);
        const id = w.get('Role', name)!.status!.roleId!;
        await w.remove('Role', name);
        expect(w.get('Role', name)).toBeUndefined();
        expect((await orMissing(w.api.getRole(id))) !== undefined).toBe(survives);
      });
    });

    describe('Token', () => {
      const spec = (extra: Partial<TokenSpec> = {}): TokenSpec => ({
        description: 'ingest for checkout pods',
        datasetCapabilities: [{ dataset: 'checkout-logs', ingest: ['create'] }],
        ...extra,
      });

      async function created(w: ReturnType<typeof world>, name: string, extra: Partial<TokenSpec> = {}) {
        w.apply('Token', name, spec(extra));
        await w.reconcile('Token', name);
        return { secret: w.kube.peekSecret(NS, extra.secretName ?? name)!, cr: w.get('Token', name)! };
      }

      it('mints a token into an owned Secret with token, url, AXIOM_TOKEN and AXIOM_URL', async () => {
        const w = world();
        const name = unique('ci');
        const { secret, cr } = await created(w, name, { secretTemplate: { labels: { team: 'checkout' } } });
        expect(secret.data[SECRET_KEYS.token]).toMatch(/^xaat-/);
        expect(secret.data[SECRET_KEYS.axiomToken]).toBe(secret.data[SECRET_KEYS.token]);
        expect(secret.data[SECRET_KEYS.url]).toBe(env.url);
        expect(secret.data[SECRET_KEYS.axiomUrl]).toBe(env.url);
        expect(secret.metadata.labels).toMatchObject({
          [LABELS.token]: name,
          [LABELS.managedBy]: 'quarry-operator',
          team: 'checkout',
        });
        expect(secret.metadata.ownerReferences).toEqual([
          expect.objectContaining({
            kind: 'Token',
            name,
            uid: cr.metadata.uid,
            controller: true,
            blockOwnerDeletion: true,
          }),
        ]);
        expect(await env.secretWorks(secret.data.token)).toBe(true);
        expect(cr.status).toMatchObject({
          tokenId: cr.metadata.annotations?.[ANNOTATIONS.externalId],
          secretName: name,
        });
        expect(cr.status?.rotation?.reason).toBe('Created');
        expect(w.condition('Token', name, 'Ready')?.reason).toBe('Available');

        w.calls.reset();
        const writes = w.kube.writes.length;
        await w.reconcile('Token', name);
        expect(w.calls.writes()).toEqual([]);
        expect(w.kube.writes.length).toBe(writes);
      });

      const triggers: [
        string,
        (w: ReturnType<typeof world>, name: string) => Promise<void> | void,
        string,
      ][] = [
        ['the Secret is deleted', (w, name) => w.kube.deleteSecret(NS, name), 'SecretLost'],
        [
          'the Secret loses its token key',
          (w, name) => {
            const s = w.kube.peekSecret(NS, name)!;
            delete s.data.token;
            w.kube.putSecret(s);
          },
          'SecretLost',
        ],
        [
          'the spec changes',
          (w, name) => void w.edit('Token', name, (t) => (t.spec.description = 'new words')),
          'SpecChanged',
        ],
        [
          'quarry.dev/rotate gets a new value',
          (w, name) =>
            void w.edit(
              'Token',
              name,
              (t) =>
                (t.metadata.annotations = {
                  ...t.metadata.annotations,
                  [ANNOTATIONS.rotate]: '2026-11-26T06:00:00Z',
                }),
            ),
          'Requested',
        ],
      ];

      it.each(triggers)(
        'rotates when %s, keeping the previous token valid for the grace period',
        async (_, trigger, reason) => {
          const w = world();
          const name = unique('rot');
          const before = await created(w, name);
          await trigger(w, name);

          w.calls.reset();
          await w.reconcile('Token', name);
          expect(w.calls.writes()).toEqual(['regenerateToken']);
          const cr = w.get('Token', name)!;
          const after = w.kube.peekSecret(NS, name)!;
          expect(cr.status?.rotation).toMatchObject({ reason, previousTokenId: before.cr.status!.tokenId });
          expect(cr.status?.tokenId).not.toBe(before.cr.status!.tokenId);
          expect(after.data.token).not.toBe(before.secret.data.token);
          expect(await env.secretWorks(after.data.token)).toBe(true);
          expect(await env.secretWorks(before.secret.data.token)).toBe(true);

          // The trigger is handled: another pass mints nothing.
          w.calls.reset();
          await w.reconcile('Token', name);
          expect(w.calls.writes()).toEqual([]);
        },
      );

      it('rotates a ttl token when it is due (Expiring) and revokes the previous one after the grace period', async () => {
        const w = world();
        const name = unique('ttl');
        const first = await created(w, name, { ttl: '3h', renewBefore: '1h', rotationGracePeriod: '15m' });
        expect(Date.parse(first.cr.status!.expiresAt!)).toBe(clock.now().getTime() + 3 * 3_600_000);

        clock.advance(90 * 60_000);
        w.calls.reset();
        const early = await w.reconcile('Token', name);
        expect(w.calls.writes()).toEqual([]);
        expect(early).toMatchObject({ requeue: 'after', afterMs: 30 * 60_000 });

        clock.advance(30 * 60_000);
        const result = await w.reconcile('Token', name);
        const cr = w.get('Token', name)!;
        expect(cr.status?.rotation).toMatchObject({
          reason: 'Expiring',
          previousTokenId: first.cr.status!.tokenId,
        });
        expect(result).toMatchObject({ requeue: 'after', afterMs: 15 * 60_000 });

        clock.advance(15 * 60_000);
        w.calls.reset();
        await w.reconcile('Token', name);
        expect(w.calls.writes()).toEqual(['deleteToken']);
        expect(await env.secretWorks(first.secret.data.token)).toBe(false);
        expect(await env.secretWorks(w.kube.peekSecret(NS, name)!.data.token)).toBe(true);
        expect(w.get('Token', name)!.status?.rotation).toMatchObject({
          previousTokenId: first.cr.status!.tokenId,
        });
        expect(w.get('Token', name)!.status?.rotation?.previousExpiresAt).toBeUndefined();
      });

      it('mints a new token when the current one was deleted in Quarry (ExternalDeleted)', async () => {
        const w = world();
        const name = unique('ext');
        const first = await created(w, name);
        await w.api.deleteToken(first.cr.status!.tokenId!);
        await w.reconcile('Token', name);
        const cr = w.get('Token', name)!;
        expect(cr.status?.rotation?.reason).toBe('ExternalDeleted');
        expect(await env.secretWorks(w.kube.peekSecret(NS, name)!.data.token)).toBe(true);
      });

      it('never overwrites a Secret it does not own (SecretConflict)', async () => {
        const w = world();
        const name = unique('conflict');
        w.kube.putSecret({ metadata: { namespace: NS, name }, data: { password: 'hunter2' } });
        w.apply('Token', name, spec());
        await w.reconcile('Token', name);
        expect(w.condition('Token', name, 'Ready')).toMatchObject({
          status: 'False',
          reason: 'SecretConflict',
        });
        expect(w.calls.writes()).toEqual([]);
        expect(w.kube.peekSecret(NS, name)!.data).toEqual({ password: 'hunter2' });
      });

      it('reports a fixed expiresAt in the past as Expired', async () => {
        const w = world();
        const name = unique('expired');
        w.apply('Token', name, spec({ expiresAt: '2001-01-01T00:00:00Z' }));
        await w.reconcile('Token', name);
        expect(w.condition('Token', name, 'Ready')).toMatchObject({ status: 'False', reason: 'Expired' });
        expect(w.calls.writes()).toEqual([]);
      });

      it('cleans up after a crash between minting and recording the id, then mints once more', async () => {
        const w = world();
        const name = unique('crash');
        w.apply('Token', name, spec());
        w.kube.failNext('setAnnotations', new Error('operator killed'), 1);
        expect((await w.reconcile('Token', name)).requeue).toBe('backoff');
        const lost = w.kube.peekSecret(NS, name)!.data.token;

        await w.reconcile('Token', name);
        expect(w.calls.methods()).toContain('deleteToken');
        expect(await env.secretWorks(lost)).toBe(false);
        const mine = (await w.api.listTokens()).filter((t) => t.name === name);
        expect(mine.map((t) => t.id)).toEqual([w.get('Token', name)!.status!.tokenId]);
        expect(await env.secretWorks(w.kube.peekSecret(NS, name)!.data.token)).toBe(true);
      });

      it('moves the token to a renamed Secret, without rotating, and deletes the old one', async () => {
        const w = world();
        const name = unique('rename');
        const { secret } = await created(w, name);
        w.edit('Token', name, (t) => (t.spec.secretName = `${name}-v2`));
        w.calls.reset();
        await w.reconcile('Token', name);
        expect(w.calls.writes()).toEqual([]);
        expect(w.kube.peekSecret(NS, name)).toBeUndefined();
        const moved = w.kube.peekSecret(NS, `${name}-v2`)!;
        expect(moved.data.token).toBe(secret.data.token);
        expect(moved.metadata.labels?.[LABELS.token]).toBe(name);
        expect(w.get('Token', name)!.status?.secretName).toBe(`${name}-v2`);
      });

      it('Orphan keeps the token and the Secret, without the owner reference', async () => {
        const w = world();
        const name = unique('orphan');
        const { secret } = await created(w, name, { deletionPolicy: 'Orphan' });
        await w.remove('Token', name);
        expect(w.get('Token', name)).toBeUndefined();
        const kept = w.kube.peekSecret(NS, name)!;
        expect(kept.data.token).toBe(secret.data.token);
        expect(kept.metadata.ownerReferences ?? []).toEqual([]);
        expect(await env.secretWorks(secret.data.token)).toBe(true);
      });

      it('Delete revokes the token and removes the Secret', async () => {
        const w = world();
        const name = unique('delete');
        const { secret } = await created(w, name);
        await w.remove('Token', name);
        expect(w.get('Token', name)).toBeUndefined();
        expect(w.kube.peekSecret(NS, name)).toBeUndefined();
        expect(await env.secretWorks(secret.data.token)).toBe(false);
      });
    });
  });
}
