import { MemoryObjectStore } from './memory-object-store.fake';
import { objectStoreContract } from './object-store.contract';

objectStoreContract('MemoryObjectStore', async () => ({
  store: new MemoryObjectStore(),
  cleanup: async () => undefined,
}));
