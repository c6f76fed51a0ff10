/**
 * The `KubeObjects` contract, run against the in-memory fake (`kube-objects.fake.spec.ts`) and against the
 * client-node adapter on k8s-kit's fake API server (`test/operator/kube-objects-adapter.test.ts`): the
 * apiserver rules the reconcilers rely on (resourceVersion preconditions, status isolation, deletion that
 * waits for finalizers, Secrets round-tripping their bytes), so the in-memory fake cannot promise more.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { API_VERSION } from '../constants';
import { KubeConflictError, type KubeObjects } from '../kube-objects.port';
import type { DatasetResource } from '../resources';

/** What a user or another controller does, besides the port itself. */
export interface KubeObjectsHarness {
  kube: KubeObjects;
  /** `kubectl apply` of a new object; resolves once `kube.get` sees it. */
  create(object: DatasetResource): Promise<void>;
  /** `kubectl delete`; resolves once `kube.get` sees the result. */
  delete(namespace: string, name: string): Promise<void>;
  /** Resolves once `kube.get` (a cache, for the adapter) has caught up with the last write. */
  settle(): Promise<void>;
  close(): Promise<void>;
}

export interface KubeObjectsTarget {
  name: string;
  open(): Promise<KubeObjectsHarness>;
}

const NS = 'shop';

export function kubeObjectsContract(target: KubeObjectsTarget): void {
  describe(`KubeObjects contract on ${target.name}`, () => {
    let h: KubeObjectsHarness;
    let n = 0;

    beforeAll(async () => {
      h = await target.open();
    });
    afterAll(async () => {
      await h?.close();
    });

    async function dataset(spec: DatasetResource['spec'] = { description: 'd' }): Promise<DatasetResource> {
      const name = `ds-${n++}`;
      await h.create({ apiVersion: API_VERSION, kind: 'Dataset', metadata: { name, namespace: NS }, spec });
      return (await h.kube.get('Dataset', NS, name))!;
    }

    it('reads objects by key and lists them', async () => {
      const ds = await dataset();
      expect(ds.metadata).toMatchObject({ namespace: NS, generation: 1 });
      expect(ds.metadata.uid).toBeTruthy();
      expect(ds.metadata.resourceVersion).toBeTruthy();
      expect(await h.kube.get('Dataset', NS, 'nope')).toBeUndefined();
      expect((await h.kube.list('Dataset')).map((d) => d.metadata.name)).toContain(ds.metadata.name);
    });

    it('answers claimants: the CRs claiming one effective name on one connection', async () => {
      const shared = `shared-${n}`;
      const a = await dataset({ name: shared });
      const b = await dataset({ name: shared });
      await dataset({ name: shared, connectionRef: { name: 'eu' } });
      await dataset({ name: `${shared}-other` });
      const names = (await h.kube.claimants('Dataset', a)).map((d) => d.metadata.name).sort();
      expect(names).toEqual([a.metadata.name, b.metadata.name].sort());
    });

    it('writes status only through patchStatus, keeps generation, and removes dropped fields', async () => {
      const ds = await dataset();
      const first = await h.kube.patchStatus('Dataset', ds, {
        observedGeneration: 1,
        datasetName: 'x',
        region: 'home',
      });
      expect(first.status).toMatchObject({ datasetName: 'x', region: 'home' });
      expect(first.metadata.generation).toBe(1);
      expect(first.metadata.resourceVersion).not.toBe(ds.metadata.resourceVersion);
      const second = await h.kube.patchStatus('Dataset', first, { observedGeneration: 1, datasetName: 'x' });
      expect(second.status).toEqual({ observedGeneration: 1, datasetName: 'x' });
    });

    it('refuses a write carrying a stale resourceVersion with KubeConflictError', async () => {
      const ds = await dataset();
      await h.kube.patchStatus('Dataset', ds, { observedGeneration: 1 });
      await expect(h.kube.patchStatus('Dataset', ds, { observedGeneration: 2 })).rejects.toBeInstanceOf(
        KubeConflictError,
      );
      await expect(h.kube.setAnnotations('Dataset', ds, { a: 'b' })).rejects.toBeInstanceOf(
        KubeConflictError,
      );
      await expect(h.kube.addFinalizer('Dataset', ds, 'quarry.dev/finalizer')).rejects.toBeInstanceOf(
        KubeConflictError,
      );
    });

    it('sets and removes annotations', async () => {
      const ds = await dataset();
      const set = await h.kube.setAnnotations('Dataset', ds, { 'quarry.dev/external-id': 'r1', keep: 'yes' });
      expect(set.metadata.annotations).toMatchObject({ 'quarry.dev/external-id': 'r1', keep: 'yes' });
      const cleared = await h.kube.setAnnotations('Dataset', set, { 'quarry.dev/external-id': null });
      expect(cleared.metadata.annotations?.['quarry.dev/external-id']).toBeUndefined();
      expect(cleared.metadata.annotations?.keep).toBe('yes');
    });

    it('holds a deleted object until its last finalizer is removed', async () => {
      const ds = await dataset();
      const held = await h.kube.addFinalizer('Dataset', ds, 'quarry.dev/finalizer');
      expect(held.metadata.finalizers).toEqual(['quarry.dev/finalizer']);
      await h.delete(NS, ds.metadata.name);
      const deleting = (await h.kube.get('Dataset', NS, ds.metadata.name))!;
      expect(deleting.metadata.deletionTimestamp).toBeTruthy();
      await h.kube.removeFinalizer('Dataset', deleting, 'quarry.dev/finalizer');
      await h.settle();
      expect(await h.kube.get('Dataset', NS, ds.metadata.name)).toBeUndefined();
    });

    it('applies, replaces, reads back and deletes Secrets, values unchanged (UTF-8 included)', async () => {
      const name = `secret-${n++}`;
      expect(await h.kube.getSecret(NS, name)).toBeUndefined();
      const owner = {
        apiVersion: API_VERSION,
        kind: 'Token',
        name: 'ci',
        uid: '00000000-0000-0000-0000-000000000001',
        controller: true,
        blockOwnerDeletion: true,
      };
      await h.kube.applySecret({
        metadata: { name, namespace: NS, labels: { 'quarry.dev/token': 'ci' }, ownerReferences: [owner] },
        type: 'Opaque',
        data: { token: 'xaat-1', url: 'http://quarry.test/ü' },
      });
      const stored = (await h.kube.getSecret(NS, name))!;
      expect(stored.data).toEqual({ token: 'xaat-1', url: 'http://quarry.test/ü' });
      expect(stored.metadata.labels).toMatchObject({ 'quarry.dev/token': 'ci' });
      expect(stored.metadata.ownerReferences).toEqual([owner]);

      await h.kube.applySecret({
        ...stored,
        metadata: { ...stored.metadata, ownerReferences: [] },
        data: { token: 'xaat-2' },
      });
      const replaced = (await h.kube.getSecret(NS, name))!;
      expect(replaced.data.token).toBe('xaat-2');
      expect(replaced.metadata.ownerReferences ?? []).toEqual([]);

      await h.kube.deleteSecret(NS, name);
      expect(await h.kube.getSecret(NS, name)).toBeUndefined();
      await expect(h.kube.deleteSecret(NS, name)).resolves.toBeUndefined();
    });

    it('records events without failing the caller', async () => {
      const ds = await dataset();
      await expect(
        h.kube.recordEvent('Dataset', ds, 'Normal', 'Created', 'Created dataset.'),
      ).resolves.toBeUndefined();
    });
  });
}
