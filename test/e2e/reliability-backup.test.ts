import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { StandaloneProcess, STANDALONE_MAIN } from '../support/standalone-process';
import { fetchJson } from '../support/test-server';
import { startPatiently } from './reliability-support';

const TOKEN = 'xaat-backup-test-00000000001';
const ROOT = path.join(__dirname, '..', '..');

/** Runs `node scripts/<script>.mjs ...args` as `npm run <script>` would; resolves with its exit code and output. */
function runScript(
  script: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'scripts', `${script}.mjs`), ...args], {
      env: { ...process.env, ...env },
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.on('exit', (code) => resolve({ code, out }));
  });
}

/**
 * Issue 17 item 3: `npm run backup` takes a consistent copy of a running standalone server while it keeps
 * ingesting, and `npm run restore` brings it back: a second server on the restored directory has every
 * event acknowledged before the backup started, no duplicates, and the management state (datasets).
 */
describe('backup of a running server and restore', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-backup-'));
  const dataDir = path.join(root, 'data');
  const backupDir = path.join(root, 'backup');
  const restoredDir = path.join(root, 'restored');
  const env = { QUARRY_COMPACT_INTERVAL_MS: '200' };
  const server = new StandaloneProcess(dataDir, TOKEN, env);
  const restored = new StandaloneProcess(restoredDir, TOKEN, env);

  afterAll(async () => {
    await server.kill();
    await restored.kill();
    fs.rmSync(root, { recursive: true, force: true });
  });

  const api = (base: string, method: string, p: string, body?: unknown) =>
    fetchJson(`${base}${p}`, {
      method,
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  async function present(base: string): Promise<Map<string, number>> {
    const res = await api(base, 'POST', '/v1/datasets/_apl?format=tabular', {
      apl: "['bk'] | summarize n = count() by w, s, i",
    });
    expect(res.status).toBe(200);
    const table = (await res.json()).tables[0];
    const names = table.fields.map((f: { name: string }) => f.name);
    const [wc, sc, ic, nc] = ['w', 's', 'i', 'n'].map((n) => table.columns[names.indexOf(n)]);
    const found = new Map<string, number>();
    for (let r = 0; r < wc.length; r++) found.set(`${wc[r]}/${sc[r]}/${ic[r]}`, nc[r]);
    return found;
  }

  it('keeps every event acknowledged before the backup started, while ingest continues during it', async () => {
    expect(fs.existsSync(STANDALONE_MAIN)).toBe(true);
    await startPatiently(server);
    expect((await api(server.url, 'POST', '/v2/datasets', { name: 'bk' })).status).toBe(200);
    expect((await api(server.url, 'POST', '/v2/datasets', { name: 'bk-other' })).status).toBe(200);

    const acked: string[] = [];
    const sent = new Set<string>();
    let stop = false;
    const writer = async (w: number) => {
      for (let s = 0; !stop; s++) {
        const events = Array.from({ length: 50 }, (_, i) => ({ w, s, i, msg: `event ${w}/${s}/${i}` }));
        for (const e of events) sent.add(`${e.w}/${e.s}/${e.i}`);
        const res = await api(server.url, 'POST', '/v1/ingest/bk', events);
        if (res.status === 200) for (const e of events) acked.push(`${e.w}/${e.s}/${e.i}`);
      }
    };
    const writers = [0, 1, 2].map(writer);
    // Long enough for the compactor to have written blocks: the backup must carry blocks, log and metastore.
    await new Promise((r) => setTimeout(r, 2000));

    const ackedBefore = acked.slice();
    const during = acked.length;
    const backup = await runScript('backup', [backupDir], { QUARRY_URL: server.url, QUARRY_TOKEN: TOKEN });
    const ackedDuringBackup = acked.length - during;
    expect(backup).toEqual({ code: 0, out: expect.stringMatching(/^backup written to /) });
    await new Promise((r) => setTimeout(r, 300));
    stop = true;
    await Promise.all(writers);
    await server.kill();

    const manifest = JSON.parse(fs.readFileSync(path.join(backupDir, 'quarry-backup.json'), 'utf8'));
    expect(manifest).toMatchObject({ kind: 'quarry-standalone-backup', backupVersion: 1 });
    expect(fs.readdirSync(path.join(backupDir, 'objects'), { recursive: true }).length).toBeGreaterThan(0);
    expect(fs.readdirSync(path.join(backupDir, 'log')).length).toBeGreaterThan(0);
    expect(fs.existsSync(path.join(backupDir, 'LOCK'))).toBe(false);

    // A backup over a non-empty directory is refused; so is a restore over one.
    const again = await runScript('restore', [backupDir, backupDir]);
    expect(again.code).toBe(1);
    expect(again.out).toMatch(/is not empty/);

    const restore = await runScript('restore', [backupDir, restoredDir]);
    expect(restore).toEqual({ code: 0, out: expect.stringMatching(/^restored \d+ files from /) });
    await startPatiently(restored);
    const found = await present(restored.url);
    const lost = ackedBefore.filter((key) => !found.has(key));
    const duplicated = [...found].filter(([, n]) => n > 1);
    // Nothing made up: every restored event was sent by a writer (acknowledged, or in flight at the backup).
    const unknown = [...found.keys()].filter((key) => !sent.has(key));
    expect({ lost: lost.length, duplicated: duplicated.length, unknown: unknown.length }).toEqual({
      lost: 0,
      duplicated: 0,
      unknown: 0,
    });
    const datasets = await api(restored.url, 'GET', '/v2/datasets');
    expect((await datasets.json()).map((d: { name: string }) => d.name).sort()).toEqual(['bk', 'bk-other']);
    // The restored server takes new data.
    expect((await api(restored.url, 'POST', '/v1/ingest/bk', [{ w: 9, s: 0, i: 0 }])).status).toBe(200);
    process.stdout.write(
      `backup: ${ackedBefore.length} events acknowledged before it, ${ackedDuringBackup} during it (${manifest.files} files, ${manifest.bytes} bytes, metastore held ${manifest.heldMs} ms); restored copy holds ${found.size}, all acknowledged-before present once\n`,
    );
  }, 400_000); // two server starts, a backup and a restore
});
