// Starts the built standalone server for a benchmark (or uses QUARRY_URL / QUARRY_TOKEN when set): a free
// port, a temporary data directory removed on stop, and a known admin token.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
/** The V8 flags `npm start` passes (README, "Configuration"). */
const NODE_FLAGS = ['--initial-old-space-size=128'];
/**
 * The allocator settings `npm start` and the image give the server (docs/operations.md, "Memory"), so the
 * bench measures what users run. Set only for the server: DuckDB runs in this process. Another threshold
 * can be tried with QUARRY_BENCH_MALLOC_MMAP_THRESHOLD (bytes).
 */
const SERVER_ALLOCATOR_ENV = {
  MALLOC_ARENA_MAX: '2',
  MALLOC_MMAP_THRESHOLD_: process.env.QUARRY_BENCH_MALLOC_MMAP_THRESHOLD ?? '33554432',
};

export async function startServer(dataDirPrefix = 'quarry-bench-', env = {}) {
  if (process.env.QUARRY_URL)
    return { url: process.env.QUARRY_URL, token: process.env.QUARRY_TOKEN, stop: async () => {} };
  const main = path.join(HERE, '..', 'apps', 'standalone', 'dist', 'main.js');
  if (!fs.existsSync(main))
    throw new Error('run `npm run build` first (apps/standalone/dist/main.js is missing)');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), dataDirPrefix));
  const token = 'xaat-bench-0000000000000001';
  const port = 30000 + Math.floor(Math.random() * 20000);
  const child = spawn(process.execPath, [...NODE_FLAGS, main], {
    env: {
      ...process.env,
      ...SERVER_ALLOCATOR_ENV,
      PORT: String(port),
      HOST: '127.0.0.1',
      QUARRY_DATA_DIR: dataDir,
      QUARRY_BOOTSTRAP_TOKEN: token,
      QUARRY_LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`${url}/readyz`)).ok) break;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    token,
    dataDir,
    /** The server process's peak resident memory so far (Linux `VmHWM`), in bytes. */
    peakRssBytes: () => {
      const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${child.pid}/status`, 'utf8'));
      return m ? Number(m[1]) * 1024 : NaN;
    },
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * One unlabelled value from the server's Prometheus `/metrics` (NaN when absent). On a connection of its
 * own: it runs right after long ingest runs, when a pooled keep-alive socket may have idled past the
 * server's keep-alive timeout and be closing ("other side closed").
 */
export async function scrape(url, name) {
  const { text } = await request(`${url}/metrics`, { agent: false });
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line ? Number(line.split(' ')[1]) : NaN;
}

/** The sum of a labelled metric's series (e.g. `quarry_cache_bytes` over threads and caches); NaN when absent. */
export async function scrapeSum(url, name) {
  const { text } = await request(`${url}/metrics`, { agent: false });
  const values = text
    .split('\n')
    .filter((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `))
    .map((l) => Number(l.slice(l.lastIndexOf(' ') + 1)));
  return values.length ? values.reduce((a, b) => a + b, 0) : NaN;
}

/**
 * One HTTP request with `node:http` (`options` as `http.request` takes them, `body` a Buffer or none);
 * resolves with the status and the response text. Cheaper for this process than `fetch`, which matters
 * when the client shares the machine's cores with the server.
 */
export function request(url, options, body) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, options, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}
