import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { freePort } from './free-port';

/** The built standalone server (`npm test` builds first). */
export const STANDALONE_MAIN = path.join(__dirname, '..', '..', 'apps', 'standalone', 'dist', 'main.js');

/**
 * The standalone server as a real child process on a random port, for tests that must kill it (SIGKILL)
 * and start it again on the same data directory.
 */
export class StandaloneProcess {
  private child: ChildProcess | null = null;
  port = 0;

  constructor(
    private readonly dataDir: string,
    private readonly token: string,
    private readonly env: Record<string, string> = {},
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /**
   * Starts the server and waits until `/readyz` answers 200 (30 s at most). The port is one the kernel
   * just gave out; should another process take it before the server binds (EADDRINUSE), the child exits
   * and the start is tried again on a new port.
   */
  async start(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const exitCode = await this.startOnce(await freePort());
      if (exitCode === null) return;
      if (attempt === 3) throw new Error(`server exited with code ${exitCode} before it was ready`);
    }
  }

  /** null once ready; the exit code when the child exited first. */
  private async startOnce(port: number): Promise<number | null> {
    this.port = port;
    const child = spawn(process.execPath, [STANDALONE_MAIN], {
      env: {
        // As the image and `npm start` run it (docs/operations.md, Memory).
        MALLOC_ARENA_MAX: '2',
        MALLOC_MMAP_THRESHOLD_: '33554432',
        ...process.env,
        PORT: String(this.port),
        HOST: '127.0.0.1',
        QUARRY_DATA_DIR: this.dataDir,
        QUARRY_BOOTSTRAP_TOKEN: this.token,
        QUARRY_LOG_LEVEL: 'error',
        ...this.env,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    this.child = child;
    let exited: number | null = null;
    child.once('exit', (code, signal) => (exited = code ?? (signal ? 128 : 1)));
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      if (exited !== null) return exited;
      try {
        if ((await fetch(`${this.url}/readyz`)).status === 200) return null;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('server did not become ready in 30 s');
  }

  /** SIGKILL; resolves once the process has exited. */
  async kill(): Promise<void> {
    const child = this.child;
    if (child === null || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
  }
}
