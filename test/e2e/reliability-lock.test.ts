import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** The built lock (`npm test` builds first): real processes race for it, as two servers would. */
const LOCK_JS = path.join(__dirname, '..', '..', 'libs', 'server', 'dist', 'storage', 'data-dir-lock.js');

/**
 * A child that waits for `startAt` (so every racer calls acquire in the same millisecond), tries the lock,
 * prints `won` or `lost:<reason>`, and holds what it won until its stdin closes.
 */
const RACER = `
const { DataDirLock } = require(${JSON.stringify(LOCK_JS)});
const [dir, startAt] = process.argv.slice(1);
while (Date.now() < Number(startAt)) {}
let lock;
try { lock = DataDirLock.acquire(dir); process.stdout.write('won\\n'); }
catch (err) { process.stdout.write('lost:' + err.message + '\\n'); }
process.stdin.on('data', () => {});
process.stdin.on('end', () => { if (lock) lock.release(); process.exit(0); });
`;

function race(dir: string, racers: number): Promise<string[]> {
  const startAt = Date.now() + 400;
  return Promise.all(
    Array.from({ length: racers }, () => {
      const child = spawn(process.execPath, ['-e', RACER, dir, String(startAt)], {
        stdio: ['pipe', 'pipe', 'inherit'],
      });
      return new Promise<{ line: string; end: () => Promise<void> }>((resolve) => {
        let out = '';
        child.stdout.on('data', (c: Buffer) => {
          out += c.toString();
          if (out.includes('\n'))
            resolve({
              line: out.trim(),
              end: () =>
                new Promise((r) => {
                  child.once('exit', () => r());
                  child.stdin.end();
                }),
            });
        });
      });
    }),
  ).then(async (results) => {
    // Everyone has decided while every winner still holds its lock; then let go.
    await Promise.all(results.map((r) => r.end()));
    return results.map((r) => r.line);
  });
}

describe('data directory lock under races (real processes)', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-lock-race-'));
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('exactly one of four servers starting together wins, 20 times, with and without a stale lock', async () => {
    expect(fs.existsSync(LOCK_JS)).toBe(true);
    const gone = Number(
      spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString(),
    );
    const boot = fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    const tally = { stale: 0, fresh: 0 };
    for (let round = 0; round < 20; round++) {
      const dir = path.join(root, String(round));
      fs.mkdirSync(dir);
      const stale = round % 2 === 0;
      if (stale) fs.writeFileSync(path.join(dir, 'LOCK'), JSON.stringify({ pid: gone, start: 1, boot }));
      const lines = await race(dir, 4);
      const winners = lines.filter((l) => l === 'won');
      const losers = lines.filter((l) => l !== 'won');
      expect({ round, winners: winners.length }).toEqual({ round, winners: 1 });
      for (const l of losers) expect(l).toMatch(/^lost:.*(in use by process \d+|keep racing)/);
      // Released by the winner; no temporary or takeover files left behind.
      expect(fs.readdirSync(dir)).toEqual([]);
      tally[stale ? 'stale' : 'fresh']++;
    }
    expect(tally).toEqual({ stale: 10, fresh: 10 });
  });
});
