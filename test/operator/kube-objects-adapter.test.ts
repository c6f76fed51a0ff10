import { CoreV1Api, CustomObjectsApi } from '@kubernetes/client-node';
import { API_GROUP, API_VERSION, buildAllCrds } from '@quarry/k8s-api';
import { CrdAdmission } from '@quarry/k8s-api/testing';
import { FakeApiServer } from '@quarry/k8s-kit/testing';
import {
  KubeObjectsAdapter,
  systemClock,
  type AllResources,
  type ObjectCache,
  type ObjectCaches,
  type ResourceKind,
} from '@quarry/operator';
import { kubeObjectsContract } from '@quarry/operator/testing';

/**
 * The client-node adapter on k8s-kit's fake API server (admission from the generated CRDs), through the same
 * contract the in-memory fake passes. The caches read the server's store directly, standing in for informers.
 */
kubeObjectsContract({
  name: 'the client-node adapter on the fake API server',
  async open() {
    const crds = buildAllCrds();
    const admission = new CrdAdmission(crds);
    const server = await FakeApiServer.start({
      namespaces: ['default', 'shop', 'quarry-system'],
      customResources: crds.map((crd) => ({
        group: API_GROUP,
        version: API_VERSION,
        plural: crd.spec.names.plural,
        kind: crd.spec.names.kind,
        namespaced: crd.spec.scope === 'Namespaced',
        statusSubresource: true,
        admit: (object, oldObject) => admission.admit(object, oldObject),
      })),
    });
    const kubeConfig = server.kubeConfig();
    const customObjects = kubeConfig.makeApiClient(CustomObjectsApi);
    const plurals = Object.fromEntries(crds.map((crd) => [crd.spec.names.kind, crd.spec.names.plural]));
    const cache = <K extends ResourceKind>(kind: K): ObjectCache<AllResources[K]> => ({
      get: (name, namespace) =>
        server.getObject({ group: API_GROUP, plural: plurals[kind], namespace, name }) as
          AllResources[K] | undefined,
      list: () =>
        server.listObjects({ group: API_GROUP, plural: plurals[kind] }) as unknown as AllResources[K][],
    });
    const caches: ObjectCaches = {
      Dataset: cache('Dataset'),
      Role: cache('Role'),
      Token: cache('Token'),
      QuarryConnection: cache('QuarryConnection'),
    };
    const eventErrors: unknown[] = [];
    const kube = new KubeObjectsAdapter({
      customObjects,
      core: kubeConfig.makeApiClient(CoreV1Api),
      caches,
      clock: systemClock,
      eventNamespace: 'quarry-system',
      onEventError: (error) => eventErrors.push(error),
    });
    return {
      kube,
      create: async (object) => void server.createObject(object as never),
      delete: async (namespace, name) =>
        void (await customObjects.deleteNamespacedCustomObject({
          group: API_GROUP,
          version: API_VERSION,
          plural: 'datasets',
          namespace,
          name,
        })),
      settle: async () => undefined,
      close: async () => {
        // Events are best effort, but on the fake server they must work.
        expect(eventErrors).toEqual([]);
        await server.stop();
      },
    };
  },
});
