import {
  aplConformanceSuite,
  expectCorpusPasses,
  ingestCorpusAsBlocks,
} from '../suites/apl-conformance.suite';
import { startTestServer, type TestServer } from '../support/test-server';

aplConformanceSuite(startTestServer);

/**
 * The same corpus with every summarize split across two query worker threads (real threads, partial states
 * merged on the main thread): the events are stored as five blocks plus an un-compacted tail, and the
 * split threshold is one row.
 */
describe('APL conformance corpus over HTTP, summarizes split across query workers', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({
      QUARRY_QUERY_WORKERS: '2',
      QUARRY_QUERY_SPLIT_MIN_ROWS: '1',
      QUARRY_COMPACT_INTERVAL_MS: '3600000',
    });
    // The last chunk stays in the tail.
    await ingestCorpusAsBlocks(server, () => server.quarry.storage.compactor!.flush());
    expect(
      server.quarry.storage.blocks.list(server.quarry.storage.registry.getByName('sample-http-logs')!.id),
    ).toHaveLength(5);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('passes every case as with the single-threaded engine', async () => {
    await expectCorpusPasses(server, []);
    expect(server.quarry.storage.querySplits).toBeGreaterThan(40);
  });
});
