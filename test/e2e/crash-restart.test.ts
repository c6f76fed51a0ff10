import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { StandaloneProcess, STANDALONE_MAIN } from '../support/standalone-process';
import { fetchJson } from '../support/test-server';

const TOKEN = 'xaat-crash-test-000000000001';

/**
 * The acknowledgement contract: every event answered 200 survives a SIGKILL of the server, exactly once.
 * Runs the built standalone server (`npm test` builds first) as a real child process.
 */
describe('crash and restart', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-crash-'));
  const server = new StandaloneProcess(dataDir, TOKEN, { QUARRY_COMPACT_INTERVAL_MS: '300' });

  afterAll(async () => {
    await server.kill();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const api = (method: string, p: string, body?: unknown) =>
    fetchJson(`${server.url}${p}`, {
      method,
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  it('loses no acknowledged event and duplicates none across SIGKILL', async () => {
    expect(fs.existsSync(STANDALONE_MAIN)).toBe(true);
    await server.start();
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
    const killed = server.kill();
    stop = true;
    await Promise.all(writers);
    await killed;
    expect(acked.length).toBeGreaterThan(0);

    await server.start();
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
