import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { unavailable } from '@quarry/common';

/**
 * One process per data directory: a second process on the same log segments and PGlite files would
 * corrupt both.
 *
 * The `LOCK` file names its holder by pid, the process's start time (clock ticks since boot, field 22 of
 * `/proc/<pid>/stat`) and the kernel's boot id. A lock is held only while that exact process runs: a pid
 * that is gone, a zombie (state Z/X: killed but not reaped, its files already closed), a pid reused by an
 * unrelated process (other start time) and a lock from a previous boot are all stale and taken over. This
 * is PostgreSQL's postmaster.pid check made exact by the start time, so a hard kill never needs a
 * hand-removed lock (issue 17).
 *
 * Races (two servers starting on one directory):
 * - a lock is created complete and at once: written to a private file, then `link`ed to `LOCK`, which
 *   fails with EEXIST if a lock exists (no reader ever sees an empty or half-written lock);
 * - a stale lock is broken by one process at a time: the breaker first `link`s `LOCK.takeover` (exclusive;
 *   its content names the breaker, so a breaker that died is itself detected), checks that `LOCK` is still
 *   the inode it judged stale, and `rename`s its own lock over it (atomic: `LOCK` never disappears, so no
 *   third process can slip in between). After a short settle it checks `LOCK` is still its own.
 *
 * Limits: pids and boot ids are per pid namespace and per host, so two containers with separate pid
 * namespaces sharing one volume are not told apart (give each its own volume). On systems without `/proc`
 * the start time is unknown and a live pid is trusted (the old behaviour).
 */
/** Lock files this process holds (a second runtime in the same process must not take them over). */
const heldHere = new Set<string>();

export class DataDirLock {
  private constructor(
    private readonly file: string,
    private readonly ino: number,
  ) {}

  static acquire(dataDir: string): DataDirLock {
    const file = path.join(dataDir, 'LOCK');
    const mine = identity(process.pid);
    const tmp = path.join(dataDir, `LOCK.${process.pid}.${crypto.randomBytes(6).toString('hex')}`);
    try {
      for (let attempt = 0; attempt < 50; attempt++) {
        // (Re)written each round: a lost takeover race renamed it onto LOCK, where another replaced it.
        if (!fs.existsSync(tmp)) writeDurably(tmp, `${JSON.stringify(mine)}\n`);
        const ino = tryAcquire(dataDir, file, tmp);
        if (ino !== undefined) {
          heldHere.add(file);
          return new DataDirLock(file, ino);
        }
        sleepSync(10 + Math.floor(Math.random() * 20));
      }
    } finally {
      fs.rmSync(tmp, { force: true });
    }
    throw unavailable(`could not lock data directory ${dataDir}: other processes keep racing for it`, {
      code: 'data_dir_locked',
    });
  }

  release(): void {
    heldHere.delete(this.file);
    // Only our own lock: never remove one another process took over (it would have been judged stale).
    try {
      if (fs.statSync(this.file).ino === this.ino) fs.rmSync(this.file, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }

  /** Whether a lock file's holder is a live process (exported for tests and diagnostics). */
  static holderAlive(owner: LockHolder | null, lockMtimeMs: number, file?: string): boolean {
    return holderAlive(owner, lockMtimeMs, file);
  }
}

/** What a lock file says about its holder. */
export interface LockHolder {
  pid: number;
  /** Start time in clock ticks since boot (`/proc/<pid>/stat` field 22); null where `/proc` is missing. */
  start: number | null;
  /** `/proc/sys/kernel/random/boot_id`; null where missing. */
  boot: string | null;
}

/** Returns the new lock's inode if we now hold the lock; undefined to retry; throws if a live process holds it. */
function tryAcquire(dataDir: string, file: string, tmp: string): number | undefined {
  try {
    fs.linkSync(tmp, file);
    return fs.statSync(tmp).ino;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const current = readLock(file);
  if (current === null) return undefined; // released meanwhile
  if (holderAlive(current.holder, current.mtimeMs, file)) {
    throw unavailable(
      `data directory ${dataDir} is in use by process ${current.holder?.pid ?? '?'}; stop it or set QUARRY_DATA_DIR to another directory`,
      { code: 'data_dir_locked' },
    );
  }
  return takeOver(file, tmp, current.ino);
}

/** Replaces the stale lock `staleIno` by ours, one breaker at a time. */
function takeOver(file: string, tmp: string, staleIno: number): number | undefined {
  const marker = `${file}.takeover`;
  const ours = fs.statSync(tmp).ino;
  try {
    fs.linkSync(tmp, marker);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    const other = readLock(marker);
    // A breaker that died mid-takeover leaves its marker: move it aside (rename is atomic, so only one
    // process removes it), then everyone retries.
    if (other !== null && !holderAlive(other.holder, other.mtimeMs)) removeIfSame(marker, other.ino);
    return undefined;
  }
  try {
    let ino: number;
    try {
      ino = fs.statSync(file).ino;
    } catch {
      return undefined; // released meanwhile: retry the plain create
    }
    if (ino !== staleIno) return undefined; // someone else's lock now: judge it afresh
    fs.renameSync(tmp, file);
    fsyncDir(path.dirname(file));
    const mineIno = fs.statSync(file).ino;
    // Settle, then make sure no breaker that judged the same stale lock replaced ours after us.
    sleepSync(20);
    return fs.statSync(file).ino === mineIno ? mineIno : undefined;
  } finally {
    // The marker is a second name of our own lock file; no one else removes a live breaker's marker.
    if (fs.statSync(marker, { throwIfNoEntry: false })?.ino === ours) fs.rmSync(marker, { force: true });
  }
}

function removeIfSame(file: string, ino: number): void {
  const aside = `${file}.${crypto.randomBytes(6).toString('hex')}.dead`;
  try {
    fs.renameSync(file, aside);
  } catch {
    return;
  }
  const moved = fs.statSync(aside).ino;
  if (moved !== ino) {
    // We moved a newer file than we judged: put it back unless someone made a new one meanwhile.
    try {
      fs.linkSync(aside, file);
    } catch {
      // a newer one exists; ours was superseded
    }
  }
  fs.rmSync(aside, { force: true });
}

function readLock(file: string): { holder: LockHolder | null; ino: number; mtimeMs: number } | null {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  try {
    const st = fs.fstatSync(fd);
    const text = fs.readFileSync(fd, 'utf8');
    return { holder: parseHolder(text), ino: st.ino, mtimeMs: st.mtimeMs };
  } finally {
    fs.closeSync(fd);
  }
}

/** Parses `{"pid":…,"start":…,"boot":…}` or the older format, a bare pid. */
export function parseHolder(text: string): LockHolder | null {
  const trimmed = text.trim();
  if (/^\d+$/.test(trimmed)) return { pid: Number(trimmed), start: null, boot: null };
  try {
    const parsed = JSON.parse(trimmed) as Partial<LockHolder>;
    if (typeof parsed.pid !== 'number' || !Number.isSafeInteger(parsed.pid) || parsed.pid <= 0) return null;
    return {
      pid: parsed.pid,
      start: typeof parsed.start === 'number' ? parsed.start : null,
      boot: typeof parsed.boot === 'string' ? parsed.boot : null,
    };
  } catch {
    return null; // garbage: no process can be holding it
  }
}

function holderAlive(owner: LockHolder | null, lockMtimeMs: number, file?: string): boolean {
  if (owner === null) return false;
  const boot = bootId();
  if (owner.boot !== null && boot !== null && owner.boot !== boot) return false; // previous boot
  if (owner.pid === process.pid) {
    const me = identity(process.pid);
    // A previous process that had our pid (a container's pid 1 after a restart) is not us.
    if (owner.start !== null && owner.start !== me.start) return false;
    // Ours: held only if a lock object of this process still holds it.
    return file !== undefined && heldHere.has(file);
  }
  const proc = procStat(owner.pid);
  if (proc === undefined) return pidRunning(owner.pid); // no /proc: trust a live pid
  // Not in /proc, yet signalable: hidden from us (hidepid, another pid namespace). Keep it, the safe side.
  if (proc === null) return pidRunning(owner.pid);
  if (proc.state === 'Z' || proc.state === 'X') return false; // dead, not yet reaped
  if (owner.start !== null) return proc.start === owner.start;
  // Old-format lock (a bare pid): a process that started after the lock was written did not write it.
  const started = bootTimeMs() + (proc.start * 1000) / CLOCK_TICKS;
  return started <= lockMtimeMs + 1000;
}

function identity(pid: number): LockHolder {
  const proc = procStat(pid);
  return { pid, start: proc ? proc.start : null, boot: bootId() };
}

/** Clock ticks per second (USER_HZ): 100 on every Linux architecture Node supports. */
const CLOCK_TICKS = 100;

/** `undefined` when /proc is not available at all; `null` when the process does not exist. */
export function procStat(pid: number): { state: string; start: number } | null | undefined {
  let text: string;
  try {
    text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ESRCH') return fs.existsSync('/proc/self/stat') ? null : undefined;
    return undefined;
  }
  // The command name (field 2) is in parentheses and may itself contain spaces and parentheses.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { state: fields[0], start: Number(fields[19]) };
}

let cachedBootId: string | null | undefined;
function bootId(): string | null {
  if (cachedBootId === undefined) {
    try {
      cachedBootId = fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    } catch {
      cachedBootId = null;
    }
  }
  return cachedBootId;
}

function bootTimeMs(): number {
  try {
    const line = fs
      .readFileSync('/proc/stat', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('btime '));
    if (line) return Number(line.slice(6)) * 1000;
  } catch {
    // fall through
  }
  return 0; // unknown: every process counts as started before the lock (kept, the safe side)
}

function pidRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function writeDurably(file: string, text: string): void {
  const fd = fs.openSync(file, 'wx');
  try {
    fs.writeSync(fd, text);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

function fsyncDir(dir: string): void {
  const fd = fs.openSync(dir, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
