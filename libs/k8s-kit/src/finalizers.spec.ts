import { CustomObjectsApi, type KubernetesObject } from '@kubernetes/client-node';
import { isConflict } from './api-errors';
import {
  addFinalizerPatch,
  ensureFinalizer,
  hasFinalizer,
  removeFinalizer,
  removeFinalizerPatch,
} from './finalizers';
import { FakeApiServer } from './testing';

// Loopback HTTP only: fail fast instead of waiting for the repository-wide 120 s timeout.
jest.setTimeout(15_000);

const FINALIZER = 'quarry.dev/finalizer';
const REF = {
  group: 'quarry.dev',
  version: 'v1alpha1',
  plural: 'datasets',
  namespace: 'default',
  name: 'logs',
};

describe('finalizer patches', () => {
  const object = (finalizers?: string[]): KubernetesObject => ({
    metadata: { name: 'x', resourceVersion: '7', finalizers },
  });

  it.each([
    {
      name: 'adds to none',
      finalizers: undefined,
      add: { metadata: { resourceVersion: '7', finalizers: [FINALIZER] } },
    },
    {
      name: 'adds after others',
      finalizers: ['other'],
      add: { metadata: { resourceVersion: '7', finalizers: ['other', FINALIZER] } },
    },
    { name: 'leaves a present one alone', finalizers: [FINALIZER], add: undefined },
  ])('addFinalizerPatch $name', ({ finalizers, add }) => {
    expect(addFinalizerPatch(object(finalizers), FINALIZER)).toEqual(add);
  });

  it.each([
    {
      name: 'removes the last one as null',
      finalizers: [FINALIZER],
      remove: { metadata: { resourceVersion: '7', finalizers: null } },
    },
    {
      name: 'keeps others',
      finalizers: ['a', FINALIZER, 'b'],
      remove: { metadata: { resourceVersion: '7', finalizers: ['a', 'b'] } },
    },
    { name: 'leaves an absent one alone', finalizers: ['a'], remove: undefined },
  ])('removeFinalizerPatch $name', ({ finalizers, remove }) => {
    expect(removeFinalizerPatch(object(finalizers), FINALIZER)).toEqual(remove);
  });

  it('needs the resourceVersion the patch is guarded by', () => {
    expect(() => addFinalizerPatch({ metadata: { name: 'x' } }, FINALIZER)).toThrow(TypeError);
  });
});

describe('the finalizer deletion flow against the fake API server', () => {
  let server: FakeApiServer;
  let api: CustomObjectsApi;
  beforeEach(async () => {
    server = await FakeApiServer.start({
      customResources: [
        {
          group: 'quarry.dev',
          version: 'v1alpha1',
          plural: 'datasets',
          kind: 'Dataset',
          namespaced: true,
          statusSubresource: true,
        },
      ],
    });
    api = server.kubeConfig().makeApiClient(CustomObjectsApi);
  });
  afterEach(() => server.stop());

  it('ensures the finalizer, holds the object on delete, and lets it go when the finalizer is removed', async () => {
    const created: KubernetesObject = await api.createNamespacedCustomObject({
      ...REF,
      body: { apiVersion: 'quarry.dev/v1alpha1', kind: 'Dataset', metadata: { name: 'logs' } },
    });
    const guarded = await ensureFinalizer(api, REF, created, FINALIZER);
    expect(hasFinalizer(guarded, FINALIZER)).toBe(true);
    expect(await ensureFinalizer(api, REF, guarded, FINALIZER)).toBe(guarded); // nothing to do: no call

    await api.deleteNamespacedCustomObject(REF);
    const terminating: KubernetesObject = await api.getNamespacedCustomObject(REF);
    expect(terminating.metadata?.deletionTimestamp).toBeDefined();

    const final = await removeFinalizer(api, REF, terminating, FINALIZER);
    expect(final.metadata?.finalizers).toBeUndefined();
    expect(
      server.getObject({ group: 'quarry.dev', plural: 'datasets', namespace: 'default', name: 'logs' }),
    ).toBeUndefined();
  });

  it('fails with a conflict when the object changed since it was read, instead of dropping a finalizer', async () => {
    const created: KubernetesObject = await api.createNamespacedCustomObject({
      ...REF,
      body: {
        apiVersion: 'quarry.dev/v1alpha1',
        kind: 'Dataset',
        metadata: { name: 'logs', finalizers: ['other'] },
      },
    });
    await api.patchNamespacedCustomObject({ ...REF, body: [{ op: 'add', path: '/spec', value: { v: 2 } }] });
    const error = await ensureFinalizer(api, REF, created, FINALIZER).catch((e: unknown) => e);
    expect(isConflict(error)).toBe(true);
    const stored = server.getObject({
      group: 'quarry.dev',
      plural: 'datasets',
      namespace: 'default',
      name: 'logs',
    });
    expect(stored?.metadata?.finalizers).toEqual(['other']);
  });
});
