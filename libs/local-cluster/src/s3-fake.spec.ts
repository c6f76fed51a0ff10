import { spawn } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import * as ts from 'typescript';
import { S3Fake } from './s3-fake';

jest.setTimeout(60_000);

const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

async function eventually(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return check();
}

/** Unsigned requests: s3rver serves them, which keeps this spec free of an S3 client. */
async function req(fake: S3Fake, method: string, p: string, body?: string) {
  const res = await fetch(fake.endpoint + p, { method, body });
  return { status: res.status, text: await res.text(), headers: res.headers };
}

describe('S3Fake', () => {
  let root: string;
  const fakes: S3Fake[] = [];
  const start = async (extra: { port?: number; buckets?: string[] } = {}) => {
    const fake = await S3Fake.start({ dir: path.join(root, `data-${fakes.length}`), ...extra });
    fakes.push(fake);
    return fake;
  };
  beforeEach(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'quarry-s3fake-'));
  });
  afterEach(async () => {
    for (const f of fakes.splice(0)) await f.stop();
    await fs.rm(root, { recursive: true, force: true });
  });

  it('starts on a random free port with the configured buckets, and serves objects', async () => {
    const fake = await start({ buckets: ['quarry-a', 'quarry-b'] });
    expect(fake.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(fake.port).toBeGreaterThan(0);
    expect(fake.running).toBe(true);
    expect({ id: fake.accessKeyId, secret: fake.secretAccessKey }).toEqual({
      id: 'S3RVER',
      secret: 'S3RVER',
    });
    const buckets = await req(fake, 'GET', '/');
    expect(buckets.text).toContain('<Name>quarry-a</Name>');
    expect(buckets.text).toContain('<Name>quarry-b</Name>');
    expect((await req(fake, 'PUT', '/quarry-a/dir/with%20space', 'hello')).status).toBe(200);
    expect((await req(fake, 'GET', '/quarry-a/dir/with%20space')).text).toBe('hello');
  });

  it('stops, and restarts on the same port with its objects', async () => {
    const fake = await start({ buckets: ['quarry-r'] });
    await req(fake, 'PUT', '/quarry-r/k', 'kept');
    const port = fake.port;
    await fake.stop();
    expect(fake.running).toBe(false);
    expect(await listening(port)).toBe(false);
    await fake.stop(); // idempotent
    await fake.restart();
    expect(fake.port).toBe(port);
    expect(fake.running).toBe(true);
    expect((await req(fake, 'GET', '/quarry-r/k')).text).toBe('kept');
    await fake.restart(); // while running
    expect((await req(fake, 'GET', '/quarry-r/k')).text).toBe('kept');
  });

  it('takes a fixed port, and explains a port in use', async () => {
    const first = await start();
    await expect(
      S3Fake.start({ dir: path.join(root, 'other'), port: first.port, startTimeoutMs: 5000 }),
    ).rejects.toThrow(/EADDRINUSE|exited during start/);
  });

  it('pages listings in key order (patched s3rver)', async () => {
    const fake = await start({ buckets: ['quarry-l'] });
    // As file names these sort differently: `a._S3rver_object` after `a-b...`, directory `d` before `d+z...`.
    const keys = ['m/a', 'm/a-b', 'm/d+z', 'm/d/w', 'm/e'];
    for (const k of keys)
      await req(fake, 'PUT', `/quarry-l/${k.split('/').map(encodeURIComponent).join('/')}`, k);
    const seen: string[] = [];
    let token: string | undefined;
    do {
      const q = `list-type=2&prefix=m%2F&max-keys=1${token ? `&continuation-token=${encodeURIComponent(token)}` : ''}`;
      const page = await req(fake, 'GET', `/quarry-l?${q}`);
      expect(page.status).toBe(200); // needs the legacy OpenSSL provider for its DES tokens
      seen.push(...[...page.text.matchAll(/<Key>([^<]*)<\/Key>/g)].map((m) => m[1]));
      token = /<NextContinuationToken>([^<]*)</.exec(page.text)?.[1];
    } while (token);
    expect(seen).toEqual(keys);
  });

  it('answers any range of an empty object with 416, like S3', async () => {
    const fake = await start({ buckets: ['quarry-e'] });
    await req(fake, 'PUT', '/quarry-e/empty', '');
    const res = await fetch(`${fake.endpoint}/quarry-e/empty`, { headers: { range: 'bytes=0-9' } });
    expect(res.status).toBe(416);
    await res.text();
    expect((await req(fake, 'GET', '/quarry-e/empty')).status).toBe(200);
  });

  describe('when the parent process dies', () => {
    let script: string;
    beforeAll(async () => {
      // Run the real module in a separate node process: transpile it next to a tiny driver.
      const source = await fs.readFile(path.join(__dirname, 's3-fake.ts'), 'utf8');
      const js = ts.transpileModule(source, {
        compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
      }).outputText;
      const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'quarry-s3fake-driver-'));
      await fs.writeFile(path.join(dir, 's3-fake.js'), js);
      script = path.join(dir, 'driver.js');
      await fs.writeFile(
        script,
        `const { S3Fake } = require('./s3-fake.js');
         S3Fake.start({ dir: process.argv[2] }).then((f) => {
           console.log(JSON.stringify({ port: f.port }));
           if (process.argv[3] === 'linger') setInterval(() => undefined, 1000);
         });`,
      );
    });
    afterAll(() => fs.rm(path.dirname(script), { recursive: true, force: true }));

    const runDriver = async (mode: 'linger' | 'return') => {
      const nodeModules = path.resolve(__dirname, '../../../node_modules');
      const child = spawn(process.execPath, [script, path.join(root, 'orphan'), mode], {
        stdio: ['ignore', 'pipe', 'inherit'],
        env: { ...process.env, NODE_PATH: nodeModules },
      });
      const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
      const port = await new Promise<number>((resolve, reject) => {
        let out = '';
        child.stdout!.on('data', (chunk) => {
          out += String(chunk);
          const m = /"port":(\d+)/.exec(out);
          if (m) resolve(Number(m[1]));
        });
        child.once('exit', () => reject(new Error(`driver exited early: ${out}`)));
      });
      return { child, port, exited };
    };

    it('exits when its parent is killed with SIGKILL', async () => {
      const { child, port, exited } = await runDriver('linger');
      expect(await listening(port)).toBe(true);
      child.kill('SIGKILL');
      await exited;
      expect(await eventually(async () => !(await listening(port)), 5000)).toBe(true);
    });

    it('does not keep its parent alive, and goes with it', async () => {
      const { port, exited } = await runDriver('return');
      expect(await exited).toBe(0); // the driver ran out of work and exited although the fake had started
      expect(await eventually(async () => !(await listening(port)), 5000)).toBe(true);
    });
  });
});
