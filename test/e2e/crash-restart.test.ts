import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fetchJson } from '../support/test-server';

const MAIN = path.join(__dirname, '..', '..', 'apps', 'standalone', 'dist', 'main.js');
const TOKEN = 'xaat-crash-test-000000000001';

/**
 * The acknowledgement contract: every event answered 200 survives a SIGKILL of the server, exactly once.
 * Runs the built standalone server (`npm test` builds first) as a real child process.
 */
describe('crash and restart', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-crash-'));
  let child: ChildProcess | null = null;
  let port = 0;

  afterAll(() => {
    child?.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function start(): Promise<void> {
    port = 20000 + Math.floor(Math.random() * 20000);
    child = spawn(process.execPath, [MAIN], {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        QUARRY_DATA_DIR: dataDir,
        QUARRY_BOOTSTRAP_TOKEN: TOKEN,
        QUARRY_LOG_LEVEL: 'error',
        QUARRY_COMPACT_INTERVAL_MS: '300',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      try {
        if ((await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200) return;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('server did not become ready in 30 s');
  }

  const api = (method: string, p: string, body?: unknown) =>
    fetchJson(`http://127.0.0.1:${port}${p}`, {
      method,
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  it('loses no acknowledged event and duplicates none across SIGKILL', async () => {
    expect(fs.existsSync(MAIN)).toBe(true);
    await start();
    expect((await api('POST', '/v2/datasets', { name: 'crash' })).status).toBe(200);

    const acked: string[] = [];
    let stop = false;
    const writer = async (w: number) => {
      for (let s = 0; !stop; s++) {
        const events = Array.from({ length: 20 }, (_, i) => ({ w, s, i }));
        try {
          const res = await api('POST', '/v1/ingest/crash', events);
          if (res.status === 200) for (const e of events) acked.push(`${e.w}/${e.s}/${e.i}`);
        } catch {
          return; // connection reset by the kill: this batch is indeterminate
        }
      }
    };
    const writers = [0, 1, 2, 3].map(writer);
    await new Promise((r) => setTimeout(r, 1500));
    const exited = new Promise((r) => child!.once('exit', r));
    child!.kill('SIGKILL');
    stop = true;
    await Promise.all(writers);
    await exited;
    expect(acked.length).toBeGreaterThan(0);

    await start();
    const res = await api('POST', '/v1/datasets/_apl?format=tabular', {
      apl: "['crash'] | summarize n = count() by w, s, i",
    });
    expect(res.status).toBe(200);
    const table = (await res.json()).tables[0];
    const names = table.fields.map((f: { name: string }) => f.name);
    const [wc, sc, ic, nc] = ['w', 's', 'i', 'n'].map((n) => table.columns[names.indexOf(n)]);
    const found = new Map<string, number>();
    for (let r = 0; r < wc.length; r++) found.set(`${wc[r]}/${sc[r]}/${ic[r]}`, nc[r]);
    const lost = acked.filter((key) => !found.has(key));
    const duplicated = [...found].filter(([, n]) => n > 1);
    expect({ lost: lost.length, duplicated: duplicated.length }).toEqual({ lost: 0, duplicated: 0 });
    process.stdout.write(
      `crash test: ${acked.length} acknowledged events, all present exactly once after SIGKILL\n`,
    );
  });
});
