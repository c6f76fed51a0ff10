import { CustomObjectsApi, type KubernetesObject } from '@kubernetes/client-node';
import { isConflict, isInvalid, isNotFound, kubeApiFailureOf } from './api-errors';
import { jsonPatchStatus, mergePatchObject, mergePatchStatus } from './custom-object-patches';
import { FakeApiServer } from './testing';

// Loopback HTTP only: fail fast instead of waiting for the repository-wide 120 s timeout.
jest.setTimeout(15_000);

const TYPE = { group: 'quarry.dev', version: 'v1alpha1', plural: 'datasets' };
const NAMESPACED = { ...TYPE, namespace: 'default', name: 'logs' };
const CLUSTER = { group: 'quarry.dev', version: 'v1alpha1', plural: 'quarryconnections', name: 'default' };

let server: FakeApiServer;
let api: CustomObjectsApi;
beforeEach(async () => {
  server = await FakeApiServer.start({
    customResources: [
      { ...TYPE, kind: 'Dataset', namespaced: true, statusSubresource: true },
      { ...CLUSTER, kind: 'QuarryConnection', namespaced: false, statusSubresource: true },
    ],
  });
  api = server.kubeConfig().makeApiClient(CustomObjectsApi);
});
afterEach(() => server.stop());

async function createDataset(): Promise<KubernetesObject> {
  return api.createNamespacedCustomObject({
    ...NAMESPACED,
    body: {
      apiVersion: 'quarry.dev/v1alpha1',
      kind: 'Dataset',
      metadata: { name: 'logs' },
      spec: { description: 'd' },
    },
  });
}

it('merge-patches status with the resourceVersion as a precondition', async () => {
  const read = await createDataset();
  const written = await mergePatchStatus(
    api,
    NAMESPACED,
    { observedGeneration: 1 },
    read.metadata!.resourceVersion,
  );
  expect((written as { status?: unknown }).status).toEqual({ observedGeneration: 1 });
  // Same stale read again: refused, so an older view never overwrites a newer status.
  const stale = await mergePatchStatus(
    api,
    NAMESPACED,
    { observedGeneration: 0 },
    read.metadata!.resourceVersion,
  ).catch((e: unknown) => e);
  expect(isConflict(stale)).toBe(true);
  expect(kubeApiFailureOf(stale)).toMatchObject({ code: 409, reason: 'Conflict' });
  // Without a resourceVersion the patch is unconditional.
  await expect(
    mergePatchStatus(api, NAMESPACED, { observedGeneration: 2 }, undefined),
  ).resolves.toBeDefined();
  const patchRequests = server.requests.filter((r) => r.method === 'PATCH');
  expect(patchRequests.every((r) => r.contentType === 'application/merge-patch+json')).toBe(true);
  expect(patchRequests.every((r) => r.path.endsWith('/status'))).toBe(true);
});

it('JSON-patches status, and a failing test operation is an Invalid error', async () => {
  await createDataset();
  await mergePatchStatus(api, NAMESPACED, { phase: 'a' }, undefined);
  const written = await jsonPatchStatus(api, NAMESPACED, [
    { op: 'test', path: '/status/phase', value: 'a' },
    { op: 'replace', path: '/status/phase', value: 'b' },
  ]);
  expect((written as { status?: unknown }).status).toEqual({ phase: 'b' });
  const failed = await jsonPatchStatus(api, NAMESPACED, [
    { op: 'test', path: '/status/phase', value: 'a' },
  ]).catch((e: unknown) => e);
  expect(isInvalid(failed)).toBe(true);
});

it('patches cluster-scoped objects through the cluster endpoints', async () => {
  await api.createClusterCustomObject({
    ...CLUSTER,
    body: {
      apiVersion: 'quarry.dev/v1alpha1',
      kind: 'QuarryConnection',
      metadata: { name: 'default' },
      spec: { url: 'http://x' },
    },
  });
  await mergePatchObject(api, CLUSTER, { metadata: { annotations: { 'quarry.dev/paused': 'true' } } });
  const written = await mergePatchStatus(api, CLUSTER, { ready: true }, undefined);
  expect(written.metadata?.annotations).toEqual({ 'quarry.dev/paused': 'true' });
  expect((written as { status?: unknown }).status).toEqual({ ready: true });
  expect(server.requests.filter((r) => r.method === 'PATCH').map((r) => r.path)).toEqual([
    '/apis/quarry.dev/v1alpha1/quarryconnections/default',
    '/apis/quarry.dev/v1alpha1/quarryconnections/default/status',
  ]);
});

it('classifies API failures once: not found, and errors that are not API failures', async () => {
  const missing = await mergePatchStatus(api, NAMESPACED, {}, undefined).catch((e: unknown) => e);
  expect(isNotFound(missing)).toBe(true);
  expect(kubeApiFailureOf(missing)).toEqual({
    code: 404,
    reason: 'NotFound',
    message: 'datasets.quarry.dev "logs" not found',
  });
  expect(kubeApiFailureOf(new Error('network down'))).toBeUndefined();
  expect(isConflict(new Error('409'))).toBe(false);
});
