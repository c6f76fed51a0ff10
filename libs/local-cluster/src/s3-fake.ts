/**
 * An S3 fake for the local dev cluster and for tests: s3rver 3.7.1 in a CHILD process.
 *
 * Why a child: s3rver's ListObjectsV2 continuation tokens are DES-encrypted, which OpenSSL 3 refuses unless
 * node runs with `--openssl-legacy-provider`; that flag must not leak into the caller's process. The child
 * is `node --openssl-legacy-provider -e <launcher>`, bound to 127.0.0.1 only, silent, and accepts the
 * credentials `S3RVER`/`S3RVER`. s3rver checks the signature of a signed request (wrong keys get
 * InvalidAccessKeyId or SignatureDoesNotMatch) but also serves unsigned requests.
 *
 * The launcher fixes three things in s3rver's file-system store, so the fake behaves like S3 where Quarry
 * depends on it (see `LAUNCHER`):
 * - listing walks directories in key order. s3rver walks them in file-name order, where `a` (stored as
 *   `a._S3rver_object`) sorts after `a-b`, and a directory `d/` before `d+z`, but it pages with "keys after
 *   the last one returned": a listing longer than one page lost keys (seen: 5 keys, pages of 1, 2 lost);
 * - listing skips files deleted while it walks, instead of failing with 500;
 * - a put writes a temporary file and renames it over the object, and a get reads the file it opened
 *   (size included), so a reader never sees half an object or a mix of two;
 * - any range of an empty object is answered 416 (s3rver answered `bytes 0-0/0` with a 1-byte length and
 *   no body, which hangs the client until its socket timeout).
 * Known differences that remain: no conditional PUT (`If-None-Match: *` overwrites), suffix ranges
 * (`bytes=-N`) are read as `bytes=0-N`, and ListMultipartUploads is not implemented (the `minio` client's
 * multipart uploads fail; the AWS SDK's work).
 *
 * Lifetime: the child has an IPC channel to its parent and exits when that channel closes, which the OS
 * does when the parent dies for any reason (even SIGKILL), so a crashed test run leaves no fake behind.
 * The handle does not keep the parent's event loop alive once started; call `stop()` when done.
 * `stop()` then `restart()` brings it back on the same port and directory (objects survive), which is how
 * tests simulate "S3 is down".
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';

export interface S3FakeOptions {
  /** Data directory (created if missing). Objects live in `<dir>/<bucket>/...`. */
  dir: string;
  /** TCP port on 127.0.0.1; a random free one when unset. */
  port?: number;
  /** Buckets to create at start (existing ones are kept). */
  buckets?: string[];
  /** How long to wait for the fake to answer (ms). Default 20000. */
  startTimeoutMs?: number;
}

export interface S3FakeHandle {
  /** `http://127.0.0.1:<port>`; use path-style addressing (`forcePathStyle: true`). */
  readonly endpoint: string;
  readonly port: number;
  readonly dir: string;
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly region: string;
  /** True between a successful start and `stop()` (or the child dying). */
  readonly running: boolean;
  /** Stops the child (SIGTERM, SIGKILL after 3 s). Idempotent. Objects stay in `dir`. */
  stop(): Promise<void>;
  /** Starts it again on the same port and directory (stopping it first if it runs). */
  restart(): Promise<void>;
}

export const S3_FAKE_ACCESS_KEY_ID = 'S3RVER';
export const S3_FAKE_SECRET_ACCESS_KEY = 'S3RVER';

/**
 * Runs in the child. Configuration comes in the QUARRY_S3FAKE environment variable (JSON); it reports
 * `{ port }` over IPC once listening.
 */
const LAUNCHER = String.raw`
'use strict';
const cfg = JSON.parse(process.env.QUARRY_S3FAKE);
const fs = require('fs');
const path = require('path');
const crypto = require('crypto');
const { Transform } = require('stream');
const { pipeline } = require('stream/promises');
process.on('disconnect', () => process.exit(0));
const fail = (err) => { process.stderr.write('s3-fake: ' + (err && err.stack || err) + '\n'); process.exit(1); };
process.on('uncaughtException', fail);
try {
  const utils = require(path.join(cfg.s3rverDir, 'lib', 'utils.js'));
  const objectSuffix = /\._S3rver_[a-z0-9.]+$/;
  const sortName = (e) => (e.isDirectory() ? e.name + '/' : e.name.replace(objectSuffix, ''));
  utils.walk = function* walk(dir, recurseFilter) {
    let entries;
    try { entries = fs.readdirSync(dir, { withFileTypes: true }); }
    catch (err) { if (err.code === 'ENOENT' || err.code === 'ENOTDIR') return; throw err; }
    entries.sort((a, b) => { const x = sortName(a), y = sortName(b); return x < y ? -1 : x > y ? 1 : a.name < b.name ? -1 : 1; });
    for (const e of entries) {
      const p = path.posix.join(dir, e.name);
      if (!e.isDirectory()) yield p;
      else if (!recurseFilter || recurseFilter(p)) yield* walk(p, recurseFilter);
    }
  };
  const FilesystemStore = require(path.join(cfg.s3rverDir, 'lib', 'stores', 'filesystem.js'));
  FilesystemStore.prototype.putObject = async function (object) {
    const target = this.getResourcePath(object.bucket, object.key, 'object');
    // Not ending in "._S3rver_object", so listings never show it.
    const tmp = target + '.s3fake-tmp-' + crypto.randomBytes(6).toString('hex');
    await fs.promises.mkdir(path.dirname(target), { recursive: true });
    const md5 = crypto.createHash('md5');
    let size = 0;
    try {
      if (Buffer.isBuffer(object.content)) {
        md5.update(object.content);
        size = object.content.length;
        await fs.promises.writeFile(tmp, object.content);
      } else {
        const count = new Transform({ transform(chunk, enc, cb) { md5.update(chunk); size += chunk.length; cb(null, chunk); } });
        await pipeline(object.content, count, fs.createWriteStream(tmp));
      }
      const digest = md5.digest('hex');
      await this.putMetadata(object.bucket, object.key, object.metadata, digest);
      await fs.promises.rename(tmp, target);
      return { size, md5: digest };
    } catch (err) {
      await fs.promises.unlink(tmp).catch(() => undefined);
      throw err;
    }
  };
  const S3Object = require(path.join(cfg.s3rverDir, 'lib', 'models', 'object.js'));
  FilesystemStore.prototype.getObject = async function (bucket, key, options) {
    let handle;
    try {
      handle = await fs.promises.open(this.getResourcePath(bucket, key, 'object'), 'r');
    } catch (err) {
      if (err.code === 'ENOENT' || err.code === 'ENOTDIR' || err.code === 'EISDIR') return null;
      throw err;
    }
    try {
      // Size from the open file, so a concurrent overwrite (a rename) cannot mix two versions.
      const stat = await handle.stat();
      const stored = await this.getMetadata(bucket, key).catch(() => ({}));
      const metadata = { ...stored, 'content-length': stat.size, 'last-modified': stat.mtime.toUTCString() };
      const ranged = options && (options.start !== undefined || options.end !== undefined);
      const range = ranged
        ? { start: options.start || 0, end: Math.min(options.end === undefined ? Infinity : options.end, stat.size - 1) }
        : undefined;
      if (range && !(range.start >= 0 && range.end >= range.start)) {
        // Not satisfiable, including any range of an empty object (as S3 answers).
        await handle.close();
        const object = new S3Object(bucket, key, null, metadata);
        object.range = range;
        return object;
      }
      const content = fs.createReadStream(null, { fd: handle, start: range ? range.start : 0, end: range ? range.end : undefined });
      const object = new S3Object(bucket, key, content, metadata);
      if (range) object.range = range;
      return object;
    } catch (err) {
      await handle.close().catch(() => undefined);
      throw err;
    }
  };
  const S3rver = require(cfg.s3rverDir);
  const server = new S3rver({
    address: '127.0.0.1',
    port: cfg.port,
    directory: cfg.dir,
    silent: true,
    configureBuckets: cfg.buckets.map((name) => ({ name, configs: [] })),
  });
  server.run().then((addr) => process.send({ port: addr.port }), fail);
  process.on('SIGTERM', () => process.exit(0));
} catch (err) { fail(err); }
`;

export class S3Fake implements S3FakeHandle {
  readonly accessKeyId = S3_FAKE_ACCESS_KEY_ID;
  readonly secretAccessKey = S3_FAKE_SECRET_ACCESS_KEY;
  readonly region = 'us-east-1';
  private child: ChildProcess | null = null;
  private exited: Promise<void> = Promise.resolve();
  private stderrTail: string[] = [];

  private constructor(
    readonly dir: string,
    private currentPort: number,
    private readonly buckets: string[],
    private readonly startTimeoutMs: number,
  ) {}

  /** Starts s3rver and resolves once it answers HTTP. */
  static async start(options: S3FakeOptions): Promise<S3Fake> {
    const dir = path.resolve(options.dir);
    fs.mkdirSync(dir, { recursive: true });
    const fake = new S3Fake(dir, options.port ?? 0, options.buckets ?? [], options.startTimeoutMs ?? 20_000);
    await fake.launch();
    return fake;
  }

  get port(): number {
    return this.currentPort;
  }

  get endpoint(): string {
    return `http://127.0.0.1:${this.currentPort}`;
  }

  get running(): boolean {
    return this.child !== null;
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (child === null) return this.exited;
    this.child = null;
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 3000);
      await this.exited;
      clearTimeout(killer);
    }
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.launch();
  }

  private async launch(): Promise<void> {
    const s3rverDir = path.dirname(require.resolve('s3rver/package.json'));
    this.stderrTail = [];
    const child = spawn(process.execPath, ['--openssl-legacy-provider', '-e', LAUNCHER], {
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      env: {
        ...process.env,
        NODE_OPTIONS: '',
        QUARRY_S3FAKE: JSON.stringify({
          s3rverDir,
          dir: this.dir,
          port: this.currentPort,
          buckets: this.buckets,
        }),
      },
    });
    this.child = child;
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => {
      this.stderrTail.push(...chunk.split('\n').filter((l) => l.length > 0));
      this.stderrTail.splice(0, Math.max(0, this.stderrTail.length - 30));
    });
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    void this.exited.then(() => {
      if (this.child === child) this.child = null;
    });

    const why = (msg: string) =>
      new Error(
        `s3-fake (s3rver) on 127.0.0.1:${this.currentPort || '<random>'} in ${this.dir}: ${msg}` +
          (this.stderrTail.length > 0 ? `\n${this.stderrTail.join('\n')}` : ''),
      );
    try {
      const port = await new Promise<number>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(why(`no answer within ${this.startTimeoutMs} ms`)),
          this.startTimeoutMs,
        );
        child.once('message', (msg: { port?: number }) => {
          clearTimeout(timer);
          if (typeof msg?.port === 'number') resolve(msg.port);
          else reject(why(`unexpected message ${JSON.stringify(msg)}`));
        });
        child.once('exit', (code, signal) => {
          clearTimeout(timer);
          // Let the stderr pipe drain so the message carries the child's last words.
          setTimeout(() => reject(why(`exited during start (code ${code}, signal ${signal})`)), 50);
        });
      });
      this.currentPort = port;
      await waitForHttp(port, this.startTimeoutMs);
    } catch (err) {
      await this.stop();
      throw err;
    }
    // From here on the fake must not keep the parent alive; the parent's death ends it (IPC disconnect).
    child.unref();
    child.channel?.unref();
    (child.stderr as unknown as { unref?: () => void }).unref?.();
  }
}

/** Resolves once anything answers HTTP on the port. */
async function waitForHttp(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const req = http.get({ host: '127.0.0.1', port, path: '/', timeout: 1000 }, (res) => {
        res.resume();
        resolve(true);
      });
      req.on('timeout', () => req.destroy());
      req.on('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`s3-fake on 127.0.0.1:${port} does not answer HTTP`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
