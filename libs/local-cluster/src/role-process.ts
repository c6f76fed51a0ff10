import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { freePort, waitForOk } from './ports';

/** The repository root (this file is `libs/local-cluster/{src,dist}/role-process.*`). */
export const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');

export type ClusterRole = 'ingest' | 'query' | 'compactor' | 'management' | 'gateway';

export interface RoleProcessOptions {
  role: ClusterRole;
  /** `ingest-1`, ...: the node id and the name of its directory. */
  name: string;
  /** Per-process directory (its QUARRY_DATA_DIR and its log file). */
  dir: string;
  env: Record<string, string>;
  /** Port to listen on (kept across restarts); a free one when unset. */
  port?: number;
  /** Copy the process's output to this stream as well as to its log file. */
  echo?: NodeJS.WritableStream;
}

/**
 * One role of the local cluster as a child process: `node apps/<role>/dist/main.js` with its own port and
 * data directory, its output in `<dir>/<role>.log`. It is spawned with an IPC channel: the role exits
 * when the channel closes, which the OS does when this (parent) process dies for any reason, so a killed
 * launcher or test run leaves no role process behind.
 */
export class RoleProcess {
  private child: ChildProcess | null = null;
  port = 0;
  /** Exit codes/signals of earlier runs, newest last (for tests and error messages). */
  readonly exits: string[] = [];

  constructor(readonly options: RoleProcessOptions) {}

  get role(): ClusterRole {
    return this.options.role;
  }

  get name(): string {
    return this.options.name;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get running(): boolean {
    return this.child !== null && this.child.exitCode === null && this.child.signalCode === null;
  }

  get logFile(): string {
    return path.join(this.options.dir, `${this.options.role}.log`);
  }

  /** Spawns the process (not waiting for it to be ready). */
  async spawn(): Promise<void> {
    if (this.running) return;
    this.port ||= this.options.port ?? (await freePort());
    fs.mkdirSync(this.options.dir, { recursive: true });
    const out = fs.openSync(this.logFile, 'a');
    const main = path.join(REPO_ROOT, 'apps', this.options.role, 'dist', 'main.js');
    const child = spawn(process.execPath, ['--initial-old-space-size=128', main], {
      cwd: REPO_ROOT,
      env: {
        // Bounds glibc's per-thread arenas and returns large blocks when freed, as the image does
        // (docs/operations.md, Memory).
        MALLOC_ARENA_MAX: '2',
        MALLOC_MMAP_THRESHOLD_: '33554432',
        ...process.env,
        ...this.options.env,
        PORT: String(this.port),
        HOST: '127.0.0.1',
        QUARRY_DATA_DIR: this.options.dir,
        QUARRY_NODE_ID: this.options.name,
        QUARRY_ADVERTISE_URL: this.url,
      },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    fs.closeSync(out);
    const log = fs.createWriteStream(this.logFile, { flags: 'a' });
    for (const stream of [child.stdout!, child.stderr!]) {
      stream.on('data', (chunk: Buffer) => {
        log.write(chunk);
        this.options.echo?.write(prefixLines(this.options.name, chunk));
      });
    }
    child.once('exit', (code, signal) => {
      this.exits.push(signal ?? `exit ${code}`);
      log.end();
    });
    // The IPC channel must not keep this process alive on its own.
    child.unref();
    child.channel?.unref();
    this.child = child;
  }

  /** Waits until `/readyz` answers 200. */
  async waitReady(timeoutMs = 60_000): Promise<void> {
    try {
      await waitForOk(`${this.url}/readyz`, timeoutMs, () => this.running);
    } catch (err) {
      throw new Error(
        `${this.name}: ${(err as Error).message}\n--- ${this.logFile} (last lines) ---\n${this.tail(30)}`,
      );
    }
  }

  async start(timeoutMs?: number): Promise<void> {
    await this.spawn();
    await this.waitReady(timeoutMs);
  }

  /** Sends `signal` and waits until the process has exited (SIGKILL after `graceMs` for other signals). */
  async stop(signal: NodeJS.Signals = 'SIGTERM', graceMs = 15_000): Promise<void> {
    const child = this.child;
    if (child === null || !this.running) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill(signal);
    if (signal !== 'SIGKILL') {
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    } else await exited;
  }

  kill(): Promise<void> {
    return this.stop('SIGKILL');
  }

  /** Freezes the process (SIGSTOP): it holds its sockets but answers nothing, like a node stuck in GC. */
  pause(): void {
    if (this.running) this.child!.kill('SIGSTOP');
  }

  /** Lets a paused process run again (SIGCONT). */
  resume(): void {
    if (this.running) this.child!.kill('SIGCONT');
  }

  /** The last `lines` lines of the process's log file. */
  tail(lines: number): string {
    try {
      return fs
        .readFileSync(this.logFile, 'utf8')
        .split('\n')
        .slice(-lines - 1)
        .join('\n');
    } catch {
      return '(no log)';
    }
  }
}

function prefixLines(name: string, chunk: Buffer): string {
  return chunk
    .toString('utf8')
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => `[${name}] ${line}\n`)
    .join('');
}
