// Ingest + query benchmark over HTTP against the standalone server, side by side with DuckDB.
//
//   npm run bench -- [--events 1000000] [--threads 1] [--batch 5000] [--concurrency 4] [--reps 7] [--warmup 3]
//                    [--no-duckdb] [--no-formats] [--fetch-queries]
//   QUARRY_URL=http://127.0.0.1:8080 QUARRY_TOKEN=xaat-... npm run bench   (use a running server)
//
// Without QUARRY_URL it starts apps/standalone/dist/main.js (run `npm run build` first) on a free port with a
// temporary data directory, and removes it afterwards. `--threads N` gives Quarry N ingest and N query
// worker threads and DuckDB N threads ("equal cores"). Prints ingest rates (wall clock and per CPU-second of
// the server), block sizes, per-query latencies and ratios against DuckDB with an answer check, the share of
// the data a one-hour window reads, and CSV and gzip ingest rates against plain NDJSON.
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { gzipSync } from 'node:zlib';
import { request, scrape, scrapeSum, startServer } from './server.mjs';
import { COMPARE, compareAnswers, openDuckDb, SQL, WINDOW_SQL } from './duckdb-side.mjs';
import { generateEvents } from './generate.mjs';
import { DATASET, QUERIES, WINDOW_QUERY } from './queries.mjs';

const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : dflt);
const EVENTS = Number(opt('events', '1000000'));
const BATCH = Number(opt('batch', '5000'));
const CONCURRENCY = Number(opt('concurrency', '4'));
const REPS = Number(opt('reps', '7'));
// Rounds of the whole query set before timing, on both sides: a server that has been up for a while has
// its query kernels JIT-compiled in the main thread and in every query worker; a cold one has not.
const WARMUP = Number(opt('warmup', '3'));
const THREADS = Number(opt('threads', '1'));
const CPU_METRIC = 'quarry_process_process_cpu_seconds_total';

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (n) => Math.round(n).toLocaleString('en');

async function main() {
  // Merge often so the queries below run on merged blocks, as on a server that has run a while.
  const server = await startServer('quarry-bench-', {
    QUARRY_MERGE_INTERVAL_MS: '1000',
    QUARRY_WORKER_THREADS: String(THREADS),
    QUARRY_QUERY_WORKERS: String(THREADS),
  });
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-bench-duck-'));
  const client = new Client(server);
  try {
    console.log(
      `${fmt(EVENTS)} events, ${THREADS} thread(s) each for Quarry's workers and DuckDB, ` +
        `${os.availableParallelism()} CPUs, load average ${os.loadavg()[0].toFixed(2)}`,
    );
    // Pre-generate batches so the generator's cost is not measured.
    const batches = [];
    let lines = [];
    for (const line of generateEvents(EVENTS)) {
      lines.push(line);
      if (lines.length === BATCH) {
        batches.push(lines.join('\n'));
        lines = [];
      }
    }
    if (lines.length) batches.push(lines.join('\n'));
    const rawBytes = batches.reduce((a, b) => a + Buffer.byteLength(b), 0);

    await client.createDataset(DATASET);
    const ndjson = await client.ingestAll(
      DATASET,
      batches.map((b) => ({ body: Buffer.from(b), headers: { 'Content-Type': 'application/x-ndjson' } })),
    );
    console.log(
      `ingest NDJSON: ${fmt(ndjson.events)} events, ${(rawBytes / 1e6).toFixed(1)} MB in ${ndjson.seconds.toFixed(2)} s = ` +
        `${fmt(ndjson.rate)} events/s, ${(rawBytes / 1e6 / ndjson.seconds).toFixed(1)} MB/s; server CPU ` +
        `${ndjson.cpuSeconds.toFixed(1)} s = ${fmt(ndjson.events / ndjson.cpuSeconds)} events per CPU-second ` +
        `(batches of ${BATCH}, ${CONCURRENCY} concurrent, each acknowledged after fsync); ` +
        `this client's CPU meanwhile ${ndjson.clientCpuSeconds.toFixed(1)} s (same machine)`,
    );

    // Measure queries in steady state: compaction caught up, merges settled.
    const settle = await client.settle();
    console.log(
      `compaction caught up ${settle.compactionSeconds.toFixed(1)} s after the last ack; ` +
        `server CPU from the first request until merges settled ${(ndjson.cpuSeconds + settle.cpuSeconds).toFixed(1)} s ` +
        `= ${fmt(ndjson.events / (ndjson.cpuSeconds + settle.cpuSeconds))} events per CPU-second`,
    );
    const fresh = settle.fresh;
    const merged = await client.blockStats();
    console.log(
      `Quarry blocks fresh: ${fresh.blocks} blocks, ${(fresh.bytes / 1e6).toFixed(1)} MB = ${(rawBytes / fresh.bytes).toFixed(1)}x smaller than the NDJSON`,
    );
    console.log(
      `Quarry blocks after merging: ${merged.blocks} blocks, ${(merged.bytes / 1e6).toFixed(1)} MB = ${(rawBytes / merged.bytes).toFixed(1)}x smaller than the NDJSON`,
    );

    let duck = null;
    if (!args.includes('--no-duckdb')) {
      const file = path.join(scratch, 'events.ndjson');
      // Batch by batch: all events in one string would exceed V8's string limit at 5M events.
      const fd = fs.openSync(file, 'w');
      for (const b of batches) fs.writeSync(fd, b + '\n');
      fs.closeSync(fd);
      duck = await openDuckDb(scratch, file, THREADS);
      const duckRate = ndjson.events / duck.loadSeconds;
      console.log(
        `DuckDB load (threads=${THREADS}, explicit schema, CHECKPOINT): ${fmt(duckRate)} events/s, CPU ` +
          `${duck.loadCpuSeconds.toFixed(1)} s = ${fmt(ndjson.events / duck.loadCpuSeconds)} events per CPU-second`,
      );
      console.log(
        `Quarry ingest / DuckDB load: ${(ndjson.rate / duckRate).toFixed(2)}x wall clock, ` +
          `${(ndjson.events / ndjson.cpuSeconds / (ndjson.events / duck.loadCpuSeconds)).toFixed(2)}x per CPU-second ` +
          `(${(ndjson.events / (ndjson.cpuSeconds + settle.cpuSeconds) / (ndjson.events / duck.loadCpuSeconds)).toFixed(2)}x counting compaction and merging)`,
      );
      console.log(
        `DuckDB file: ${(duck.fileBytes / 1e6).toFixed(1)} MB = ${(rawBytes / duck.fileBytes).toFixed(1)}x smaller than the NDJSON`,
      );
    }

    await runQueries(client, duck);
    await windowShare(client, duck);
    await reportMemory(server);
    if (!args.includes('--no-formats')) await formats(client, batches, ndjson);
    duck?.close();
  } finally {
    queryAgent.destroy();
    await server.stop();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/** The server's memory after the queries (issue: memory bounded at 10M, server RSS reported). */
async function reportMemory(server) {
  const mb = (bytes) => (Number.isFinite(bytes) ? `${fmt(Math.round(bytes / 1e6))} MB` : 'n/a');
  const rss = await scrape(server.url, 'quarry_process_process_resident_memory_bytes');
  const caches = await scrapeSum(server.url, 'quarry_cache_bytes');
  const peak = server.peakRssBytes?.() ?? NaN;
  console.log(
    `server memory after the queries: RSS ${mb(rss)} (peak ${mb(peak)}, main process; worker threads included), ` +
      `caches ${mb(caches)} (quarry_cache_bytes, all threads)`,
  );
}

async function runQueries(client, duck) {
  console.log(
    `\n| query | Quarry ms | DuckDB ms (t=${THREADS}) | Quarry/DuckDB | answers |\n|---|---:|---:|---:|---|`,
  );
  const ratios = [];
  for (let round = 0; round < WARMUP; round++) {
    for (const [name, apl] of QUERIES) {
      await client.query(name, apl);
      if (duck) await duck.query(SQL[name]);
    }
  }
  for (const [name, apl] of QUERIES) {
    const ours = [];
    const theirs = [];
    // One untimed run each (also the answers compared), then interleaved repetitions.
    const first = await client.query(name, apl);
    const duckFirst = duck ? await duck.query(COMPARE[name]?.checkSql ?? SQL[name]) : null;
    for (let rep = 0; rep < REPS; rep++) {
      ours.push((await timed(() => client.query(name, apl))).ms);
      if (duck) theirs.push((await timed(() => duck.query(SQL[name]))).ms);
    }
    const q = median(ours);
    if (!duck) {
      console.log(`| ${name} | ${q.toFixed(1)} | – | – | – |`);
      continue;
    }
    const d = median(theirs);
    const mismatch = compareAnswers(name, first.tables[0], duckFirst);
    ratios.push(q / d);
    console.log(
      `| ${name} | ${q.toFixed(1)} | ${d.toFixed(1)} | ${(q / d).toFixed(2)} | ${mismatch ? `DIFFER: ${mismatch}` : 'same'} |`,
    );
  }
  if (ratios.length) {
    const geomean = Math.exp(ratios.reduce((a, r) => a + Math.log(r), 0) / ratios.length);
    console.log(
      `\nquery geometric mean Quarry/DuckDB: ${geomean.toFixed(2)}x (worst ${Math.max(...ratios).toFixed(2)}x)`,
    );
  }
}

/** How much of a day of data a one-hour window reads (time pruning), and its latency. */
async function windowShare(client, duck) {
  const all = await client.query('count', QUERIES[0][1]);
  const window = await client.query('window', WINDOW_QUERY.apl);
  const times = [];
  for (let i = 0; i < REPS; i++) times.push((await timed(() => client.query('window', WINDOW_QUERY.apl))).ms);
  const ms = median(times);
  const s = window.status;
  const total = all.status;
  let check = '';
  if (duck) {
    const expected = Number((await duck.query(WINDOW_SQL)).rows[0].count);
    const got = window.tables[0].columns[0][0];
    check = got === expected ? ', answer same as DuckDB' : `, answer ${got} vs DuckDB ${expected}`;
  }
  console.log(
    `\none-hour window (${WINDOW_QUERY.label}): ${ms.toFixed(1)} ms; read ${s.blocksExamined} of ${total.blocksExamined} blocks, ` +
      `examined ${fmt(s.rowsExamined)} of ${fmt(total.rowsExamined)} rows = ${((100 * s.rowsExamined) / total.rowsExamined).toFixed(1)}%${check}`,
  );
}

// Ingest requests on keep-alive sockets of their own (`request`: node:http, a third of `fetch`'s CPU per request).
const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });

/**
 * CSV, gzip-compressed NDJSON and JSON arrays (what `@axiomhq/js` sends) of the same events, each into its
 * own dataset, against plain NDJSON.
 */
async function formats(client, batches, ndjson) {
  const csv = batches.map((b) => Buffer.from(toCsv(b)));
  const gz = batches.map((b) => gzipSync(b));
  const arrays = batches.map((b) => Buffer.from(`[${b.split('\n').join(',')}]`));
  await client.createDataset(`${DATASET}-csv`);
  await client.createDataset(`${DATASET}-gzip`);
  await client.createDataset(`${DATASET}-array`);
  const csvRun = await client.ingestAll(
    `${DATASET}-csv`,
    csv.map((body) => ({ body, headers: { 'Content-Type': 'text/csv' } })),
  );
  // Each run after the previous one's compaction and merges settled, as the NDJSON run was measured:
  // otherwise it shares the workers with that backlog.
  await client.settle();
  const gzRun = await client.ingestAll(
    `${DATASET}-gzip`,
    gz.map((body) => ({
      body,
      headers: { 'Content-Type': 'application/x-ndjson', 'Content-Encoding': 'gzip' },
    })),
  );
  await client.settle();
  const arrayRun = await client.ingestAll(
    `${DATASET}-array`,
    arrays.map((body) => ({ body, headers: { 'Content-Type': 'application/json' } })),
  );
  console.log(
    `\ningest JSON array: ${fmt(arrayRun.rate)} events/s = ${(arrayRun.rate / ndjson.rate).toFixed(2)}x NDJSON; ` +
      `CSV: ${fmt(csvRun.rate)} events/s = ${(csvRun.rate / ndjson.rate).toFixed(2)}x NDJSON; ` +
      `gzip NDJSON: ${fmt(gzRun.rate)} events/s = ${(gzRun.rate / ndjson.rate).toFixed(2)}x NDJSON ` +
      `(${(gz.reduce((a, b) => a + b.length, 0) / 1e6).toFixed(1)} MB on the wire)`,
  );
}

const CSV_FIELDS = [
  '_time',
  'method',
  'status',
  'uri',
  'req_duration_ms',
  'resp_body_size_bytes',
  'resp_header_size_bytes',
  'id',
  'geo.city',
  'geo.country',
  'server_datacenter',
  'user_agent',
  'is_tls',
  'message',
];

function toCsv(ndjsonBatch) {
  const quote = (v) => {
    const s = String(v ?? '');
    return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  const rows = [CSV_FIELDS.join(',')];
  for (const line of ndjsonBatch.split('\n')) {
    const e = JSON.parse(line);
    rows.push(CSV_FIELDS.map((f) => quote(f.startsWith('geo.') ? e.geo[f.slice(4)] : e[f])).join(','));
  }
  return rows.join('\n');
}

async function timed(fn) {
  const t0 = performance.now();
  const result = await fn();
  return { ms: performance.now() - t0, result };
}

class Client {
  constructor(server) {
    this.server = server;
    this.headers = { Authorization: `Bearer ${server.token}` };
  }

  async createDataset(name) {
    await fetch(`${this.server.url}/v2/datasets`, {
      method: 'POST',
      headers: { ...this.headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name }),
    });
  }

  /** Sends every request with CONCURRENCY in flight; rate and server CPU over the whole run. */
  async ingestAll(dataset, requests) {
    const cpu0 = await scrape(this.server.url, CPU_METRIC);
    const clientCpu0 = process.cpuUsage();
    let next = 0;
    let events = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < requests.length) {
          const { body, headers } = requests[next++];
          const res = await request(
            `${this.server.url}/v1/ingest/${dataset}`,
            {
              method: 'POST',
              agent,
              headers: { ...this.headers, ...headers, 'Content-Length': body.length },
            },
            body,
          );
          if (res.status !== 200) throw new Error(`ingest failed: ${res.status} ${res.text}`);
          events += JSON.parse(res.text).ingested;
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const clientCpu = process.cpuUsage(clientCpu0);
    const cpuSeconds = (await scrape(this.server.url, CPU_METRIC)) - cpu0;
    const clientCpuSeconds = (clientCpu.user + clientCpu.system) / 1e6;
    return { events, seconds, rate: events / seconds, cpuSeconds, clientCpuSeconds };
  }

  /** Waits for compaction, then for the merge loop to settle (the block count stops changing for 3 s). */
  async settle() {
    const cpu0 = await scrape(this.server.url, CPU_METRIC);
    const started = performance.now();
    for (let i = 0; i < 600; i++) {
      const ready = await (await fetch(`${this.server.url}/readyz`)).json();
      if (ready.uncompactedRows === 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const compactionSeconds = (performance.now() - started) / 1000;
    const fresh = await this.blockStats();
    let blocks = fresh.blocks;
    for (let stable = 0, i = 0; stable < 3 && i < 300; i++) {
      await new Promise((r) => setTimeout(r, 1000));
      const now = await scrape(this.server.url, 'quarry_blocks');
      stable = now === blocks ? stable + 1 : 0;
      blocks = now;
    }
    // The idle seconds of the wait cost no CPU; what was spent is compaction and merging.
    const cpuSeconds = (await scrape(this.server.url, CPU_METRIC)) - cpu0;
    return { compactionSeconds, fresh, cpuSeconds };
  }

  async blockStats() {
    return {
      blocks: await scrape(this.server.url, 'quarry_blocks'),
      bytes: await scrape(this.server.url, 'quarry_block_bytes'),
    };
  }

  /**
   * One APL query on a keep-alive socket of its own (`node:http`, like ingest: `fetch` costs this process
   * about 0.3 ms more per request, which the server's two cores would otherwise share with it).
   */
  async query(name, apl) {
    if (args.includes('--fetch-queries')) return this.fetchQuery(name, apl);
    const body = Buffer.from(
      JSON.stringify({ apl, startTime: '2000-01-01T00:00:00Z', endTime: '2100-01-01T00:00:00Z' }),
    );
    const options = {
      method: 'POST',
      agent: queryAgent,
      headers: { ...this.headers, 'Content-Type': 'application/json', 'Content-Length': body.length },
    };
    let res;
    try {
      res = await request(`${this.server.url}/v1/datasets/_apl?format=tabular`, options, body);
    } catch {
      // A pooled socket the server closed while idle: once more on a fresh one.
      res = await request(
        `${this.server.url}/v1/datasets/_apl?format=tabular`,
        { ...options, agent: false },
        body,
      );
    }
    const json = JSON.parse(res.text);
    if (res.status !== 200) throw new Error(`${name}: ${res.status} ${res.text}`);
    return json;
  }

  /** Queries as this bench sent them before (`--fetch-queries`), to compare figures across that change. */
  async fetchQuery(name, apl) {
    const res = await fetch(`${this.server.url}/v1/datasets/_apl?format=tabular`, {
      method: 'POST',
      headers: { ...this.headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ apl, startTime: '2000-01-01T00:00:00Z', endTime: '2100-01-01T00:00:00Z' }),
    });
    const json = await res.json();
    if (!res.ok) throw new Error(`${name}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  }
}

const queryAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
