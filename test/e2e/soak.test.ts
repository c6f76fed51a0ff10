import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { STANDALONE_MAIN } from '../support/standalone-process';

const SOAK = path.join(__dirname, '..', '..', 'bench', 'soak.mjs');

interface SoakReport {
  acknowledgedEvents: number;
  presentEvents: number;
  lostEvents: number;
  duplicatedEvents: number;
  partialBatches: number;
  http500: number;
  statuses: Record<string, number>;
  errorSamples: Record<string, string>;
  restarts: { attempted: number; cameBack: number; failures: string[] };
  rss: { slopeMiBPerMinute: number; warmSamples: number; flat: boolean };
  latencyMs: Record<string, { count: number }>;
  clientCrashes: string[];
  ok: boolean;
}

/**
 * Issue 17: the 2-minute soak (bench/soak.mjs) — ingest in every format, queries and management calls
 * while the standalone server is SIGKILLed and restarted every few seconds. Every acknowledged event must
 * be present exactly once, every restart must come back, nothing may answer 500, and memory must not
 * climb from one process life to the next.
 */
describe('soak', () => {
  it('runs 2 minutes of load with kill/restart cycles and keeps every promise', async () => {
    expect(fs.existsSync(STANDALONE_MAIN)).toBe(true);
    const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-soak-report-')), 'report.json');
    const stdout = await new Promise<string>((resolve, reject) => {
      execFile(
        process.execPath,
        [SOAK, '--minutes', '2', '--max-slope', '64', '--json', out],
        { timeout: 330_000, maxBuffer: 16 * 1024 * 1024 },
        (err, so, se) =>
          err && !fs.existsSync(out) ? reject(new Error(`${err.message}\n${se}`)) : resolve(so),
      );
    });
    const report = JSON.parse(fs.readFileSync(out, 'utf8')) as SoakReport;
    process.stdout.write(stdout);

    expect(report.clientCrashes).toEqual([]);
    expect(report.acknowledgedEvents).toBeGreaterThan(10_000);
    expect(report.lostEvents).toBe(0);
    expect(report.duplicatedEvents).toBe(0);
    expect(report.partialBatches).toBe(0);
    expect(report.presentEvents).toBe(report.acknowledgedEvents);
    expect(report.http500).toBe(0);
    expect(report.errorSamples['500']).toBeUndefined();
    expect(report.restarts.attempted).toBeGreaterThanOrEqual(3);
    expect(report.restarts.failures).toEqual([]);
    expect(report.restarts.cameBack).toBe(report.restarts.attempted);
    expect(report.latencyMs.query.count).toBeGreaterThan(0);
    expect(report.latencyMs.management.count).toBeGreaterThan(0);
    // Each process life's warm RSS, over the run: a leak that survives restarts (state growing with the
    // data) would climb; noise between lives on a busy machine stays well below this.
    expect(report.rss.warmSamples).toBeGreaterThanOrEqual(2);
    expect(report.rss.slopeMiBPerMinute).toBeLessThan(64);
    expect(report.rss.flat).toBe(true); // the soak's own verdict with --max-slope 64
    expect(report.ok).toBe(true);
  }, 360_000);
});
