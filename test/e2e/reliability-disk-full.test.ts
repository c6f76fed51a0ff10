import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { StandaloneProcess, STANDALONE_MAIN } from '../support/standalone-process';
import { fetchJson } from '../support/test-server';
import { startPatiently } from './reliability-support';

const TOKEN = 'xaat-disk-full-000000000000001';
/** Room for PGlite (about 40 MB with its first WAL segment), the log and a filler file. */
const VOLUME_MB = 128;

/** Mounting needs root (CAP_SYS_ADMIN); under CI=true this box runs as root, so there it must run. */
function mountTmpfs(dir: string): string | null {
  const res = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${VOLUME_MB}m`, 'tmpfs', dir]);
  if (res.status === 0) return null;
  return `mount -t tmpfs failed (${res.error?.message ?? res.stderr.toString().trim()})`;
}

const mountPoint = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-diskfull-'));
const cannotMount = mountTmpfs(mountPoint);
if (cannotMount !== null && process.env.CI !== 'true') {
  process.stderr.write(`SKIPPED reliability-disk-full: ${cannotMount}; run as root to test a full disk\n`);
}
// Under CI the test runs regardless and fails on the mount instead of skipping.
const maybe = cannotMount === null || process.env.CI === 'true' ? it : it.skip;

/**
 * Issue 17 item 7: the data directory's filesystem fills up during ingest. Every 200 must be durable (it
 * is there after a SIGKILL and restart), every refusal is 507 (or 503) with a JSON message, and ingest
 * comes back by itself when space returns.
 */
describe('disk full, for real (a size-limited tmpfs)', () => {
  const dataDir = path.join(mountPoint, 'data');
  const filler = path.join(mountPoint, 'filler');
  const server = new StandaloneProcess(dataDir, TOKEN, { QUARRY_COMPACT_INTERVAL_MS: '200' });

  afterAll(async () => {
    await server.kill();
    if (cannotMount === null) spawnSync('umount', ['-l', mountPoint]);
    fs.rmSync(mountPoint, { recursive: true, force: true });
  });

  const api = (method: string, p: string, body?: unknown) =>
    fetchJson(`${server.url}${p}`, {
      method,
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  maybe(
    'refuses with 507 when full, acknowledges only durable events, recovers when space returns',
    async () => {
      expect(cannotMount).toBeNull();
      expect(fs.existsSync(STANDALONE_MAIN)).toBe(true);
      await startPatiently(server);
      expect((await api('POST', '/v2/datasets', { name: 'full' })).status).toBe(200);

      // Leave about 3 MB free: a few hundred batches fill it.
      const free = () => {
        const s = fs.statfsSync(mountPoint);
        return s.bavail * s.bsize;
      };
      const fillerBytes = free() - 3 * 1024 * 1024;
      expect(spawnSync('fallocate', ['-l', String(fillerBytes), filler]).status).toBe(0);

      const acked: string[] = [];
      const refusals = new Map<number, number>();
      const problems: string[] = [];
      let phase: 'filling' | 'freed' = 'filling';
      let okAfterFree = 0;
      let stop = false;
      const writer = async (w: number) => {
        for (let s = 0; !stop; s++) {
          const events = Array.from({ length: 100 }, (_, i) => ({ w, s, i, pad: 'x'.repeat(300) }));
          const res = await api('POST', '/v1/ingest/full', events);
          const body = await res.text();
          if (res.status === 200) {
            for (const e of events) acked.push(`${e.w}/${e.s}/${e.i}`);
            if (phase === 'freed') okAfterFree++;
            continue;
          }
          refusals.set(res.status, (refusals.get(res.status) ?? 0) + 1);
          if (res.status !== 507 && res.status !== 503) problems.push(`${res.status} ${body}`);
          else if (!/"message":"[^"]+"/.test(body)) problems.push(`no JSON message: ${body}`);
          else if (res.headers.get('retry-after') === null) problems.push(`no Retry-After: ${body}`);
          await new Promise((r) => setTimeout(r, 20));
        }
      };
      const writers = [0, 1, 2].map(writer);

      // Full: wait for refusals, and stay full a while so the compactor and metastore meet it too.
      const waitFor = async (what: string, check: () => boolean, ms: number) => {
        const deadline = Date.now() + ms;
        while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
        if (!check()) throw new Error(`timed out waiting for ${what}`);
      };
      await waitFor('507s', () => (refusals.get(507) ?? 0) + (refusals.get(503) ?? 0) >= 30, 60_000);
      await new Promise((r) => setTimeout(r, 2000));
      const ackedWhileFull = acked.length;

      // Space returns: ingest must recover with no restart and no operator action.
      fs.rmSync(filler);
      phase = 'freed';
      await waitFor('a 200 after space returned', () => okAfterFree >= 10, 30_000);
      stop = true;
      await Promise.all(writers);
      expect(problems).toEqual([]);

      // Durable means durable: SIGKILL, restart, and every acknowledged event is there exactly once.
      await server.kill();
      await startPatiently(server);
      const res = await api('POST', '/v1/datasets/_apl?format=tabular', {
        apl: "['full'] | summarize n = count() by w, s, i",
      });
      expect(res.status).toBe(200);
      const table = (await res.json()).tables[0];
      const names = table.fields.map((f: { name: string }) => f.name);
      const [wc, sc, ic, nc] = ['w', 's', 'i', 'n'].map((n) => table.columns[names.indexOf(n)]);
      const found = new Map<string, number>();
      for (let r = 0; r < wc.length; r++) found.set(`${wc[r]}/${sc[r]}/${ic[r]}`, nc[r]);
      const lost = acked.filter((key) => !found.has(key));
      const duplicated = [...found].filter(([, n]) => n > 1);
      const unacked = found.size - acked.length;
      expect({ lost: lost.length, duplicated: duplicated.length, unacked }).toEqual({
        lost: 0,
        duplicated: 0,
        unacked: 0,
      });
      process.stdout.write(
        `disk full: ${ackedWhileFull} events acknowledged before/while full, ${acked.length} in all; refusals ${JSON.stringify(Object.fromEntries(refusals))}; all present once after SIGKILL\n`,
      );
    },
    400_000, // two server starts and a fill of the volume
  );
});
