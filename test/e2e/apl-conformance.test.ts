import * as fs from 'node:fs';
import * as path from 'node:path';
import { aplConformanceSuite, expectCorpusPasses } from '../suites/apl-conformance.suite';
import { startTestServer, type TestServer } from '../support/test-server';

const CORPUS = path.join(__dirname, '..', 'conformance', 'apl');

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
    const created = await server.request('POST', '/v2/datasets', { body: { name: 'sample-http-logs' } });
    expect(created.status).toBe(200);
    const lines = fs.readFileSync(path.join(CORPUS, 'events.ndjson'), 'utf8').trim().split('\n');
    const chunk = Math.ceil(lines.length / 6);
    for (let i = 0; i < lines.length; i += chunk) {
      const res = await server.request('POST', '/v1/datasets/sample-http-logs/ingest', {
        body: lines.slice(i, i + chunk).join('\n'),
        headers: { 'Content-Type': 'application/x-ndjson' },
      });
      expect(res.status).toBe(200);
      if (i + chunk < lines.length) await server.quarry.storage.compactor!.flush(); // the last chunk stays in the tail
    }
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
