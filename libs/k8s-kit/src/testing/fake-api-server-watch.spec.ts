import { CoreV1Api, Watch } from '@kubernetes/client-node';
import { eventually } from './eventually';
import { FakeApiServer } from './fake-api-server';

// Loopback HTTP only: fail fast instead of waiting for the repository-wide 120 s timeout.
jest.setTimeout(15_000);

interface Seen {
  type: string;
  name?: string;
  resourceVersion?: string;
}

let server: FakeApiServer;
let core: CoreV1Api;

beforeEach(async () => {
  server = await FakeApiServer.start();
  core = server.kubeConfig().makeApiClient(CoreV1Api);
});
afterEach(() => server.stop());

/** Opens a raw watch with client-node's `Watch` and records what arrives and how it ends. */
async function watchSecrets(query: Record<string, string>) {
  const seen: Seen[] = [];
  const ended: Array<unknown> = [];
  const controller = await new Watch(server.kubeConfig()).watch(
    '/api/v1/namespaces/default/secrets',
    query,
    (type, object: { metadata?: { name?: string; resourceVersion?: string } }) =>
      seen.push({ type, name: object.metadata?.name, resourceVersion: object.metadata?.resourceVersion }),
    (error) => ended.push(error ?? 'clean'),
  );
  return { seen, ended, stop: () => controller.abort() };
}

const secret = (name: string, labels: Record<string, string> = {}) =>
  core.createNamespacedSecret({ namespace: 'default', body: { metadata: { name, labels } } });

it('sends the current state as ADDED without a resourceVersion, then live changes', async () => {
  await secret('before');
  const watch = await watchSecrets({});
  await secret('after');
  await core.deleteNamespacedSecret({ name: 'before', namespace: 'default' });
  await eventually(() =>
    expect(watch.seen.map((e) => `${e.type} ${e.name}`)).toEqual([
      'ADDED before',
      'ADDED after',
      'DELETED before',
    ]),
  );
  watch.stop();
});

it('replays every change after the given resourceVersion', async () => {
  const first = await secret('a');
  await secret('b');
  await core.patchNamespacedSecret({
    name: 'a',
    namespace: 'default',
    body: [{ op: 'add', path: '/data', value: { k: 'dg==' } }],
  });
  const watch = await watchSecrets({ resourceVersion: first.metadata!.resourceVersion! });
  await eventually(() =>
    expect(watch.seen.map((e) => `${e.type} ${e.name}`)).toEqual(['ADDED b', 'MODIFIED a']),
  );
  watch.stop();
});

it('turns label changes into ADDED and DELETED for a selecting watch', async () => {
  await secret('s', { role: 'other' });
  const watch = await watchSecrets({ resourceVersion: server.resourceVersion, labelSelector: 'role=token' });
  const relabel = (role: string) =>
    core.patchNamespacedSecret({
      name: 's',
      namespace: 'default',
      body: [{ op: 'replace', path: '/metadata/labels/role', value: role }],
    });
  await relabel('token');
  await relabel('token2');
  await eventually(() => expect(watch.seen.map((e) => e.type)).toEqual(['ADDED', 'DELETED']));
  watch.stop();
});

it('sends bookmarks only to watches that allow them', async () => {
  const withBookmarks = await watchSecrets({
    resourceVersion: server.resourceVersion,
    allowWatchBookmarks: 'true',
  });
  const without = await watchSecrets({ resourceVersion: server.resourceVersion });
  await secret('x');
  server.sendBookmarks();
  await eventually(() => expect(withBookmarks.seen.map((e) => e.type)).toEqual(['ADDED', 'BOOKMARK']));
  expect(withBookmarks.seen[1].resourceVersion).toBe(server.resourceVersion);
  await eventually(() => expect(without.seen.map((e) => e.type)).toEqual(['ADDED']));
  withBookmarks.stop();
  without.stop();
});

it('answers a watch from a compacted resourceVersion with an ERROR 410 event and ends it', async () => {
  const old = await secret('a');
  await secret('b');
  server.compact();
  const watch = await watchSecrets({ resourceVersion: old.metadata!.resourceVersion! });
  await eventually(() => expect(watch.ended).toEqual(['clean']));
  expect(watch.seen.map((e) => e.type)).toEqual(['ERROR']);
});

it('drops open watches on demand, cleanly or abruptly', async () => {
  const clean = await watchSecrets({});
  const abrupt = await watchSecrets({});
  await eventually(() => expect(server.openWatchCount).toBe(2));
  server.dropWatches();
  await eventually(() => expect(clean.ended).toEqual(['clean']));
  expect(server.openWatchCount).toBe(0);

  const again = await watchSecrets({});
  server.dropWatches({ abrupt: true });
  await eventually(() => expect(again.ended).toHaveLength(1));
  expect(abrupt.ended).toEqual(['clean']);
});

it('ends a watch after timeoutSeconds, like an apiserver ending long requests', async () => {
  // The server arms its timer while answering the watch request, so it is a fake timer we can run at once.
  jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
  let watch: Awaited<ReturnType<typeof watchSecrets>>;
  try {
    watch = await watchSecrets({ timeoutSeconds: '30' });
    jest.advanceTimersByTime(30_000);
  } finally {
    jest.useRealTimers();
  }
  await eventually(() => expect(watch.ended).toEqual(['clean']));
});
