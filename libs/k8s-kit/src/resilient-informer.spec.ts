import { CoreV1Api, CustomObjectsApi, type KubernetesObject, type V1Secret } from '@kubernetes/client-node';
import { collectionPath } from './custom-resource-ref';
import { ResilientInformer } from './resilient-informer';
import { eventually, FakeApiServer } from './testing';

// Loopback HTTP only: fail fast instead of waiting for the repository-wide 120 s timeout.
jest.setTimeout(15_000);

const DATASETS = { group: 'quarry.dev', version: 'v1alpha1', plural: 'datasets' };

let server: FakeApiServer;
let core: CoreV1Api;
let objects: CustomObjectsApi;
const informers: Array<ResilientInformer<KubernetesObject>> = [];

beforeEach(async () => {
  server = await FakeApiServer.start({
    customResources: [{ ...DATASETS, kind: 'Dataset', namespaced: true, statusSubresource: true }],
  });
  core = server.kubeConfig().makeApiClient(CoreV1Api);
  objects = server.kubeConfig().makeApiClient(CustomObjectsApi);
});
afterEach(async () => {
  await Promise.all(informers.splice(0).map((informer) => informer.stop()));
  await server.stop();
});

const isWatch = (request: { isWatch: boolean }) => request.isWatch;

/** A started dataset informer that records every event as `add name` / `update name` / `delete name`. */
function datasetInformer(options: { onError?: (e: unknown) => void } = {}) {
  const events: string[] = [];
  const informer = new ResilientInformer<KubernetesObject>({
    kubeConfig: server.kubeConfig(),
    path: collectionPath(DATASETS),
    list: (selectors) => objects.listClusterCustomObject({ ...DATASETS, ...selectors }),
    restartDelayMs: 10,
    maxRestartDelayMs: 40,
    onError: options.onError,
  });
  for (const event of ['add', 'update', 'delete'] as const) {
    informer.on(event, (object) => events.push(`${event} ${object.metadata?.name}`));
  }
  informers.push(informer);
  informer.start();
  return { informer, events };
}

const dataset = (name: string) =>
  objects.createNamespacedCustomObject({
    ...DATASETS,
    namespace: 'default',
    body: { apiVersion: 'quarry.dev/v1alpha1', kind: 'Dataset', metadata: { name }, spec: { v: 1 } },
  });
const touch = (name: string, v: number) =>
  objects.patchNamespacedCustomObject({
    ...DATASETS,
    namespace: 'default',
    name,
    body: [{ op: 'replace', path: '/spec/v', value: v }],
  });
const remove = (name: string) =>
  objects.deleteNamespacedCustomObject({ ...DATASETS, namespace: 'default', name });

/** The informer's cache as `name:resourceVersion`, to compare with the server's truth. */
function cacheOf(informer: ResilientInformer<KubernetesObject>): string[] {
  return informer
    .list()
    .map((o) => `${o.metadata?.name}:${o.metadata?.resourceVersion}`)
    .sort();
}
function serverState(): string[] {
  return server
    .listObjects({ group: 'quarry.dev', plural: 'datasets' })
    .map((o) => `${o.metadata?.name}:${o.metadata?.resourceVersion}`)
    .sort();
}

it('fills the cache before synced resolves, then reports adds, updates and deletes', async () => {
  await dataset('existing');
  const { informer, events } = datasetInformer();
  await informer.synced;
  expect(informer.hasSynced).toBe(true);
  expect(informer.get('existing', 'default')).toBeDefined();
  expect(events).toEqual(['add existing']);

  await dataset('new');
  await touch('new', 2);
  await remove('existing');
  await eventually(() =>
    expect(events).toEqual(['add existing', 'add new', 'update new', 'delete existing']),
  );
  expect(cacheOf(informer)).toEqual(serverState());
});

it('re-watches from the last resourceVersion after a dropped watch and misses nothing', async () => {
  await dataset('a');
  const { informer, events } = datasetInformer();
  await informer.synced;
  // Hold the watch down after the drop while the world changes, then let it reconnect.
  server.failNext(Infinity, { code: 500, match: isWatch });
  server.dropWatches({ abrupt: true });
  await dataset('b');
  await touch('a', 2);
  await remove('a');
  expect(events).toEqual(['add a']);
  server.clearFaults();
  await eventually(() => expect(events).toEqual(['add a', 'add b', 'update a', 'delete a']));
  expect(cacheOf(informer)).toEqual(serverState());
  expect(informer.restarts).toBeGreaterThanOrEqual(1);
  expect(informer.lists).toBe(1); // replayed from the resourceVersion, no relist
});

it.each(['event', 'http'] as const)(
  'relists after a 410 Gone delivered as %s and reports what changed meanwhile',
  async (delivery) => {
    await dataset('a');
    await dataset('b');
    const { informer, events } = datasetInformer();
    await informer.synced;
    server.failNext(Infinity, { code: 500, match: isWatch });
    server.dropWatches({ abrupt: true });
    await remove('a');
    await touch('b', 2);
    await dataset('c');
    server.clearFaults();
    if (delivery === 'event') server.compact();
    else server.goneOnNextWatch('http');
    await eventually(() => expect(informer.lists).toBe(2));
    await eventually(() => expect(cacheOf(informer)).toEqual(serverState()));
    expect(events.slice(2).sort()).toEqual(['add c', 'delete a', 'update b']);

    await dataset('after-relist');
    await eventually(() => expect(events).toContain('add after-relist'));
  },
);

it('keeps retrying a failing list with backoff until it succeeds', async () => {
  await dataset('a');
  const errors: unknown[] = [];
  server.failNext(3, { code: 503, match: (r) => !r.isWatch && r.method === 'GET' });
  const { informer } = datasetInformer({ onError: (e) => errors.push(e) });
  await informer.synced;
  expect(informer.get('a', 'default')).toBeDefined();
  expect(errors).toHaveLength(3);
  expect(informer.restarts).toBe(3);
});

it('reconnects periodically against silent stalls', async () => {
  const informer = new ResilientInformer<KubernetesObject>({
    kubeConfig: server.kubeConfig(),
    path: collectionPath(DATASETS),
    list: (selectors) => objects.listClusterCustomObject({ ...DATASETS, ...selectors }),
    rewatchEveryMs: 20,
  });
  informers.push(informer);
  informer.start();
  await informer.synced;
  const watchesBefore = server.requests.filter((r) => r.query.includes('watch=true')).length;
  await eventually(() => {
    const watches = server.requests.filter((r) => r.query.includes('watch=true')).length;
    expect(watches).toBeGreaterThan(watchesBefore + 1);
  });
  await dataset('still-seen');
  await eventually(() => expect(informer.get('still-seen', 'default')).toBeDefined());
  expect(informer.errors).toBe(0);
  expect(informer.lists).toBe(1);
});

it('passes the label selector to list and watch, so only selected objects are cached', async () => {
  const managed = { 'app.kubernetes.io/managed-by': 'quarry-operator' };
  await core.createNamespacedSecret({
    namespace: 'default',
    body: { metadata: { name: 'mine', labels: managed } },
  });
  await core.createNamespacedSecret({ namespace: 'default', body: { metadata: { name: 'theirs' } } });
  const informer = new ResilientInformer<V1Secret>({
    kubeConfig: server.kubeConfig(),
    path: collectionPath({ group: '', version: 'v1', plural: 'secrets' }),
    list: (selectors) => core.listSecretForAllNamespaces(selectors),
    labelSelector: 'app.kubernetes.io/managed-by=quarry-operator',
  });
  informers.push(informer as unknown as ResilientInformer<KubernetesObject>);
  informer.start();
  await informer.synced;
  await core.createNamespacedSecret({
    namespace: 'default',
    body: { metadata: { name: 'mine-too', labels: managed } },
  });
  await core.createNamespacedSecret({ namespace: 'default', body: { metadata: { name: 'theirs-too' } } });
  await eventually(() => expect(informer.get('mine-too', 'default')).toBeDefined());
  expect(
    informer
      .list()
      .map((s) => s.metadata?.name)
      .sort(),
  ).toEqual(['mine', 'mine-too']);
});

it('passes the field selector too (client-node 1.4 makeInformer drops it)', async () => {
  const informer = new ResilientInformer<V1Secret>({
    kubeConfig: server.kubeConfig(),
    path: collectionPath({ group: '', version: 'v1', plural: 'secrets' }),
    list: (selectors) => core.listSecretForAllNamespaces(selectors),
    fieldSelector: 'metadata.namespace=shop',
  });
  informers.push(informer as unknown as ResilientInformer<KubernetesObject>);
  informer.start();
  await informer.synced;
  await core.createNamespacedSecret({ namespace: 'default', body: { metadata: { name: 'elsewhere' } } });
  await core.createNamespacedSecret({ namespace: 'shop', body: { metadata: { name: 'here' } } });
  await eventually(() => expect(informer.get('here', 'shop')).toBeDefined());
  expect(informer.list().map((s) => s.metadata?.name)).toEqual(['here']);
  expect(
    server.requests
      .filter((r) => r.query.includes('watch=true'))
      .every((r) => r.query.includes('fieldSelector=')),
  ).toBe(true);
});

it('survives a throwing handler and keeps delivering', async () => {
  const handlerErrors: unknown[] = [];
  const seen: string[] = [];
  const informer = new ResilientInformer<KubernetesObject>({
    kubeConfig: server.kubeConfig(),
    path: collectionPath(DATASETS),
    list: (selectors) => objects.listClusterCustomObject({ ...DATASETS, ...selectors }),
    onHandlerError: (error) => handlerErrors.push(error),
  });
  informer.on('add', () => {
    throw new Error('handler bug');
  });
  informer.on('add', (object) => seen.push(object.metadata!.name!));
  informers.push(informer);
  informer.start();
  await informer.synced;
  await dataset('one');
  await dataset('two');
  await eventually(() => expect(seen).toEqual(['one', 'two']));
  expect(handlerErrors).toHaveLength(2);
});

it('stops without counting the aborted watch as an error', async () => {
  const { informer } = datasetInformer();
  await informer.synced;
  await informer.stop();
  await dataset('after-stop');
  await eventually(() => expect(server.openWatchCount).toBe(0));
  expect(informer.errors).toBe(0);
  expect(informer.get('after-stop', 'default')).toBeUndefined();
});
