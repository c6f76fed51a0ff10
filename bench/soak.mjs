#!/usr/bin/env node
// Soak (issue 17): steady ingest from several clients (JSON, NDJSON, CSV, each also gzip), queries and
// management calls (/v2 datasets, dashboards, tokens) against the built standalone server, which is
// SIGKILLed and restarted at once on a fixed cadence. At the end every acknowledged batch must be stored
// exactly once, every restart must have come back, no request may have been answered 500, and the
// server's memory must not grow once warm (least-squares slope of RSS after warm-up).
//
//   npm run soak -- --minutes 30                   (about 100 kill/restart cycles at the default cadence)
//   npm run soak -- --minutes 60 --cycles 100      (100 cycles, however long they take up to an hour)
//   npm run soak -- --minutes 2 --json out.json    (what `npm test` runs, test/e2e/soak.test.ts)
//
// Options: --minutes N (default 2), --cycles N (end after N kill/restart cycles, if that comes first),
// --clients N ingest clients (default 4), --kill-every S seconds of uptime between kills (default 5, so
// a cycle with its restart takes 8-25 s on the 2-core test machine; 0 = never), --batch N events per
// request (default 100), --malloc-arena-max N (the server's MALLOC_ARENA_MAX, default 2 as
// docs/operations.md prescribes; 0 leaves glibc's default), --malloc-mmap-threshold-kib N (the server's
// MALLOC_MMAP_THRESHOLD_ in KiB, default 32768 as docs/operations.md prescribes; 0 leaves glibc's default), --column-cache-mib N (the server's
// QUARRY_COLUMN_CACHE_BYTES in MiB, default 128, so the caches are full within the warm-up and what
// grows after it is not a cache filling; 0 leaves the server's default), --max-slope M (fail when the warm RSS grows faster than M MiB/min: see
// docs/reliability.md, "Memory"), --json FILE
// (the report as JSON), --data-dir DIR (default a fresh temp dir, removed at the end unless --keep).
// Exit code 0 when every invariant held, 1 otherwise.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const here = path.dirname(fileURLToPath(import.meta.url));
const MAIN = path.join(here, '..', 'apps', 'standalone', 'dist', 'main.js');
const TOKEN = 'xaat-soak-0000-0000-000000000001';
const DATASET = 'soak';
const MiB = 1024 * 1024;

function parseArgs(argv) {
  const opts = {
    minutes: 2,
    cycles: 0,
    clients: 4,
    killEvery: 5,
    batch: 100,
    json: null,
    dataDir: null,
    keep: false,
    maxSlope: null,
    mallocArenaMax: 2,
    mallocMmapThresholdKiB: 32768,
    columnCacheMiB: 128,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const next = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${arg} needs a value`);
      return v;
    };
    if (arg === '--minutes') opts.minutes = Number(next());
    else if (arg === '--clients') opts.clients = Number(next());
    else if (arg === '--cycles') opts.cycles = Number(next());
    else if (arg === '--kill-every') opts.killEvery = Number(next());
    else if (arg === '--batch') opts.batch = Number(next());
    else if (arg === '--json') opts.json = next();
    else if (arg === '--data-dir') opts.dataDir = next();
    else if (arg === '--keep') opts.keep = true;
    else if (arg === '--max-slope') opts.maxSlope = Number(next());
    else if (arg === '--malloc-arena-max') opts.mallocArenaMax = Number(next());
    else if (arg === '--malloc-mmap-threshold-kib') opts.mallocMmapThresholdKiB = Number(next());
    else if (arg === '--column-cache-mib') opts.columnCacheMiB = Number(next());
    else throw new Error(`unknown option ${arg}`);
  }
  if (opts.maxSlope !== null && !Number.isFinite(opts.maxSlope))
    throw new Error('--max-slope must be a number');
  for (const k of [
    'minutes',
    'cycles',
    'clients',
    'killEvery',
    'batch',
    'mallocArenaMax',
    'mallocMmapThresholdKiB',
    'columnCacheMiB',
  ]) {
    if (!Number.isFinite(opts[k]) || opts[k] < 0) throw new Error(`--${k} must be a non-negative number`);
  }
  return opts;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function freePort() {
  const server = net.createServer();
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address();
  await new Promise((r) => server.close(r));
  return port;
}

function rssBytes(pid) {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return kb ? Number(kb[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

function percentile(sorted, p) {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Least-squares slope of y over x. */
function slope(points) {
  const n = points.length;
  if (n < 2) return 0;
  let sx = 0;
  let sy = 0;
  for (const [x, y] of points) {
    sx += x;
    sy += y;
  }
  const mx = sx / n;
  const my = sy / n;
  let num = 0;
  let den = 0;
  for (const [x, y] of points) {
    num += (x - mx) * (y - my);
    den += (x - mx) * (x - mx);
  }
  return den === 0 ? 0 : num / den;
}

/**
 * The /metrics memory samples summed up: per quantity its first and last warm value and its slope
 * (MiB/min) after warm-up. With kills, only the last process life's samples (each life starts empty).
 */
function memoryReport(samples, warmupS, killing) {
  let warm = samples.filter((s) => s.t >= warmupS);
  if (killing && warm.length > 0) {
    const last = warm[warm.length - 1].life;
    warm = warm.filter((s) => s.life === last);
  }
  const out = { samples: warm.length };
  const counts = ['tailRows', 'blocks', 'mergedBlocks', 'logSegments'];
  const bytes = ['rss', 'heapUsed', 'heapTotal', 'external', 'columnCache'];
  bytes.push(
    'queryHeap',
    'queryExternal',
    'cpuHeap',
    'cpuExternal',
    'metastoreHeap',
    'metastoreWasm',
    'caches',
  );
  for (const key of [...bytes, ...counts]) {
    const xs = warm.filter((s) => Number.isFinite(s[key]));
    if (xs.length === 0) continue;
    const scale = counts.includes(key) ? 1 : MiB;
    out[key] = {
      first: +(xs[0][key] / scale).toFixed(1),
      last: +(xs[xs.length - 1][key] / scale).toFixed(1),
      slopePerMinute: +((slope(xs.map((s) => [s.t, s[key]])) * 60) / scale).toFixed(2),
    };
  }
  return out;
}

/**
 * With kills, one row per warm process life: its median RSS next to the last /metrics sample taken in
 * it, so growth from one life to the next can be put down to a heap, PGlite or the stored data.
 */
function lifeReport(lives, samples) {
  const rows = [];
  for (const [life, xs] of lives) {
    const bytes = xs.map((x) => x.bytes).sort((a, b) => a - b);
    const row = {
      life,
      t: Math.round(xs[xs.length - 1].t),
      rssMiB: +(bytes[Math.floor(bytes.length / 2)] / MiB).toFixed(1),
    };
    const last = samples.filter((s) => s.life === life).at(-1);
    for (const [key, value] of Object.entries(last ?? {})) {
      if (key === 't' || key === 'life') continue;
      row[key] = ['tailRows', 'blocks', 'mergedBlocks', 'logSegments'].includes(key)
        ? value
        : +(value / MiB).toFixed(1);
    }
    rows.push(row);
  }
  return rows;
}

/** The sum of a labelled metric's samples whose labels pass `match`, or null when there are none. */
function sumLabelled(text, name, match) {
  let total = null;
  for (const m of text.matchAll(new RegExp(`^${name}\\{([^}]*)\\} (\\S+)$`, 'gm'))) {
    const labels = Object.fromEntries([...m[1].matchAll(/(\w+)="([^"]*)"/g)].map((l) => [l[1], l[2]]));
    if (match(labels)) total = (total ?? 0) + Number(m[2]);
  }
  return total;
}

/** The standalone server as a child process on a fixed port and data directory, killed and restarted. */
class Server {
  constructor(port, dataDir, extraEnv = {}) {
    this.port = port;
    this.dataDir = dataDir;
    this.extraEnv = extraEnv;
    this.child = null;
    this.startedAt = 0;
    this.lives = 0;
    this.url = `http://127.0.0.1:${port}`;
  }

  async start(timeoutMs = 120_000) {
    this.child = spawn(process.execPath, [MAIN], {
      env: {
        ...process.env,
        ...this.extraEnv,
        PORT: String(this.port),
        HOST: '127.0.0.1',
        QUARRY_DATA_DIR: this.dataDir,
        QUARRY_BOOTSTRAP_TOKEN: TOKEN,
        QUARRY_LOG_LEVEL: 'error',
        QUARRY_COMPACT_INTERVAL_MS: '1000',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    this.child.stderr.on('data', (d) => {
      stderr = (stderr + d.toString()).slice(-4000);
    });
    const child = this.child;
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(`server exited while starting (code ${child.exitCode}): ${stderr.trim()}`);
      }
      try {
        if ((await fetch(`${this.url}/readyz`)).status === 200) {
          this.startedAt = Date.now();
          this.lives++;
          return;
        }
      } catch {
        // not listening yet
      }
      await sleep(50);
    }
    throw new Error(`server not ready after ${timeoutMs} ms: ${stderr.trim()}`);
  }

  async kill(signal = 'SIGKILL') {
    const child = this.child;
    if (child === null || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill(signal);
    await exited;
  }

  get pid() {
    return this.child?.pid ?? 0;
  }
}

/** Requests with a per-kind latency record and status histogram. */
class Recorder {
  constructor() {
    this.statuses = {};
    this.latencies = { ingest: [], query: [], management: [] };
    /** The first answer of each error status, to tell what went wrong. */
    this.samples = {};
  }

  async call(kind, url, init) {
    const started = performance.now();
    let res;
    try {
      res = await fetch(url, { ...init, signal: AbortSignal.timeout(60_000) });
    } catch (err) {
      // Refused: the server is down and the request never left; anything else may have reached it.
      const refused = err?.cause?.code === 'ECONNREFUSED';
      const key = refused ? 'refused' : 'network';
      this.statuses[key] = (this.statuses[key] ?? 0) + 1;
      return refused ? { status: 0, text: '' } : null;
    }
    const text = await res.text().catch(() => '');
    this.latencies[kind].push(performance.now() - started);
    this.statuses[res.status] = (this.statuses[res.status] ?? 0) + 1;
    if (res.status >= 400 && !(res.status in this.samples))
      this.samples[res.status] =
        `${init?.method} ${url.replace(/^http:\/\/[^/]+/, '')}: ${text.slice(0, 300)}`;
    return { status: res.status, text };
  }
}

const FORMATS = ['json', 'ndjson', 'csv'];

/** One batch of events in one of the formats, optionally gzipped. */
function encodeBatch(format, gzip, events) {
  let body;
  let type;
  if (format === 'json') {
    body = JSON.stringify(events);
    type = 'application/json';
  } else if (format === 'ndjson') {
    body = events.map((e) => JSON.stringify(e)).join('\n');
    type = 'application/x-ndjson';
  } else {
    body = ['b,c,seq,msg', ...events.map((e) => `${e.b},${e.c},${e.seq},${e.msg}`)].join('\n');
    type = 'text/csv';
  }
  const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': type };
  if (gzip) {
    headers['content-encoding'] = 'gzip';
    return { headers, body: gzipSync(body) };
  }
  return { headers, body };
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (!fs.existsSync(MAIN)) throw new Error(`${MAIN} is missing: run npm run build first`);
  const dataDir = opts.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-soak-'));
  // glibc gives each thread that allocates its own malloc arena (up to 8 per core) and keeps what they
  // free: the server's RSS then climbs for minutes with a flat heap (docs/reliability.md, "Memory").
  // The decoded-column caches (a quarter of RAM by default, mostly in the query workers, where /metrics
  // does not see them) fill for as long as queries read new blocks: bounded, but for far longer than a
  // soak runs. A small bound fills within the warm-up, so growth after it is something else.
  const serverEnv = {};
  if (opts.mallocArenaMax > 0) serverEnv.MALLOC_ARENA_MAX = String(opts.mallocArenaMax);
  // Allocations above the threshold get their own mapping, returned to the system when freed, instead of
  // arena memory glibc keeps (docs/reliability.md, "Memory"); 128 KiB as the image and `npm start` set it.
  if (opts.mallocMmapThresholdKiB > 0)
    serverEnv.MALLOC_MMAP_THRESHOLD_ = String(opts.mallocMmapThresholdKiB * 1024);
  if (opts.columnCacheMiB > 0) serverEnv.QUARRY_COLUMN_CACHE_BYTES = String(opts.columnCacheMiB * MiB);
  const server = new Server(await freePort(), dataDir, serverEnv);
  const rec = new Recorder();
  const runMs = opts.minutes * 60_000;
  const log = (line) => process.stderr.write(`[soak ${((Date.now() - t0) / 1000).toFixed(0)}s] ${line}\n`);

  const t0 = Date.now();
  await server.start();
  const admin = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
  const created = await rec.call('management', `${server.url}/v2/datasets`, {
    method: 'POST',
    headers: admin,
    body: JSON.stringify({ name: DATASET }),
  });
  if (created?.status !== 200) throw new Error(`could not create the dataset: ${created?.text}`);

  /** Batches acknowledged (200 with every event ingested), and batches whose outcome is unknown. */
  const acked = new Map();
  const indeterminate = new Map();
  let stop = false;
  let ackedEvents = 0;

  const ingestClient = async (c) => {
    for (let seq = 0; !stop; seq++) {
      const format = FORMATS[seq % FORMATS.length];
      const gzip = Math.floor(seq / FORMATS.length) % 2 === 1;
      const b = `c${c}-b${seq}`;
      const events = Array.from({ length: opts.batch }, (_, i) => ({
        b,
        c: `c${c}`,
        seq: i,
        msg: `soak-${format}${gzip ? '-gz' : ''}-${i}`,
      }));
      const { headers, body } = encodeBatch(format, gzip, events);
      const res = await rec.call('ingest', `${server.url}/v1/datasets/${DATASET}/ingest`, {
        method: 'POST',
        headers,
        body,
      });
      if (res === null || res.status === 0) {
        if (res === null) indeterminate.set(b, events.length);
        await sleep(100);
        continue;
      }
      if (res.status === 200) {
        const status = JSON.parse(res.text);
        if (status.ingested !== events.length)
          throw new Error(`batch ${b} (${format}) ingested ${status.ingested}: ${res.text}`);
        acked.set(b, events.length);
        ackedEvents += events.length;
      } else {
        await sleep(100);
      }
    }
  };

  const queryClient = async () => {
    const apls = [
      `['${DATASET}'] | count`,
      `['${DATASET}'] | summarize count() by c`,
      `['${DATASET}'] | where seq < 5 | summarize count() by bin_auto(_time)`,
      `['${DATASET}'] | sort by _time desc | take 20`,
    ];
    for (let i = 0; !stop; i++) {
      await rec.call('query', `${server.url}/v1/datasets/_apl?format=tabular`, {
        method: 'POST',
        headers: admin,
        body: JSON.stringify({ apl: apls[i % apls.length] }),
      });
      await sleep(200);
    }
  };

  const managementClient = async () => {
    for (let i = 0; !stop; i++) {
      const call = (method, p, body) =>
        rec.call('management', `${server.url}${p}`, {
          method,
          headers: admin,
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      const name = `soak-m${i}`;
      await call('POST', '/v2/datasets', { name });
      await call('GET', '/v2/datasets');
      await call('DELETE', `/v2/datasets/${name}`);
      await call('POST', '/v2/dashboards', {
        uid: `soak-d${i % 20}`,
        overwrite: true,
        dashboard: {
          name: `soak ${i}`,
          owner: 'X-AXIOM-EVERYONE',
          charts: [{ id: 'c1', type: 'Note', text: `run ${i}` }],
          layout: [{ i: 'c1', x: 0, y: 0, w: 6, h: 4 }],
          refreshTime: 60,
          schemaVersion: 2,
          timeWindowStart: 'qr-now-1h',
          timeWindowEnd: 'qr-now',
        },
      });
      await call('GET', '/v2/dashboards');
      const token = await call('POST', '/v2/tokens', {
        name: `soak-t${i}`,
        datasetCapabilities: { [DATASET]: { ingest: ['create'] } },
      });
      if (token?.status === 200) {
        const { id } = JSON.parse(token.text);
        await call('GET', '/v2/tokens');
        await call('DELETE', `/v2/tokens/${id}`);
      }
      await sleep(300);
    }
  };

  // RSS of the live server every second, tagged with the time since the process started.
  const rss = [];
  const sampler = setInterval(() => {
    if (server.startedAt === 0) return;
    const bytes = rssBytes(server.pid);
    if (bytes > 0)
      rss.push({
        t: (Date.now() - t0) / 1000,
        uptime: (Date.now() - server.startedAt) / 1000,
        life: server.lives,
        bytes,
      });
  }, 1000);

  // The server's own view of its memory every 5 s (/metrics): where RSS growth lives — the main
  // isolate's heap, external memory (Buffers, ArrayBuffers), or neither (query worker heaps, the
  // allocator, PGlite's WebAssembly memory) — next to the caches and the uncompacted tail.
  const memory = [];
  const memoryNames = {
    rss: 'quarry_process_process_resident_memory_bytes',
    heapUsed: 'quarry_process_nodejs_heap_size_used_bytes',
    heapTotal: 'quarry_process_nodejs_heap_size_total_bytes',
    external: 'quarry_process_nodejs_external_memory_bytes',
    columnCache: 'quarry_column_cache_bytes',
    tailRows: 'quarry_tail_rows',
    blocks: 'quarry_blocks',
    mergedBlocks: 'quarry_merged_blocks',
    logSegments: 'quarry_log_segments',
  };
  // Worker threads, caches and PGlite (summed over the label values that match).
  const labelledMemory = {
    queryHeap: [
      'quarry_thread_memory_bytes',
      (l) => l.thread?.startsWith('query-') && l.kind === 'heap_used',
    ],
    queryExternal: [
      'quarry_thread_memory_bytes',
      (l) => l.thread?.startsWith('query-') && l.kind === 'external',
    ],
    cpuHeap: ['quarry_thread_memory_bytes', (l) => l.thread?.startsWith('cpu-') && l.kind === 'heap_used'],
    cpuExternal: ['quarry_thread_memory_bytes', (l) => l.thread?.startsWith('cpu-') && l.kind === 'external'],
    metastoreHeap: ['quarry_thread_memory_bytes', (l) => l.thread === 'metastore' && l.kind === 'heap_used'],
    metastoreWasm: ['quarry_thread_memory_bytes', (l) => l.thread === 'metastore' && l.kind === 'wasm'],
    caches: ['quarry_cache_bytes', () => true],
  };
  const memorySampler = setInterval(async () => {
    if (server.startedAt === 0) return;
    const life = server.lives;
    try {
      const res = await fetch(`${server.url}/metrics`, { signal: AbortSignal.timeout(4000) });
      if (res.status !== 200) return;
      const text = await res.text();
      const sample = { t: (Date.now() - t0) / 1000, life };
      for (const [key, name] of Object.entries(memoryNames)) {
        const m = new RegExp(`^${name} (\\S+)$`, 'm').exec(text);
        if (m) sample[key] = Number(m[1]);
      }
      for (const [key, [name, match]] of Object.entries(labelledMemory)) {
        const total = sumLabelled(text, name, match);
        if (total !== null) sample[key] = total;
      }
      memory.push(sample);
    } catch {
      // down or busy: skip this sample
    }
  }, 5000);

  const restarts = { attempted: 0, cameBack: 0, failures: [], startMs: [] };
  const killer = async () => {
    if (opts.killEvery <= 0) return;
    while (!stop) {
      const wait = server.startedAt + opts.killEvery * 1000 - Date.now();
      if (wait > 0) await sleep(Math.min(wait, 500));
      if (stop || Date.now() < server.startedAt + opts.killEvery * 1000) continue;
      restarts.attempted++;
      await server.kill('SIGKILL');
      server.startedAt = 0;
      const started = Date.now();
      try {
        await server.start();
        restarts.cameBack++;
        restarts.startMs.push(Date.now() - started);
      } catch (err) {
        restarts.failures.push(err.message);
        log(`restart ${restarts.attempted} failed: ${err.message}`);
        try {
          await server.start(); // try once more so the run can go on and count the rest
        } catch {
          stop = true;
        }
      }
      if (opts.cycles > 0 && restarts.attempted >= opts.cycles) stop = true;
      if (restarts.attempted % 10 === 0)
        log(`${restarts.attempted} restarts, ${ackedEvents} events acknowledged`);
    }
  };

  const workers = [
    ...Array.from({ length: opts.clients }, (_, c) => ingestClient(c)),
    queryClient(),
    managementClient(),
    killer(),
  ];
  const timer = setTimeout(() => (stop = true), runMs);
  const outcome = await Promise.allSettled(workers);
  clearTimeout(timer);
  stop = true;
  clearInterval(sampler);
  clearInterval(memorySampler);
  const crashed = outcome
    .filter((o) => o.status === 'rejected')
    .map((o) => String(o.reason?.message ?? o.reason));

  // Checking: the server is up (restart it if a kill raced the end), then every acknowledged batch must
  // be stored exactly once; an indeterminate batch may be stored or not, but never partly or twice.
  if (server.startedAt === 0) await server.start();
  const check = await rec.call('query', `${server.url}/v1/datasets/_apl?format=tabular`, {
    method: 'POST',
    headers: admin,
    body: JSON.stringify({ apl: `['${DATASET}'] | summarize n = count() by b` }),
  });
  if (check?.status !== 200) throw new Error(`the check query failed: ${check?.text}`);
  const table = JSON.parse(check.text).tables[0];
  const bCol = table.fields.findIndex((f) => f.name === 'b');
  const nCol = table.fields.findIndex((f) => f.name === 'n');
  const stored = new Map();
  for (let r = 0; r < table.columns[bCol].length; r++)
    stored.set(table.columns[bCol][r], Number(table.columns[nCol][r]));
  let lost = 0;
  let duplicated = 0;
  let partial = 0;
  let presentEvents = 0;
  for (const [b, n] of acked) {
    const got = stored.get(b) ?? 0;
    presentEvents += Math.min(got, n);
    if (got < n) lost += n - got;
    if (got > n) duplicated += got - n;
  }
  let indeterminateStored = 0;
  for (const [b, n] of indeterminate) {
    const got = stored.get(b) ?? 0;
    if (got === n) indeterminateStored++;
    else if (got !== 0) partial++;
  }
  for (const [b, got] of stored) {
    if (!acked.has(b) && !indeterminate.has(b)) duplicated += got; // stored without ever being sent
  }

  // Memory: each process's warm RSS (the median of its samples 3 s or more into its life), after the
  // run's warm-up (its first fifth, at least 45 s with kills, 120 s without), regressed over the run's time. Restarts reset a
  // process's memory, so growth that survives them (more data stored, more of it replayed) shows here;
  // without kills (--kill-every 0) this is the one process's slope.
  // With kills, 45 s at least: while the first few hundred thousand events arrive, each new life's
  // queries scan more of them and its RSS climbs with them (each life's peak rose from about 550 to 630 MiB
  // over the first 50 s on the 2-core test machine, and stayed within 605 to 640 MiB after it:
  // docs/reliability.md, "Memory"). That fill ends; growth across lives would not.
  // Without kills, the first 2 minutes at least: a fresh process peaks while it starts and settles after
  // its first full collections.
  const warmupS = opts.killEvery > 0 ? Math.max(45, runMs / 1000 / 5) : Math.max(120, runMs / 1000 / 5);
  const lives = new Map();
  for (const s of rss) {
    if (s.t < warmupS || s.uptime < 3) continue;
    if (!lives.has(s.life)) lives.set(s.life, []);
    lives.get(s.life).push(s);
  }
  // Without kills: the floor of each 30 s (its lowest sample). RSS saws up and down by hundreds of MiB
  // with garbage collection; the floors are what survives it, so their slope is growth, not GC timing.
  const floors = new Map();
  for (const s of rss) {
    if (s.t < warmupS) continue;
    const bucket = Math.floor((s.t - warmupS) / 30);
    const floor = floors.get(bucket);
    if (floor === undefined || s.bytes < floor.bytes) floors.set(bucket, { t: s.t, bytes: s.bytes });
  }
  const warm =
    opts.killEvery > 0
      ? [...lives.values()].map((xs) => {
          const bytes = xs.map((x) => x.bytes).sort((a, b) => a - b);
          return { t: xs[xs.length - 1].t, bytes: bytes[Math.floor(bytes.length / 2)] };
        })
      : [...floors.values()];
  const slopeBytesPerS = slope(warm.map((s) => [s.t, s.bytes]));
  const sorted = (xs) => [...xs].sort((a, b) => a - b);
  const lat = Object.fromEntries(
    Object.entries(rec.latencies).map(([k, xs]) => {
      const s = sorted(xs);
      return [k, { count: s.length, p50: Math.round(percentile(s, 50)), p99: Math.round(percentile(s, 99)) }];
    }),
  );
  const byMinute = [];
  for (const s of rss) {
    const m = Math.floor(s.t / 60);
    byMinute[m] = Math.max(byMinute[m] ?? 0, s.bytes);
  }
  const report = {
    minutes: +((Date.now() - t0) / 60_000).toFixed(2),
    clients: opts.clients,
    killEverySeconds: opts.killEvery,
    acknowledgedBatches: acked.size,
    acknowledgedEvents: ackedEvents,
    presentEvents,
    lostEvents: lost,
    duplicatedEvents: duplicated,
    indeterminateBatches: indeterminate.size,
    indeterminateStored,
    partialBatches: partial,
    statuses: rec.statuses,
    http500: rec.statuses[500] ?? 0,
    errorSamples: rec.samples,
    latencyMs: lat,
    restarts: {
      attempted: restarts.attempted,
      cameBack: restarts.cameBack,
      failures: restarts.failures,
      startP50Ms: Math.round(percentile(sorted(restarts.startMs), 50)),
      startMaxMs: Math.round(Math.max(0, ...restarts.startMs)),
    },
    rss: {
      peakMiB: +(Math.max(0, ...rss.map((s) => s.bytes)) / MiB).toFixed(1),
      maxByMinuteMiB: byMinute.map((b) => +((b ?? 0) / MiB).toFixed(1)),
      warmSamples: warm.length,
      warmupSeconds: warmupS,
      mallocArenaMax: opts.mallocArenaMax || null,
      mallocMmapThresholdKiB: opts.mallocMmapThresholdKiB || null,
      columnCacheMiB: opts.columnCacheMiB || null,
      floorsMiB: opts.killEvery > 0 ? undefined : warm.map((w) => +(w.bytes / MiB).toFixed(1)),
      lives: opts.killEvery > 0 ? lifeReport(lives, memory) : undefined,
      slopeMiBPerMinute: +((slopeBytesPerS * 60) / MiB).toFixed(2),
    },
    memory: memoryReport(memory, warmupS, opts.killEvery > 0),
    clientCrashes: crashed,
  };
  report.rss.maxSlopeMiBPerMinute = opts.maxSlope;
  report.rss.flat = opts.maxSlope === null || report.rss.slopeMiBPerMinute < opts.maxSlope;
  report.ok =
    lost === 0 &&
    duplicated === 0 &&
    partial === 0 &&
    report.http500 === 0 &&
    restarts.failures.length === 0 &&
    crashed.length === 0 &&
    report.rss.flat;

  await server.kill('SIGTERM');
  if (!opts.keep && opts.dataDir === null) fs.rmSync(dataDir, { recursive: true, force: true });

  if (opts.json) fs.writeFileSync(opts.json, JSON.stringify(report, null, 2));
  const lines = [
    `soak: ${opts.minutes} min, ${opts.clients} ingest clients, SIGKILL every ${opts.killEvery} s of uptime`,
    `  events: ${ackedEvents} acknowledged, ${presentEvents} of them present, ${lost} lost, ${duplicated} duplicated; ${indeterminate.size} indeterminate batches (${indeterminateStored} stored whole, ${partial} partly)`,
    `  restarts: ${restarts.cameBack}/${restarts.attempted} came back (start p50 ${report.restarts.startP50Ms} ms, max ${report.restarts.startMaxMs} ms)`,
    `  statuses: ${JSON.stringify(rec.statuses)}`,
    `  latency ms: ${Object.entries(lat)
      .map(([k, v]) => `${k} p50 ${v.p50} p99 ${v.p99} (n=${v.count})`)
      .join('; ')}`,
    `  rss: peak ${report.rss.peakMiB} MiB, per-minute max ${report.rss.maxByMinuteMiB.join(' ')} MiB, slope after warm-up ${report.rss.slopeMiBPerMinute} MiB/min${opts.maxSlope === null ? '' : ` (limit ${opts.maxSlope}: ${report.rss.flat ? 'flat' : 'GROWING'})`}`,
    `  memory after warm-up (/metrics, MiB; slope per minute): ${Object.entries(report.memory)
      .filter(([k]) => k !== 'samples')
      .map(([k, v]) => `${k} ${v.first} -> ${v.last} (${v.slopePerMinute}/min)`)
      .join('; ')}`,
    `  ${report.ok ? 'OK' : 'FAILED'}${crashed.length ? ` (client errors: ${crashed.join('; ')})` : ''}`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  process.exitCode = report.ok ? 0 : 1;
}

main().catch((err) => {
  process.stderr.write(`soak failed: ${err.stack ?? err}\n`);
  process.exit(1);
});
