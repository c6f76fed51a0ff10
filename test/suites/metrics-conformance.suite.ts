import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import type { TargetOpener, TestServer, TestTarget } from '../support/test-server';

const run = promisify(execFile);
const CORPUS = path.join(__dirname, '..', 'conformance', 'mpl');
const lines = (file: string) => fs.readFileSync(path.join(CORPUS, file), 'utf8').trim().split('\n').length;
/** Every MPL case plus every tag-values check of the corpus. */
const EXPECTED_CHECKS = lines('cases.jsonl') + lines('tag-values.jsonl');

const tailPoints = (server: TestTarget) =>
  (server as TestServer).quarry.storage.metrics.store.stats.tailPoints;

/**
 * The MPL conformance corpus over HTTP, with the corpus' own tools: send.mjs ingests points.json as
 * OTLP (protobuf, and OTLP/JSON into a second dataset), run.mjs runs every case and tag-values check.
 */
export function metricsConformanceSuite(open: TargetOpener): void {
  describe('MPL conformance corpus over HTTP', () => {
    let server: TestTarget;

    beforeAll(async () => {
      // Compaction only when the test asks for it, so the first run reads the tail, the second blocks
      // (a shared cluster compacts on its own schedule: it reads whatever mix there is, then blocks).
      server = await open({ QUARRY_METRICS_COMPACT_INTERVAL_MS: '3600000' });
    });
    afterAll(() => server.close());

    const node = async (script: string, args: string[]) => {
      try {
        const { stdout, stderr } = await run(
          process.execPath,
          [path.join(CORPUS, script), '--base', server.url, '--token', server.token, ...args],
          {
            maxBuffer: 16 * 1024 * 1024,
          },
        );
        return { code: 0, stdout, stderr };
      } catch (err) {
        const e = err as { code?: number; stdout?: string; stderr?: string };
        return { code: e.code ?? 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
      }
    };

    async function expectAllPass(dataset: string): Promise<void> {
      const result = await node('run.mjs', ['--dataset', dataset]);
      const summary = /(\d+) passed, (\d+) failed/.exec(result.stdout);
      // Print the failure lines, so a red run says which cases broke.
      if (!summary || Number(summary[2]) !== 0) console.log(result.stdout, result.stderr);
      expect(summary && [Number(summary[1]), Number(summary[2])]).toEqual([EXPECTED_CHECKS, 0]);
      expect(result.code).toBe(0);
    }

    it('passes every case with points ingested as OTLP protobuf, from the tail and from blocks', async () => {
      const sent = await node('send.mjs', ['--create', '--dataset', 'mpl_corpus']);
      expect(sent.stderr).toMatch(/done: 31815 points sent/);
      expect(sent.code).toBe(0);
      if (server.kind === 'standalone') expect(tailPoints(server)).toBe(31815);
      await expectAllPass('mpl_corpus');

      await server.compact();
      if (server.kind === 'standalone') expect(tailPoints(server)).toBe(0);
      await expectAllPass('mpl_corpus');
    });

    it('passes every case with points ingested as OTLP/JSON', async () => {
      const sent = await node('send.mjs', ['--create', '--json', '--dataset', 'mpl_corpus_json']);
      expect(sent.code).toBe(0);
      await expectAllPass('mpl_corpus_json');
    });
  });
}
