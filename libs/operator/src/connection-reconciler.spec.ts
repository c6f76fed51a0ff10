import { ManualClock } from './clock';
import { findCondition } from './conditions';
import { ConnectionReconciler } from './connection-reconciler';
import { ConnectionResolver } from './connection-resolver';
import { API_VERSION } from './constants';
import { ManagementError } from './management-api.port';
import { InstrumentedManagementApi } from './testing/instrumented-management-api';
import { InMemoryKubeObjects } from './testing/kube-objects.fake';
import { InMemoryManagementApi } from './testing/management-api.fake';

function setup(requestTimeout?: string) {
  const kube = new InMemoryKubeObjects();
  const clock = new ManualClock();
  kube.create('QuarryConnection', {
    apiVersion: API_VERSION,
    kind: 'QuarryConnection',
    metadata: { name: 'default' },
    spec: {
      url: 'http://quarry.test',
      credentialsSecretRef: { name: 'admin' },
      ...(requestTimeout ? { requestTimeout } : {}),
    },
  });
  kube.putSecret({ metadata: { namespace: 'ops', name: 'admin' }, data: { token: 'xaat-admin' } });
  const calls = new InstrumentedManagementApi(new InMemoryManagementApi({ clock }));
  const connections = new ConnectionResolver(kube, 'ops');
  const probes: [string, boolean][] = [];
  const reconciler = new ConnectionReconciler({
    kube,
    connections,
    apiFor: () => calls.api,
    clock,
    resyncMs: 60_000,
    random: () => 0.5,
    onProbe: (name, up) => probes.push([name, up]),
  });
  const ready = () =>
    findCondition(kube.peek('QuarryConnection', undefined, 'default')?.status?.conditions, 'Ready');
  return { kube, clock, calls, connections, reconciler, ready, probes };
}

describe('ConnectionResolver', () => {
  it('resolves URL, token (key default "token") and timeout', async () => {
    const { connections } = setup('3s');
    expect(await connections.resolve(undefined)).toEqual({
      name: 'default',
      url: 'http://quarry.test',
      token: 'xaat-admin',
      orgId: undefined,
      defaultRegion: undefined,
      timeoutMs: 3_000,
    });
  });

  it.each([
    [
      'a missing connection',
      (s: ReturnType<typeof setup>) => s.connections.resolve({ name: 'eu' }),
      'QuarryConnection "eu" does not exist',
    ],
    [
      'a missing Secret',
      (s: ReturnType<typeof setup>) => (s.kube.secrets.clear(), s.connections.resolve(undefined)),
      'Secret ops/admin',
    ],
    [
      'a bad timeout',
      (s: ReturnType<typeof setup>) => s.connections.resolve(undefined),
      'invalid requestTimeout',
    ],
  ])('refuses %s with ConnectionNotReady', async (what, call, message) => {
    const s = setup(what === 'a bad timeout' ? 'soon' : undefined);
    await expect(call(s)).rejects.toMatchObject({
      name: 'ConnectionNotReadyError',
      message: expect.stringContaining(message),
    });
  });
});

describe('ConnectionReconciler', () => {
  it('reports Ready=True after a successful probe and does not rewrite status for a newer probe time', async () => {
    const s = setup();
    expect(await s.reconciler.reconcile({ name: 'default' })).toEqual({ requeue: 'after', afterMs: 60_000 });
    expect(s.ready()).toMatchObject({ status: 'True', reason: 'Available' });
    expect(s.calls.methods()).toEqual(['listDatasets']);
    expect(s.probes).toEqual([['default', true]]);
    const writes = s.kube.statusWrites();
    s.clock.advance(60_000);
    await s.reconciler.reconcile({ name: 'default' });
    expect(s.kube.statusWrites()).toBe(writes);
  });

  it.each([
    [new ManagementError('Unauthorized', 'failed with 401: invalid token', 401), 'Unauthorized', 'after'],
    [new ManagementError('Unavailable', 'timed out'), 'ManagementAPIUnavailable', 'backoff'],
  ])('reports %s as Ready=False %s', async (error, reason, requeue) => {
    const s = setup();
    s.calls.failNext('listDatasets', error);
    expect((await s.reconciler.reconcile({ name: 'default' })).requeue).toBe(requeue);
    expect(s.ready()).toMatchObject({ status: 'False', reason, message: error.message });
    expect(s.probes).toEqual([['default', false]]);
  });

  it('reports a missing credentials Secret as ConnectionNotReady', async () => {
    const s = setup();
    s.kube.secrets.clear();
    await s.reconciler.reconcile({ name: 'default' });
    expect(s.ready()).toMatchObject({ status: 'False', reason: 'ConnectionNotReady' });
  });
});
