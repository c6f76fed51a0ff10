import { InMemoryKubeObjects } from './testing/kube-objects.fake';
import { kubeObjectsContract } from './testing/kube-objects.contract';

kubeObjectsContract({
  name: 'the in-memory fake',
  async open() {
    const kube = new InMemoryKubeObjects();
    return {
      kube,
      create: async (object) => void kube.create('Dataset', object),
      delete: async (namespace, name) => kube.delete('Dataset', namespace, name),
      settle: async () => undefined,
      close: async () => undefined,
    };
  },
});
