import { ingestLogContract } from './ingest-log.contract';
import { MemoryIngestLog } from './memory-ingest-log.fake';

ingestLogContract('MemoryIngestLog', async () => {
  const log = new MemoryIngestLog();
  return {
    log,
    failNextSync: () => log.failNextSync(),
    setDiskFull: (full) => log.setDiskFull(full),
    cleanup: async () => undefined,
  };
});
