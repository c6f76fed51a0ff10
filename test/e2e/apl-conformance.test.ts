import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { startTestServer, type TestServer } from '../support/test-server';

const CORPUS = path.join(__dirname, '..', 'conformance', 'apl');

/**
 * The APL conformance corpus over HTTP, through the corpus's own runner (`run.mjs`, unmodified), exactly as
 * the acceptance check runs it. Every CORE case must pass; other failures must be on the known list
 * (`known-failures.json`, each with a reason), so the list can only shrink.
 */
describe('APL conformance corpus over HTTP', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('passes every CORE case and fails only known COMMON/RARE cases', async () => {
    await expectCorpusPasses(server, ['--ingest']);
  });
});

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
      if (i + chunk < lines.length) await server.quarry.storage.compactor.flush(); // the last chunk stays in the tail
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

async function expectCorpusPasses(server: TestServer, extraArgs: string[]): Promise<void> {
  {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [path.join(CORPUS, 'run.mjs'), '--base', server.url, '--token', server.token, ...extraArgs],
      { maxBuffer: 10 * 1024 * 1024 },
    ).catch((err: { stdout?: string; stderr?: string }) => {
      // run.mjs exits 1 when any case fails; the verdict comes from its output below.
      if (err.stdout === undefined) throw err;
      return { stdout: err.stdout };
    });
    const failures = [...stdout.matchAll(/^FAIL (\S+) \[(\w+)\] (.*)$/gm)].map((m) => ({
      id: m[1],
      tier: m[2],
      reason: m[3],
    }));
    const summary = /^(\d+) passed, (\d+) failed$/m.exec(stdout);
    expect(summary).not.toBeNull();

    const known: Record<string, string> = JSON.parse(
      fs.readFileSync(path.join(CORPUS, 'known-failures.json'), 'utf8'),
    );
    expect(failures.filter((f) => f.tier === 'core')).toEqual([]);
    expect(failures.filter((f) => !(f.id in known))).toEqual([]);
    process.stdout.write(`APL conformance over HTTP: ${summary![0]}\n`);
  }
}
