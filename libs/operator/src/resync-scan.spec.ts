import { ManualClock } from './clock';
import { findCondition } from './conditions';
import { ConnectionReconciler } from './connection-reconciler';
import { ConnectionResolver } from './connection-resolver';
import { API_VERSION } from './constants';
import { datasetReconciler } from './dataset-reconciler';
import type { ManagedReconciler, ObjectKey, ReconcileDeps } from './managed-reconcile';
import type { AllResources, ManagedKind } from './resources';
import type { ResyncReport } from './resync-scan';
import { roleReconciler } from './role-reconciler';
import { InstrumentedManagementApi } from './testing/instrumented-management-api';
import { InMemoryKubeObjects } from './testing/kube-objects.fake';
import { InMemoryManagementApi } from './testing/management-api.fake';
import { tokenReconciler } from './token-reconciler';

const NS = 'shop';
const RESYNC_MS = 300_000;

/** One operator's reconcilers and a work queue reduced to "which keys were enqueued". */
function world() {
  const clock = new ManualClock(Date.UTC(2026, 10, 1));
  const kube = new InMemoryKubeObjects();
  kube.create('QuarryConnection', {
    apiVersion: API_VERSION,
    kind: 'QuarryConnection',
    metadata: { name: 'default' },
    spec: { url: 'http://quarry.test', credentialsSecretRef: { name: 'admin' } },
  });
  kube.putSecret({ metadata: { namespace: 'ops', name: 'admin' }, data: { token: 'xaat-admin' } });
  const quarry = new InMemoryManagementApi({ clock });
  const calls = new InstrumentedManagementApi(quarry);
  const deps: ReconcileDeps = {
    kube,
    connections: new ConnectionResolver(kube, 'ops'),
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
  const queued: { kind: ManagedKind; key: ObjectKey }[] = [];
  const reports: ResyncReport[] = [];
  const connection = new ConnectionReconciler({
    ...deps,
    enqueue: (kind, key) => queued.push({ kind, key }),
    onResync: (_, report) => reports.push(report),
  });
  const w = {
    clock,
    kube,
    quarry,
    calls,
    queued,
    reports,
    apply<K extends ManagedKind>(kind: K, name: string, spec: AllResources[K]['spec']) {
      kube.create(kind, {
        apiVersion: API_VERSION,
        kind,
        metadata: { name, namespace: NS },
        spec,
      } as AllResources[K]);
      queued.push({ kind, key: { namespace: NS, name } });
    },
    /** Reconciles every queued key once, as the workers would. */
    async drain() {
      while (queued.length) {
        const { kind, key } = queued.shift()!;
        await reconcilers[kind].reconcile(key);
      }
    },
    /** The connection's timed requeue: the full resync. Returns the keys it enqueued. */
    async resync() {
      w.clock.advance(RESYNC_MS);
      await connection.reconcile({ name: 'default' });
      return queued.map((q) => `${q.kind} ${q.key.name}`);
    },
    ready: (kind: ManagedKind, name: string) =>
      findCondition(kube.peek(kind, NS, name)?.status?.conditions, 'Ready'),
  };
  return w;
}

/** Ten datasets, three roles and three tokens, all reconciled and settled. */
async function settledWorld() {
  const w = world();
  for (let i = 0; i < 10; i++) w.apply('Dataset', `logs-${i}`, { description: `logs ${i}` });
  for (let i = 0; i < 3; i++) w.apply('Role', `role-${i}`, { description: `role ${i}`, members: [] });
  for (let i = 0; i < 3; i++)
    w.apply('Token', `token-${i}`, { datasetCapabilities: [{ dataset: 'logs-0', ingest: ['create'] }] });
  await w.drain();
  // The first visit of the connection enqueues every CR (its spec was never observed); after that,
  // resyncs compare.
  await w.resync();
  await w.drain();
  w.calls.reset();
  return w;
}

describe('the connection resync (one LIST per kind instead of one GET per CR)', () => {
  it('lists each kind once and enqueues nothing when nothing drifted', async () => {
    const w = await settledWorld();
    expect(await w.resync()).toEqual([]);
    // Before: the probe's LIST plus one GET for each of the 16 CRs (17 calls); now 3 LISTs.
    expect(w.calls.methods()).toEqual(['listDatasets', 'listRoles', 'listTokens']);
    expect(w.reports.at(-1)).toMatchObject({ listed: ['Dataset', 'Role', 'Token'], failures: [] });
  });

  it('repairs a description changed in Quarry by hand after the next resync, calling only for that key', async () => {
    const w = await settledWorld();
    await w.quarry.updateDataset('logs-3', {
      description: 'by hand',
      retentionDays: 0,
      useRetentionPeriod: false,
    });

    expect(await w.resync()).toEqual(['Dataset logs-3']);
    expect(w.reports.at(-1)!.targets[0]).toMatchObject({ why: 'drifted in Quarry' });
    await w.drain();
    expect((await w.quarry.getDataset('logs-3')).description).toBe('logs 3');
    expect(w.calls.methods()).toEqual([
      'listDatasets',
      'listRoles',
      'listTokens',
      'getDataset',
      'updateDataset',
    ]);

    w.calls.reset();
    expect(await w.resync()).toEqual([]);
    expect(w.calls.methods()).toEqual(['listDatasets', 'listRoles', 'listTokens']);
  });

  it('enqueues objects missing in Quarry and roles that drifted, and they are put back', async () => {
    const w = await settledWorld();
    await w.quarry.deleteDataset('logs-1');
    const roleId = w.kube.peek('Role', NS, 'role-1')!.status!.roleId!;
    await w.quarry.replaceRole(roleId, {
      ...(await w.quarry.getRole(roleId)),
      description: 'by hand',
    } as never);
    const tokenId = w.kube.peek('Token', NS, 'token-2')!.status!.tokenId!;
    await w.quarry.deleteToken(tokenId);

    expect((await w.resync()).sort()).toEqual(['Dataset logs-1', 'Role role-1', 'Token token-2']);
    await w.drain();
    expect(await w.quarry.getDataset('logs-1')).toMatchObject({ description: 'logs 1' });
    expect(await w.quarry.getRole(roleId)).toMatchObject({ description: 'role 1' });
    expect(w.kube.peek('Token', NS, 'token-2')!.status!.rotation).toMatchObject({
      reason: 'ExternalDeleted',
    });

    w.calls.reset();
    expect(await w.resync()).toEqual([]);
  });

  it('enqueues CRs that are not settled without looking at Quarry, and skips paused ones', async () => {
    const w = await settledWorld();
    w.kube.edit('Dataset', NS, 'logs-4', (d) => (d.spec.description = 'edited'));
    w.kube.edit('Dataset', NS, 'logs-5', (d) => (d.metadata.annotations = { 'quarry.dev/paused': 'true' }));
    await w.quarry.deleteDataset('logs-5');
    w.kube.edit('Role', NS, 'role-0', (r) => {
      r.status!.conditions = r.status!.conditions!.map((c) =>
        c.type === 'Synced' ? { ...c, status: 'False', reason: 'ManagementAPIUnavailable' } : c,
      );
    });
    const queued = await w.resync();
    expect(queued.sort()).toEqual(['Dataset logs-4', 'Role role-0']);
    expect(
      w.reports
        .at(-1)!
        .targets.map((t) => t.why)
        .sort(),
    ).toEqual(['Synced is ManagementAPIUnavailable', 'the spec changed since the last sync']);
  });

  it('does not list a kind without settled CRs', async () => {
    const w = world();
    w.apply('Dataset', 'only', {});
    await w.drain();
    await w.resync();
    await w.drain();
    w.calls.reset();
    await w.resync();
    expect(w.calls.methods()).toEqual(['listDatasets']);
  });

  it('falls back to one reconcile per CR of a kind whose LIST fails', async () => {
    const w = await settledWorld();
    w.calls.failNext('listRoles', new Error('boom'));
    expect((await w.resync()).sort()).toEqual(['Role role-0', 'Role role-1', 'Role role-2']);
    expect(w.reports.at(-1)!.failures).toEqual([{ kind: 'Role', error: 'boom' }]);
  });

  it('enqueues every CR of the connection after its spec changed, and nothing while it is unreachable', async () => {
    const w = await settledWorld();
    w.kube.edit('QuarryConnection', undefined, 'default', (c) => (c.spec.defaultRegion = 'home'));
    expect(await w.resync()).toHaveLength(16);
    await w.drain();

    w.calls.failNext('listDatasets', new Error('down'));
    expect(await w.resync()).toEqual([]);
  });

  it('requeues CRs that waited for their connection once it is Ready', async () => {
    const w = world();
    w.kube.secrets.clear();
    w.apply('Dataset', 'early', {});
    await w.drain();
    expect(w.ready('Dataset', 'early')).toMatchObject({ status: 'False', reason: 'ConnectionNotReady' });
    await w.resync(); // first visit: the connection is not ready, every CR is enqueued anyway
    await w.drain();

    w.kube.putSecret({ metadata: { namespace: 'ops', name: 'admin' }, data: { token: 'xaat-admin' } });
    expect(await w.resync()).toEqual(['Dataset early']);
    await w.drain();
    expect(w.ready('Dataset', 'early')).toMatchObject({ status: 'True' });
  });
});
