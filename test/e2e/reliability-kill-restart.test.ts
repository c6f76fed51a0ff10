import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { freePort } from '../support/free-port';
import { StandaloneProcess, STANDALONE_MAIN } from '../support/standalone-process';
import { fetchJson } from '../support/test-server';
import { startPatiently, waitReady } from './reliability-support';

const TOKEN = 'xaat-kill-restart-00000000001';
const ROUNDS = 20;

/**
 * Issue 17: a hard kill followed by an immediate restart always comes back, with every acknowledged event.
 * Odd rounds reproduce the reported failure: the server runs under a parent that never reaps it (`exec
 * sleep`), so after SIGKILL it stays a zombie whose pid still "runs" — the old lock refused to start then.
 */
describe('SIGKILL while ingesting, then restart at once, 20 times', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-kill-'));
  const env = { QUARRY_COMPACT_INTERVAL_MS: '300' };
  const server = new StandaloneProcess(dataDir, TOKEN, env);
  const reapers: ChildProcess[] = [];
  let url = '';

  afterAll(async () => {
    await server.kill();
    for (const r of reapers) r.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const api = (method: string, p: string, body?: unknown) =>
    fetchJson(`${url}${p}`, {
      method,
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  /** The server as a child of `sleep`, which never reaps it. Returns its pid and url once ready. */
  async function startUnreaped(): Promise<{ pid: number; url: string }> {
    const port = await freePort();
    const parent = spawn(
      'sh',
      ['-c', `"${process.execPath}" "${STANDALONE_MAIN}" >/dev/null 2>&1 & echo $!; exec sleep 600`],
      {
        env: {
          ...process.env,
          ...env,
          PORT: String(port),
          HOST: '127.0.0.1',
          QUARRY_DATA_DIR: dataDir,
          QUARRY_BOOTSTRAP_TOKEN: TOKEN,
          QUARRY_LOG_LEVEL: 'error',
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    reapers.push(parent);
    const pid = await new Promise<number>((resolve) => {
      parent.stdout!.once('data', (c: Buffer) => resolve(Number(c.toString().trim())));
    });
    const serverUrl = `http://127.0.0.1:${port}`;
    await waitReady(serverUrl, 120_000);
    return { pid, url: serverUrl };
  }

  it('comes back every time and keeps every acknowledged event exactly once', async () => {
    expect(fs.existsSync(STANDALONE_MAIN)).toBe(true);
    await startPatiently(server);
    url = server.url;
    expect((await api('POST', '/v2/datasets', { name: 'kills' })).status).toBe(200);
    const acked: string[] = [];
    let zombies = 0;
    let unreaped: { pid: number; url: string } | null = null;

    for (let round = 0; round < ROUNDS; round++) {
      let stop = false;
      const writer = async (w: number) => {
        for (let s = 0; !stop; s++) {
          const events = Array.from({ length: 10 }, (_, i) => ({ r: round, w, s, i }));
          try {
            const res = await api('POST', '/v1/ingest/kills', events);
            if (res.status === 200) for (const e of events) acked.push(`${e.r}/${e.w}/${e.s}/${e.i}`);
          } catch {
            return; // the kill cut this request: indeterminate, not acknowledged
          }
        }
      };
      const writers = [0, 1, 2].map(writer);
      // Every round kills a server that has acknowledged something, at a random moment after that.
      const before = acked.length;
      for (let i = 0; i < 600 && acked.length === before; i++) await new Promise((r) => setTimeout(r, 50));
      expect(acked.length).toBeGreaterThan(before);
      await new Promise((r) => setTimeout(r, 100 + Math.random() * 400));
      if (unreaped === null) {
        const killed = server.kill();
        stop = true;
        await Promise.all(writers);
        await killed;
      } else {
        process.kill(unreaped.pid, 'SIGKILL');
        stop = true;
        await Promise.all(writers);
        // Wait until the kernel has made it a zombie: its pid still exists, as in the report.
        const stat = `/proc/${unreaped.pid}/stat`;
        for (let i = 0; i < 500; i++) {
          const text = fs.readFileSync(stat, 'utf8');
          if (text.slice(text.lastIndexOf(')') + 2)[0] === 'Z') break;
          await new Promise((r) => setTimeout(r, 10));
        }
        const text = fs.readFileSync(stat, 'utf8');
        expect(text.slice(text.lastIndexOf(')') + 2)[0]).toBe('Z');
        zombies++;
      }
      // Restart at once; odd rounds start the next server unreaped.
      if (round % 2 === 0) {
        unreaped = await startUnreaped();
        url = unreaped.url;
      } else {
        unreaped = null;
        await startPatiently(server);
        url = server.url;
      }
    }

    const res = await api('POST', '/v1/datasets/_apl?format=tabular', {
      apl: "['kills'] | summarize n = count() by r, w, s, i",
    });
    expect(res.status).toBe(200);
    const table = (await res.json()).tables[0];
    const names = table.fields.map((f: { name: string }) => f.name);
    const [rc, wc, sc, ic, nc] = ['r', 'w', 's', 'i', 'n'].map((n) => table.columns[names.indexOf(n)]);
    const found = new Map<string, number>();
    for (let k = 0; k < rc.length; k++) found.set(`${rc[k]}/${wc[k]}/${sc[k]}/${ic[k]}`, nc[k]);
    const lost = acked.filter((key) => !found.has(key));
    const duplicated = [...found].filter(([, n]) => n > 1);
    expect({ lost: lost.length, duplicated: duplicated.length }).toEqual({ lost: 0, duplicated: 0 });
    expect(zombies).toBe(ROUNDS / 2);
    if (unreaped !== null) process.kill(unreaped.pid, 'SIGKILL');
    process.stdout.write(
      `kill-restart: ${ROUNDS} SIGKILLs (${zombies} left as zombies), ${acked.length} acknowledged events, all present exactly once\n`,
    );
  }, 900_000); // 20 cold-ish restarts on a loaded 2-core machine
});
