/**
 * A single-node Ceph radosgw for tests and the local cluster, started by `native/ceph-rgw-up.sh` (CI runs
 * the same script as `.ci/ceph-rgw-up.sh`). Needs root and the Debian packages radosgw, ceph-mon and
 * ceph-osd; about 20 s to ready.
 *
 * Unlike `S3Fake`, the Ceph daemons are daemons: they do NOT die with the process that started them.
 * Call `stop()` (or run `ceph-rgw-up.sh --stop DIR`, or `kill $(cat DIR/run/*.pid)`).
 * Only one can run per machine with the default monitor ports (3300, 6789); pass others to run more.
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface RadosgwOptions {
  /** Cluster directory; wiped (it must be empty, missing, or an earlier cluster of the script). */
  dir: string;
  /** S3 port on 127.0.0.1. Default 7480. */
  port?: number;
  /** Monitor ports (msgr2, msgr1). Default 3300 and 6789. */
  monPort?: number;
  monV1Port?: number;
  /** Seconds for each start-up step. Default 120. */
  stepTimeoutSeconds?: number;
}

/** The canonical start script (also behind `.ci/ceph-rgw-up.sh`). */
export const CEPH_RGW_UP_SCRIPT = path.join(__dirname, '..', 'native', 'ceph-rgw-up.sh');

export class Radosgw {
  readonly accessKeyId = 'testkey';
  readonly secretAccessKey = 'testsecret';
  readonly region = 'us-east-1';

  private constructor(
    readonly dir: string,
    readonly endpoint: string,
  ) {}

  /** Why `start` cannot work here (not root, packages missing), or null when it may. */
  static unavailableReason(): string | null {
    if (typeof process.getuid === 'function' && process.getuid() !== 0) return 'needs root';
    const found = (bin: string) =>
      (process.env.PATH ?? '')
        .split(path.delimiter)
        .some((d) => d !== '' && fs.existsSync(path.join(d, bin)));
    const missing = ['radosgw', 'ceph-mon', 'ceph-osd', 'curl'].filter((b) => !found(b));
    return missing.length > 0 ? `missing ${missing.join(', ')}` : null;
  }

  /** Runs the script; resolves once S3 works (the script does a put/get round trip). */
  static async start(options: RadosgwOptions): Promise<Radosgw> {
    const dir = path.resolve(options.dir);
    const port = options.port ?? 7480;
    const env = {
      ...process.env,
      ...(options.monPort ? { CEPH_MON_PORT: String(options.monPort) } : {}),
      ...(options.monV1Port ? { CEPH_MON_V1_PORT: String(options.monV1Port) } : {}),
      ...(options.stepTimeoutSeconds ? { CEPH_UP_TIMEOUT: String(options.stepTimeoutSeconds) } : {}),
    };
    await run(['bash', CEPH_RGW_UP_SCRIPT, dir, String(port)], env);
    return new Radosgw(dir, `http://127.0.0.1:${port}`);
  }

  /** Stops the daemons and waits for them to exit. Idempotent. */
  async stop(): Promise<void> {
    await run(['bash', CEPH_RGW_UP_SCRIPT, '--stop', this.dir], process.env);
  }

  /** The variables the script wrote to `<dir>/env` (endpoint and keys), for child processes. */
  env(): Record<string, string> {
    return {
      QUARRY_TEST_S3_ENDPOINT: this.endpoint,
      AWS_ACCESS_KEY_ID: this.accessKeyId,
      AWS_SECRET_ACCESS_KEY: this.secretAccessKey,
      AWS_REGION: this.region,
    };
  }
}

function run([cmd, ...args]: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { env, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) {
        const tail = `${stdout}\n${stderr}`.trim().split('\n').slice(-80).join('\n');
        reject(
          new Error(
            `${path.basename(args[0] ?? cmd)} ${args.slice(1).join(' ')} failed: ${err.message}\n${tail}`,
          ),
        );
      } else resolve(stdout);
    });
  });
}
