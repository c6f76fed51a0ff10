import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { DataDirLock, procStat } from './data-dir-lock';

const bootId = fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();

/** Reads a child's first stdout line (a pid it printed). */
function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const nl = text.indexOf('\n');
      if (nl >= 0) resolve(text.slice(0, nl).trim());
    });
    child.once('exit', () => reject(new Error(`child exited before printing a line: ${text}`)));
  });
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(check()).toBe(true);
}

describe('DataDirLock', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-lock-'));
  const children: ChildProcess[] = [];
  let n = 0;
  const freshDir = () => {
    const dir = path.join(root, String(n++));
    fs.mkdirSync(dir);
    return dir;
  };
  const writeLock = (dir: string, content: unknown) =>
    fs.writeFileSync(
      path.join(dir, 'LOCK'),
      typeof content === 'string' ? content : `${JSON.stringify(content)}\n`,
    );
  const lockText = (dir: string) => JSON.parse(fs.readFileSync(path.join(dir, 'LOCK'), 'utf8'));
  const me = () => ({ pid: process.pid, start: procStat(process.pid)!.start, boot: bootId });

  /** A live process that is not us (a `sleep`). */
  const sleeper = () => {
    const child = spawn('sleep', ['60'], { stdio: 'ignore' });
    children.push(child);
    return child.pid!;
  };

  afterAll(() => {
    for (const child of children) child.kill('SIGKILL');
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('writes pid, start time and boot id, and releases', () => {
    const dir = freshDir();
    const lock = DataDirLock.acquire(dir);
    expect(lockText(dir)).toEqual(me());
    expect(fs.readdirSync(dir)).toEqual(['LOCK']); // no temporary files left behind
    lock.release();
    expect(fs.existsSync(path.join(dir, 'LOCK'))).toBe(false);
  });

  it('refuses a directory locked by a live process (same pid, same start time, same boot)', () => {
    const dir = freshDir();
    const pid = sleeper();
    writeLock(dir, { pid, start: procStat(pid)!.start, boot: bootId });
    expect(() => DataDirLock.acquire(dir)).toThrow(new RegExp(`in use by process ${pid}`));
  });

  it('takes over a lock naming a zombie (killed, never reaped: kill(pid, 0) still succeeds)', async () => {
    const dir = freshDir();
    // `sleep 0.3 &` forks a child that exits shortly after `exec sleep` replaced its parent by a program
    // that never waits, so the exited child stays a zombie until the parent ends. (A child that exits
    // before the exec may be reaped by the shell itself, hence the short sleep rather than `true`.)
    const parent = spawn('sh', ['-c', 'sleep 0.3 & echo $!; exec sleep 60'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    children.push(parent);
    const zombie = Number(await firstLine(parent));
    await until(() => procStat(zombie)?.state === 'Z');
    expect(() => process.kill(zombie, 0)).not.toThrow(); // what the old lock trusted
    writeLock(dir, { pid: zombie, start: procStat(zombie)!.start, boot: bootId });
    const lock = DataDirLock.acquire(dir);
    expect(lockText(dir)).toEqual(me());
    lock.release();
  });

  it('takes over a lock whose pid now belongs to an unrelated process (other start time)', () => {
    const dir = freshDir();
    const pid = sleeper();
    writeLock(dir, { pid, start: procStat(pid)!.start - 1, boot: bootId });
    DataDirLock.acquire(dir).release();
  });

  it('takes over a lock naming this process from an earlier life (a container restart as pid 1)', () => {
    const dir = freshDir();
    writeLock(dir, { pid: process.pid, start: me().start - 100, boot: bootId });
    DataDirLock.acquire(dir).release();
  });

  it('takes over a lock naming this very process when nothing in it holds the lock', () => {
    const dir = freshDir();
    writeLock(dir, me());
    DataDirLock.acquire(dir).release();
  });

  it('refuses a second lock of the same directory within one process', () => {
    const dir = freshDir();
    const lock = DataDirLock.acquire(dir);
    expect(() => DataDirLock.acquire(dir)).toThrow(new RegExp(`in use by process ${process.pid}`));
    lock.release();
    DataDirLock.acquire(dir).release();
  });

  it('takes over a lock from a previous boot, even if its pid and start time match a live process', () => {
    const dir = freshDir();
    const pid = sleeper();
    writeLock(dir, { pid, start: procStat(pid)!.start, boot: '00000000-0000-0000-0000-000000000000' });
    DataDirLock.acquire(dir).release();
  });

  it('takes over a lock left by a process that is gone', () => {
    const dir = freshDir();
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout;
    writeLock(dir, `${gone.toString()}\n`);
    DataDirLock.acquire(dir).release();
  });

  it('old-format locks (a bare pid): kept for a process older than the lock, taken over from a younger one', () => {
    const dir = freshDir();
    writeLock(dir, '1\n'); // init started long before this lock was written
    expect(() => DataDirLock.acquire(dir)).toThrow(/in use by process 1/);
    const pid = sleeper();
    writeLock(dir, `${pid}\n`);
    const past = new Date(Date.now() - 3_600_000);
    fs.utimesSync(path.join(dir, 'LOCK'), past, past); // written an hour before the sleep started
    DataDirLock.acquire(dir).release();
  });

  it('takes over an unreadable lock and a takeover marker left by a breaker that died', () => {
    const dir = freshDir();
    writeLock(dir, 'garbage');
    const gone = Number(
      spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString(),
    );
    fs.writeFileSync(path.join(dir, 'LOCK.takeover'), JSON.stringify({ pid: gone, start: 1, boot: bootId }));
    const lock = DataDirLock.acquire(dir);
    expect(lockText(dir)).toEqual(me());
    expect(fs.readdirSync(dir)).toEqual(['LOCK']);
    lock.release();
  });

  it('never removes the takeover marker of a live breaker (it gives up instead of breaking the lock too)', () => {
    const dir = freshDir();
    const pid = sleeper();
    writeLock(dir, { pid: 999_999_999, start: 1, boot: bootId }); // stale
    const marker = JSON.stringify({ pid, start: procStat(pid)!.start, boot: bootId });
    fs.writeFileSync(path.join(dir, 'LOCK.takeover'), marker); // a live breaker is at work
    expect(() => DataDirLock.acquire(dir)).toThrow(/keep racing/);
    expect(fs.readFileSync(path.join(dir, 'LOCK.takeover'), 'utf8')).toBe(marker);
  });
});
