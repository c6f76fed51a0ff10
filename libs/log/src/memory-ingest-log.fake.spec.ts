import { ingestLogContract } from './ingest-log.contract';
import { MemoryIngestLog } from './memory-ingest-log.fake';

const MEMORY_TRAITS = { diskFaults: true, truncationDeletes: true, localStorageStats: true };

ingestLogContract(
  'MemoryIngestLog',
  async () => {
    const log = new MemoryIngestLog();
    return {
      log,
      failNextSync: () => log.failNextSync(),
      setDiskFull: (full) => log.setDiskFull(full),
      cleanup: async () => undefined,
    };
  },
  MEMORY_TRAITS,
);
