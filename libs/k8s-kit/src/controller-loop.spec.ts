/**
 * The kit's pieces together, as an operator wires them (k8s.md §3.5, much simplified): an informer that
 * only enqueues keys, workers that read the cache, ensure the finalizer, write a Ready condition only when
 * it changed, and finalize on deletion, with a watch drop in the middle. Also the usage example for the
 * operator's own tests.
 */
import { CustomObjectsApi, type KubernetesObject } from '@kubernetes/client-node';
import { sameConditions, setCondition, type Condition } from './conditions';
import { collectionPath } from './custom-resource-ref';
import { mergePatchStatus } from './custom-object-patches';
import { ensureFinalizer, removeFinalizer } from './finalizers';
import { objectKey, parseObjectKey } from './object-key';
import { ItemExponentialBackoff } from './rate-limiter';
import { ResilientInformer } from './resilient-informer';
import { eventually, FakeApiServer } from './testing';
import { WorkQueue } from './work-queue';

jest.setTimeout(15_000);

const TYPE = { group: 'quarry.dev', version: 'v1alpha1', plural: 'datasets' };
const FINALIZER = 'quarry.dev/finalizer';
const cleanups: Array<() => Promise<void>> = [];
type Dataset = KubernetesObject & { spec?: { description?: string }; status?: { conditions?: Condition[] } };

it('reconciles create, update and delete through informer, queue and patches, across a dropped watch', async () => {
  const server = await FakeApiServer.start({
    customResources: [{ ...TYPE, kind: 'Dataset', namespaced: true, statusSubresource: true }],
  });
  cleanups.push(() => server.stop());
  const api = server.kubeConfig().makeApiClient(CustomObjectsApi);
  const informer = new ResilientInformer<Dataset>({
    kubeConfig: server.kubeConfig(),
    path: collectionPath(TYPE),
    list: (selectors) => api.listClusterCustomObject({ ...TYPE, ...selectors }),
    restartDelayMs: 10,
  });
  const queue = new WorkQueue<string>({ rateLimiter: new ItemExponentialBackoff({ baseDelayMs: 10 }) });
  const enqueue = (object: Dataset) => queue.add(objectKey(object));
  informer.on('add', enqueue).on('update', enqueue).on('delete', enqueue);
  const externalSystem = new Map<string, string>(); // what the "management API" holds

  async function reconcile(key: string): Promise<void> {
    const { namespace, name } = parseObjectKey(key);
    const cached = informer.get(name, namespace);
    if (!cached) return; // gone: nothing to do
    const ref = { ...TYPE, namespace, name };
    if (cached.metadata?.deletionTimestamp) {
      externalSystem.delete(key);
      await removeFinalizer(api, ref, cached, FINALIZER);
      return;
    }
    const current = await ensureFinalizer(api, ref, cached, FINALIZER);
    externalSystem.set(key, cached.spec?.description ?? '');
    const conditions = setCondition(
      cached.status?.conditions,
      {
        type: 'Ready',
        status: 'True',
        reason: 'Available',
        message: '',
        observedGeneration: current.metadata?.generation,
      },
      new Date(),
    );
    if (sameConditions(conditions, cached.status?.conditions)) return; // no write, no event, no loop
    await mergePatchStatus(api, ref, { conditions }, current.metadata?.resourceVersion);
  }

  async function worker(): Promise<void> {
    for (let key = await queue.get(); key !== undefined; key = await queue.get()) {
      try {
        await reconcile(key);
        queue.forget(key);
      } catch {
        queue.addRateLimited(key); // e.g. a 409 from a stale cache: retry after backoff
      } finally {
        queue.done(key);
      }
    }
  }

  cleanups.unshift(() => informer.stop());
  informer.start();
  await informer.synced;
  const workers = [worker(), worker()];
  const ref = { ...TYPE, namespace: 'default', name: 'logs' };
  const read = async () => (await api.getNamespacedCustomObject(ref)) as Dataset;

  await api.createNamespacedCustomObject({
    ...ref,
    body: {
      apiVersion: 'quarry.dev/v1alpha1',
      kind: 'Dataset',
      metadata: { name: 'logs' },
      spec: { description: 'a' },
    },
  });
  await eventually(async () =>
    expect((await read()).status?.conditions?.[0]).toMatchObject({ status: 'True', observedGeneration: 1 }),
  );
  expect((await read()).metadata?.finalizers).toEqual([FINALIZER]);

  server.dropWatches({ abrupt: true });
  await api.patchNamespacedCustomObject({
    ...ref,
    body: [{ op: 'replace', path: '/spec/description', value: 'b' }],
  });
  await eventually(async () => expect((await read()).status?.conditions?.[0].observedGeneration).toBe(2));
  expect(externalSystem.get('default/logs')).toBe('b');

  await api.deleteNamespacedCustomObject(ref);
  await eventually(() =>
    expect(
      server.getObject({ group: TYPE.group, plural: TYPE.plural, namespace: 'default', name: 'logs' }),
    ).toBeUndefined(),
  );
  expect(externalSystem.size).toBe(0);

  await queue.shutdownWithDrain();
  await Promise.all(workers);
});

afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});
