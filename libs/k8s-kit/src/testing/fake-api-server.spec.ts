import {
  ApiException,
  CoreV1Api,
  CustomObjectsApi,
  KubernetesObjectApi,
  PatchStrategy,
  setHeaderOptions,
  type KubernetesObject,
} from '@kubernetes/client-node';
import { FakeApiServer } from './fake-api-server';
import type { KubeObject, ResourceType } from './resource-types';

// Loopback HTTP only: fail fast instead of waiting for the repository-wide 120 s timeout.
jest.setTimeout(15_000);

const DATASETS: ResourceType = {
  group: 'quarry.dev',
  version: 'v1alpha1',
  plural: 'datasets',
  kind: 'Dataset',
  namespaced: true,
  statusSubresource: true,
  // Stands in for the CRD validator: a default and one rule.
  admit: (object) => {
    const spec = (object.spec ?? {}) as Record<string, unknown>;
    if (spec.kind !== undefined && spec.kind !== 'events' && spec.kind !== 'otel-metrics') {
      const message = `Dataset.quarry.dev "${object.metadata?.name}" is invalid: spec.kind: Unsupported value: "${String(spec.kind)}"`;
      const cause = { reason: 'FieldValueNotSupported', field: 'spec.kind', message: 'Unsupported value' };
      return {
        ok: false,
        status: 422,
        message,
        details: { name: object.metadata?.name, kind: 'Dataset' },
        causes: [cause],
      };
    }
    return { ok: true, object: { ...object, spec: { kind: 'events', ...spec } } };
  },
};
const DS = { group: 'quarry.dev', version: 'v1alpha1', plural: 'datasets', namespace: 'default' };
const merge = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
const jsonPatch = setHeaderOptions('Content-Type', PatchStrategy.JsonPatch);
const apply = setHeaderOptions('Content-Type', PatchStrategy.ServerSideApply);

let server: FakeApiServer;
let objects: CustomObjectsApi;
let core: CoreV1Api;

beforeEach(async () => {
  server = await FakeApiServer.start({ customResources: [DATASETS], garbageCollection: true });
  objects = server.kubeConfig().makeApiClient(CustomObjectsApi);
  core = server.kubeConfig().makeApiClient(CoreV1Api);
});
afterEach(() => server.stop());

/** The HTTP code and Status reason of a rejected call. */
async function rejection(call: Promise<unknown>): Promise<{ code: number; reason: string; message: string }> {
  try {
    await call;
  } catch (error) {
    if (!(error instanceof ApiException)) throw error;
    const status = JSON.parse(error.body as string) as { reason: string; message: string };
    return { code: error.code, reason: status.reason, message: status.message };
  }
  throw new Error('expected the call to fail');
}

function createDataset(name: string, extra: Partial<KubeObject> = {}): Promise<KubeObject> {
  return objects.createNamespacedCustomObject({
    ...DS,
    body: {
      apiVersion: 'quarry.dev/v1alpha1',
      kind: 'Dataset',
      metadata: { name },
      spec: { description: 'a' },
      ...extra,
    },
  });
}

describe('discovery', () => {
  it('serves the API resource lists KubernetesObjectApi resolves plurals through', async () => {
    const generic = KubernetesObjectApi.makeApiClient(server.kubeConfig());
    const created = await generic.create({
      apiVersion: 'quarry.dev/v1alpha1',
      kind: 'Dataset',
      metadata: { name: 'via-discovery', namespace: 'default' },
    } as KubernetesObject);
    expect(created.metadata?.uid).toBeDefined();
    const groups = (await fetch(`${server.url}/apis`).then((r) => r.json())) as {
      groups: Array<{ name: string }>;
    };
    expect(groups.groups.map((g) => g.name)).toEqual(['coordination.k8s.io', 'quarry.dev']);
    const resources = (await fetch(`${server.url}/apis/quarry.dev/v1alpha1`).then((r) => r.json())) as {
      resources: Array<{ name: string }>;
    };
    expect(resources.resources.map((r) => r.name)).toEqual(['datasets', 'datasets/status']);
  });
});

describe('create, get, update', () => {
  it('assigns uid, resourceVersion, generation 1 and a timestamp, and applies admission defaults', async () => {
    const created = await createDataset('logs');
    expect(created.metadata).toMatchObject({ name: 'logs', namespace: 'default', generation: 1 });
    expect(created.metadata?.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.metadata?.creationTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(created.spec).toEqual({ kind: 'events', description: 'a' });
    const read = await objects.getNamespacedCustomObject({ ...DS, name: 'logs' });
    expect(read).toEqual(created);
  });

  it('rejects what admission rejects with a 422 Invalid Status carrying its details and causes', async () => {
    const failure = await rejection(createDataset('bad', { spec: { kind: 'nope' } }));
    expect(failure).toEqual({
      code: 422,
      reason: 'Invalid',
      message: 'Dataset.quarry.dev "bad" is invalid: spec.kind: Unsupported value: "nope"',
    });
    const raw = await fetch(`${server.url}/apis/quarry.dev/v1alpha1/namespaces/default/datasets`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        apiVersion: 'quarry.dev/v1alpha1',
        kind: 'Dataset',
        metadata: { name: 'bad' },
        spec: { kind: 'x' },
      }),
    });
    expect(await raw.json()).toMatchObject({
      kind: 'Status',
      status: 'Failure',
      code: 422,
      details: {
        name: 'bad',
        kind: 'Dataset',
        causes: [{ reason: 'FieldValueNotSupported', field: 'spec.kind' }],
      },
    });
  });

  it('tells admission the operation, the old object and the subresource', async () => {
    const calls: string[] = [];
    const recording: ResourceType = {
      ...DATASETS,
      plural: 'roles',
      kind: 'Role',
      admit: (object, old, context) => {
        calls.push(
          `${context.operation} ${context.subresource ?? 'main'} old=${old?.metadata?.resourceVersion ?? '-'}`,
        );
        return { ok: true, object };
      },
    };
    const local = await FakeApiServer.start({ customResources: [recording] });
    const api = local.kubeConfig().makeApiClient(CustomObjectsApi);
    const ref = { ...DS, plural: 'roles' };
    const created = await api.createNamespacedCustomObject({
      ...ref,
      body: { apiVersion: 'quarry.dev/v1alpha1', kind: 'Role', metadata: { name: 'r' } },
    });
    await api.patchNamespacedCustomObjectStatus({ ...ref, name: 'r', body: { status: { ok: true } } }, merge);
    await local.stop();
    expect(calls).toEqual(['CREATE main old=-', `UPDATE status old=${created.metadata.resourceVersion}`]);
  });

  it('generates names from generateName and refuses duplicates with AlreadyExists', async () => {
    const generated = await objects.createNamespacedCustomObject({
      ...DS,
      body: { apiVersion: 'quarry.dev/v1alpha1', kind: 'Dataset', metadata: { generateName: 'logs-' } },
    });
    expect(generated.metadata.name).toMatch(/^logs-[a-z0-9]{5}$/);
    await createDataset('twice');
    expect(await rejection(createDataset('twice'))).toMatchObject({ code: 409, reason: 'AlreadyExists' });
  });

  it('answers a PUT with a stale resourceVersion with 409 Conflict, and bumps generation on spec changes only', async () => {
    const created = await createDataset('logs');
    const changed = { ...created, spec: { ...(created.spec as object), description: 'b' } };
    const updated = await objects.replaceNamespacedCustomObject({ ...DS, name: 'logs', body: changed });
    expect(updated.metadata.generation).toBe(2);
    expect(
      await rejection(objects.replaceNamespacedCustomObject({ ...DS, name: 'logs', body: changed })),
    ).toMatchObject({
      code: 409,
      reason: 'Conflict',
    });
    const labelled = await objects.patchNamespacedCustomObject(
      { ...DS, name: 'logs', body: { metadata: { labels: { team: 'a' } } } },
      merge,
    );
    expect(labelled.metadata.generation).toBe(2);
    expect(Number(labelled.metadata.resourceVersion)).toBeGreaterThan(
      Number(updated.metadata.resourceVersion),
    );
  });

  it('refuses a PUT of a custom resource without resourceVersion, as the apiserver does', async () => {
    await createDataset('logs');
    const body = { apiVersion: 'quarry.dev/v1alpha1', kind: 'Dataset', metadata: { name: 'logs' }, spec: {} };
    expect(
      await rejection(objects.replaceNamespacedCustomObject({ ...DS, name: 'logs', body })),
    ).toMatchObject({ code: 422 });
  });

  it('answers a missing object with a NotFound Status naming it', async () => {
    expect(await rejection(objects.getNamespacedCustomObject({ ...DS, name: 'nope' }))).toEqual({
      code: 404,
      reason: 'NotFound',
      message: 'datasets.quarry.dev "nope" not found',
    });
  });

  it('turns Secret stringData into base64 data', async () => {
    const secret = await core.createNamespacedSecret({
      namespace: 'default',
      body: { metadata: { name: 's' }, stringData: { token: 'xaat-1' } },
    });
    expect(secret.data).toEqual({ token: Buffer.from('xaat-1').toString('base64') });
    expect(secret.type).toBe('Opaque');
  });
});

describe('status subresource', () => {
  it('keeps status out of the main endpoint and everything but status out of /status', async () => {
    const created = await createDataset('logs', { status: { ignored: true } });
    expect(created.status).toBeUndefined();

    const viaMain = await objects.patchNamespacedCustomObject(
      { ...DS, name: 'logs', body: { spec: { description: 'new' }, status: { sneaky: true } } },
      merge,
    );
    expect(viaMain.status).toBeUndefined();
    expect((viaMain.spec as { description: string }).description).toBe('new');

    const viaStatus = await objects.patchNamespacedCustomObjectStatus(
      {
        ...DS,
        name: 'logs',
        body: { spec: { description: 'sneaky' }, metadata: { labels: { x: 'y' } }, status: { ready: true } },
      },
      merge,
    );
    expect(viaStatus.status).toEqual({ ready: true });
    expect((viaStatus.spec as { description: string }).description).toBe('new');
    expect(viaStatus.metadata.labels).toBeUndefined();
    expect(viaStatus.metadata.generation).toBe(viaMain.metadata.generation);
  });

  it('treats a resourceVersion inside a patch body as a precondition', async () => {
    const created = await createDataset('logs');
    const stale = created.metadata!.resourceVersion;
    await objects.patchNamespacedCustomObject(
      { ...DS, name: 'logs', body: { spec: { description: 'x' } } },
      merge,
    );
    const failure = await rejection(
      objects.patchNamespacedCustomObjectStatus(
        { ...DS, name: 'logs', body: { metadata: { resourceVersion: stale }, status: { ready: true } } },
        merge,
      ),
    );
    expect(failure).toMatchObject({ code: 409, reason: 'Conflict' });
  });

  it('changes nothing (no new resourceVersion, no event) when a patch changes nothing', async () => {
    await createDataset('logs');
    const first = await objects.patchNamespacedCustomObjectStatus(
      { ...DS, name: 'logs', body: { status: { ready: true } } },
      merge,
    );
    const second = await objects.patchNamespacedCustomObjectStatus(
      { ...DS, name: 'logs', body: { status: { ready: true } } },
      merge,
    );
    expect(second.metadata.resourceVersion).toBe(first.metadata.resourceVersion);
  });
});

describe('patch types', () => {
  it('applies JSON patches, honouring test operations', async () => {
    await createDataset('logs');
    const patched = await objects.patchNamespacedCustomObject(
      {
        ...DS,
        name: 'logs',
        body: [
          { op: 'test', path: '/spec/description', value: 'a' },
          { op: 'replace', path: '/spec/description', value: 'b' },
          { op: 'add', path: '/metadata/labels', value: { 'a/b': 'c' } },
        ],
      },
      jsonPatch,
    );
    expect(patched.spec.description).toBe('b');
    expect(patched.metadata.labels).toEqual({ 'a/b': 'c' });
    const failed = await rejection(
      objects.patchNamespacedCustomObject(
        { ...DS, name: 'logs', body: [{ op: 'test', path: '/spec/description', value: 'a' }] },
        jsonPatch,
      ),
    );
    expect(failed).toMatchObject({ code: 422, reason: 'Invalid' });
  });

  it('treats server-side apply as an upsert and requires a fieldManager', async () => {
    const body = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'token', namespace: 'default' },
      data: { a: 'YQ==' },
    };
    const noManager = await rejection(
      core.patchNamespacedSecret({ name: 'token', namespace: 'default', body }, apply),
    );
    expect(noManager.code).toBe(400);
    const created = await core.patchNamespacedSecret(
      { name: 'token', namespace: 'default', body, fieldManager: 'quarry-operator', force: true },
      apply,
    );
    expect(created.metadata?.uid).toBeDefined();
    const updated = await core.patchNamespacedSecret(
      {
        name: 'token',
        namespace: 'default',
        body: { ...body, data: { b: 'Yg==' } },
        fieldManager: 'quarry-operator',
        force: true,
      },
      apply,
    );
    expect(updated.metadata?.uid).toBe(created.metadata?.uid);
    expect(updated.data).toEqual({ a: 'YQ==', b: 'Yg==' }); // no managedFields: earlier applied fields stay
  });

  it('refuses strategic merge patch with 415 rather than guessing its list semantics', async () => {
    await createDataset('logs');
    const failure = await rejection(
      objects.patchNamespacedCustomObject(
        { ...DS, name: 'logs', body: { spec: {} } },
        setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch),
      ),
    );
    expect(failure.code).toBe(415);
  });
});

describe('deletion', () => {
  it('holds an object with finalizers until the last one goes, bumping generation when marking it', async () => {
    const created = await createDataset('logs', {
      metadata: { name: 'logs', finalizers: ['quarry.dev/finalizer', 'other'] },
    });
    const marked = await objects.deleteNamespacedCustomObject({ ...DS, name: 'logs' });
    expect(marked.metadata.deletionTimestamp).toBeDefined();
    expect(marked.metadata.generation).toBe(created.metadata!.generation! + 1);

    const addWhileDeleting = await rejection(
      objects.patchNamespacedCustomObject(
        {
          ...DS,
          name: 'logs',
          body: { metadata: { finalizers: ['quarry.dev/finalizer', 'other', 'late'] } },
        },
        merge,
      ),
    );
    expect(addWhileDeleting.code).toBe(422);

    await objects.patchNamespacedCustomObject(
      { ...DS, name: 'logs', body: { metadata: { finalizers: ['other'] } } },
      merge,
    );
    expect(server.getObject({ ...DS, name: 'logs' })).toBeDefined();
    await objects.patchNamespacedCustomObject(
      { ...DS, name: 'logs', body: { metadata: { finalizers: null } } },
      merge,
    );
    expect(server.getObject({ ...DS, name: 'logs' })).toBeUndefined();
  });

  it('deletes at once without finalizers, checks delete preconditions, and cascades to owned objects', async () => {
    const owner = await createDataset('logs');
    const ownerRef = {
      apiVersion: 'quarry.dev/v1alpha1',
      kind: 'Dataset',
      name: 'logs',
      uid: owner.metadata!.uid!,
      controller: true,
    };
    await core.createNamespacedSecret({
      namespace: 'default',
      body: { metadata: { name: 'owned', ownerReferences: [ownerRef] } },
    });
    await core.createNamespacedSecret({ namespace: 'default', body: { metadata: { name: 'unrelated' } } });

    const wrongUid = await rejection(
      objects.deleteNamespacedCustomObject({
        ...DS,
        name: 'logs',
        body: { preconditions: { uid: 'other' } },
      }),
    );
    expect(wrongUid.code).toBe(409);

    await objects.deleteNamespacedCustomObject({ ...DS, name: 'logs' });
    expect(server.getObject({ ...DS, name: 'logs' })).toBeUndefined();
    const secrets = server
      .listObjects({ plural: 'secrets', namespace: 'default' })
      .map((s) => s.metadata?.name);
    expect(secrets).toEqual(['unrelated']);
  });

  it('orphans dependents when asked to', async () => {
    const owner = await createDataset('logs');
    const ownerRef = {
      apiVersion: 'quarry.dev/v1alpha1',
      kind: 'Dataset',
      name: 'logs',
      uid: owner.metadata!.uid!,
    };
    await core.createNamespacedSecret({
      namespace: 'default',
      body: { metadata: { name: 'owned', ownerReferences: [ownerRef] } },
    });
    await objects.deleteNamespacedCustomObject({ ...DS, name: 'logs', propagationPolicy: 'Orphan' });
    const orphan = server.getObject({ plural: 'secrets', namespace: 'default', name: 'owned' });
    expect(orphan?.metadata?.ownerReferences).toEqual([]);
  });
});

describe('list and labelSelector', () => {
  it('filters by label selector (equality, set and existence forms) and reports the resourceVersion', async () => {
    const labelled = (name: string, labels: Record<string, string>) =>
      core.createNamespacedSecret({ namespace: 'default', body: { metadata: { name, labels } } });
    await labelled('a', { 'app.kubernetes.io/managed-by': 'quarry-operator', tier: 'x' });
    await labelled('b', { 'app.kubernetes.io/managed-by': 'quarry-operator', tier: 'y' });
    await labelled('c', { 'app.kubernetes.io/managed-by': 'helm' });
    await labelled('d', {});
    const names = async (labelSelector: string) =>
      (await core.listNamespacedSecret({ namespace: 'default', labelSelector })).items.map(
        (s) => s.metadata?.name,
      );

    expect(await names('app.kubernetes.io/managed-by=quarry-operator')).toEqual(['a', 'b']);
    expect(await names('app.kubernetes.io/managed-by!=quarry-operator')).toEqual(['c', 'd']);
    expect(await names('tier in (y, z)')).toEqual(['b']);
    expect(await names('tier notin (x)')).toEqual(['b', 'c', 'd']);
    expect(await names('!tier')).toEqual(['c', 'd']);
    expect(await names('tier,app.kubernetes.io/managed-by==quarry-operator')).toEqual(['a', 'b']);
    const list = await core.listNamespacedSecret({ namespace: 'default' });
    expect(list.metadata?.resourceVersion).toBe(server.resourceVersion);
    expect(
      (await rejection(core.listNamespacedSecret({ namespace: 'default', labelSelector: 'a b c' }))).code,
    ).toBe(400);
  });

  it('lists a namespaced type across namespaces at the cluster path', async () => {
    await createDataset('one');
    await objects.createNamespacedCustomObject({
      ...DS,
      namespace: 'shop',
      body: { apiVersion: 'quarry.dev/v1alpha1', kind: 'Dataset', metadata: { name: 'two' } },
    });
    const all = await objects.listClusterCustomObject({
      group: 'quarry.dev',
      version: 'v1alpha1',
      plural: 'datasets',
    });
    expect(all.items.map((d: KubeObject) => `${d.metadata?.namespace}/${d.metadata?.name}`)).toEqual([
      'default/one',
      'shop/two',
    ]);
  });
});

describe('fault switches', () => {
  it('fails the next N matching calls with the requested code, then recovers', async () => {
    server.failNext(2, { code: 500, match: (r) => r.method === 'GET' && r.path.includes('/datasets') });
    await createDataset('logs'); // a POST: not matched
    expect((await rejection(objects.getNamespacedCustomObject({ ...DS, name: 'logs' }))).reason).toBe(
      'InternalError',
    );
    server.failNext(1, { code: 409 });
    expect((await rejection(objects.getNamespacedCustomObject({ ...DS, name: 'logs' }))).code).toBe(500);
    expect((await rejection(objects.getNamespacedCustomObject({ ...DS, name: 'logs' }))).reason).toBe(
      'Conflict',
    );
    await expect(objects.getNamespacedCustomObject({ ...DS, name: 'logs' })).resolves.toBeDefined();
  });
});
