import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { StandaloneProcess, STANDALONE_MAIN } from '../support/standalone-process';
import { fetchJson } from '../support/test-server';

const TOKEN = 'xaat-metrics-crash-0000000001';
const T0 = 1_746_057_600; // 2025-05-01T00:00:00Z
const PER_REQUEST = 20;

/**
 * "Durable before 200" for metrics: every point answered 200 by POST /v1/metrics survives a SIGKILL of
 * the server, whether it was still in the metrics log or already in a block (compaction runs every
 * 300 ms meanwhile). Runs the built standalone server (`npm test` builds first) as a child process.
 */
describe('metrics crash and restart', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-metrics-crash-'));
  const server = new StandaloneProcess(dataDir, TOKEN, { QUARRY_METRICS_COMPACT_INTERVAL_MS: '300' });

  afterAll(async () => {
    await server.kill();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const api = (method: string, p: string, body: unknown, headers: Record<string, string> = {}) =>
    fetchJson(`${server.url}${p}`, {
      method,
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });

  /** Points `seq·20 … seq·20 + 19` of writer `w`: one a second, the value is the offset from T0. */
  const request = (w: number, seq: number) => ({
    resourceMetrics: [
      {
        resource: { attributes: [{ key: 'writer', value: { intValue: String(w) } }] },
        scopeMetrics: [
          {
            metrics: [
              {
                name: 'ticks',
                gauge: {
                  dataPoints: Array.from({ length: PER_REQUEST }, (_, i) => ({
                    timeUnixNano: String(BigInt(T0 + seq * PER_REQUEST + i) * 1_000_000_000n),
                    asInt: String(seq * PER_REQUEST + i),
                  })),
                },
              },
            ],
          },
        ],
      },
    ],
  });

  it('loses no acknowledged point across SIGKILL', async () => {
    expect(fs.existsSync(STANDALONE_MAIN)).toBe(true);
    await server.start();
    expect((await api('POST', '/v2/datasets', { name: 'mcrash', kind: 'otel:metrics:v1' })).status).toBe(200);

    const acked = new Map<number, number>(); // writer → requests acknowledged (in order)
    let stop = false;
    const writer = async (w: number) => {
      for (let seq = 0; !stop; seq++) {
        try {
          const res = await api('POST', '/v1/metrics', request(w, seq), {
            'x-axiom-metrics-dataset': 'mcrash',
          });
          if (res.status !== 200) return;
          acked.set(w, seq + 1);
        } catch {
          return; // connection reset by the kill: this request is indeterminate
        }
      }
    };
    const writers = [0, 1, 2].map(writer);
    await new Promise((r) => setTimeout(r, 1500));
    const killed = server.kill();
    stop = true;
    await Promise.all(writers);
    await killed;
    const total = [...acked.values()].reduce((a, b) => a + b, 0) * PER_REQUEST;
    expect(total).toBeGreaterThan(0);

    await server.start();
    const last = Math.max(...acked.values()) * PER_REQUEST;
    const res = await api('POST', '/v1/query/_mpl?format=metrics-v1', {
      mpl: 'mcrash:ticks',
      startTime: new Date(T0 * 1000).toISOString(),
      endTime: new Date((T0 + last + 3600) * 1000).toISOString(),
    });
    expect(res.status).toBe(200);
    const series: { tags: { writer: number }; start: number; resolution: number; data: (number | null)[] }[] =
      await res.json();
    const lost: string[] = [];
    for (const [w, requests] of acked) {
      const s = series.find((x) => x.tags.writer === w);
      const value = (offset: number) => s?.data[(T0 + offset - s.start) / s.resolution];
      for (let offset = 0; offset < requests * PER_REQUEST; offset++)
        if (value(offset) !== offset) lost.push(`${w}/${offset}`);
    }
    expect(lost).toEqual([]);
    process.stdout.write(`metrics crash test: ${total} acknowledged points, all present after SIGKILL\n`);
  });
});
