import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import type { TargetOpener, TestTarget } from '../support/test-server';

const CORPUS = path.join(__dirname, '..', 'conformance', 'apl');

/**
 * The APL conformance corpus over HTTP, through the corpus's own runner (`run.mjs`, unmodified), exactly as
 * the acceptance check runs it. Every CORE case must pass; other failures must be on the known list
 * (`known-failures.json`, each with a reason), so the list can only shrink.
 */
export function aplConformanceSuite(open: TargetOpener): void {
  describe('APL conformance corpus over HTTP', () => {
    let server: TestTarget;

    beforeAll(async () => {
      server = await open();
    });
    afterAll(async () => {
      await server?.close();
    });

    it('passes every CORE case and fails only known COMMON/RARE cases', async () => {
      await expectCorpusPasses(server, ['--ingest']);
    });
  });
}

/**
 * The corpus's events in dataset `sample-http-logs` (created here) as six chunks: each but the last
 * compacted into a block of its own by `compact`, the last left in the tail. What split summarizes need:
 * several blocks to deal out, and a tail the splitting side reads itself.
 */
export async function ingestCorpusAsBlocks(
  target: TestTarget,
  compact: () => Promise<unknown>,
): Promise<void> {
  const created = await target.request('POST', '/v2/datasets', { body: { name: 'sample-http-logs' } });
  expect(created.status).toBe(200);
  const lines = fs.readFileSync(path.join(CORPUS, 'events.ndjson'), 'utf8').trim().split('\n');
  const chunk = Math.ceil(lines.length / 6);
  for (let i = 0; i < lines.length; i += chunk) {
    const res = await target.request('POST', '/v1/datasets/sample-http-logs/ingest', {
      body: lines.slice(i, i + chunk).join('\n'),
      headers: { 'Content-Type': 'application/x-ndjson' },
    });
    expect(res.status).toBe(200);
    if (i + chunk < lines.length) await compact();
  }
}

export async function expectCorpusPasses(server: TestTarget, extraArgs: string[]): Promise<void> {
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
