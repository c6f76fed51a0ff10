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
