import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { DataDirLock } from './data-dir-lock';

describe('DataDirLock', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-lock-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('refuses a directory locked by a running process', () => {
    // pid 1 always runs
    fs.writeFileSync(path.join(dir, 'LOCK'), '1\n');
    expect(() => DataDirLock.acquire(dir)).toThrow(/in use by process 1/);
  });

  it('takes over a lock left by a process that is gone, and releases it', () => {
    const gone = spawnSync(process.execPath, [
      '-e',
      'process.stdout.write(String(process.pid))',
    ]).stdout.toString();
    fs.writeFileSync(path.join(dir, 'LOCK'), `${gone}\n`);
    const lock = DataDirLock.acquire(dir);
    expect(fs.readFileSync(path.join(dir, 'LOCK'), 'utf8').trim()).toBe(String(process.pid));
    lock.release();
    expect(fs.existsSync(path.join(dir, 'LOCK'))).toBe(false);
  });
});
