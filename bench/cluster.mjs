// The cluster against the standalone server, on this machine, with the same events (issue 13's figures):
// ingest through the gateway vs the standalone, freshness (ack → visible to a query) p50/p99, and warm and
// cold (empty caches) query latency of the bench's queries.
//
//   npm run build && node bench/cluster.mjs [--events 1000000] [--batch 5000] [--concurrency 4] [--reps 5]
//                                           [--probes 200] [--s3 fake|radosgw]
//
// The cluster is LocalCluster (what `npm run cluster` starts): 2 ingest, 2 compactor, 2 query nodes, 1
// management node and the gateway, over PostgreSQL, librdkafka's mock Kafka and an S3 fake (or Ceph
// radosgw), every process with one worker thread. All of it shares this machine's cores with the client.
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { spawn } from 'node:child_process';
import { request, scrape } from './server.mjs';
import { generateEvents } from './generate.mjs';
import { DATASET, QUERIES } from './queries.mjs';

const require = createRequire(import.meta.url);
const { LocalCluster, waitForCompaction } = require('../libs/local-cluster/dist/index.js');

const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : dflt);
const EVENTS = Number(opt('events', '1000000'));
const BATCH = Number(opt('batch', '5000'));
const CONCURRENCY = Number(opt('concurrency', '4'));
const REPS = Number(opt('reps', '5'));
const PROBES = Number(opt('probes', '200'));
const LOCAL_S3 = opt('s3', 'fake');
const CPU_METRIC = 'quarry_process_process_cpu_seconds_total';
const TOKEN = 'xaat-bench-cluster-000000000001';

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const percentile = (xs, p) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))];
const fmt = (n) => Math.round(n).toLocaleString('en');
const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });

async function main() {
  console.log(
    `${fmt(EVENTS)} events, batches of ${BATCH}, ${CONCURRENCY} in flight, ${os.availableParallelism()} CPUs`,
  );
  const batches = [];
  let lines = [];
  for (const line of generateEvents(EVENTS)) {
    lines.push(line);
    if (lines.length === BATCH) {
      batches.push(Buffer.from(lines.join('\n')));
      lines = [];
    }
  }
  if (lines.length) batches.push(Buffer.from(lines.join('\n')));

  // --- the standalone server, as `npm run bench` runs it (one worker thread each, like the cluster's nodes)
  const standaloneDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-bench-standalone-'));
  const results = { standalone: {}, cluster: {} };
  let standalone = await startStandalone(standaloneDir);
  try {
    results.standalone.ingest = await ingestAll(standalone, batches);
    await settleStandalone(standalone);
    results.standalone.freshness = await freshness(standalone);
    results.standalone.warm = await queryWarm(standalone);
    // Cold: each query once on a process just started over the same data (its caches empty; the OS page
    // cache still holds the block files, as it would on a server that restarted).
    results.standalone.cold = {};
    for (const [name, apl] of QUERIES) {
      await standalone.stop();
      standalone = await startStandalone(standaloneDir);
      const t0 = performance.now();
      await query(standalone, apl);
      results.standalone.cold[name] = performance.now() - t0;
    }
  } finally {
    await standalone.stop();
    fs.rmSync(standaloneDir, { recursive: true, force: true });
  }

  // --- the cluster
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-bench-cluster-'));
  fs.chmodSync(dataDir, 0o755);
  const cluster = await LocalCluster.start({
    dataDir,
    bootstrapToken: TOKEN,
    localS3: LOCAL_S3,
    env: { QUARRY_LOG_LEVEL: 'warn', QUARRY_MERGE_INTERVAL_MS: '1000' },
  });
  const many = {
    url: cluster.url,
    token: TOKEN,
    cpuUrls: cluster
      .processes()
      .filter((p) => p.role !== 'gateway')
      .map((p) => p.url),
  };
  try {
    results.cluster.ingest = await ingestAll(many, batches);
    const settled = performance.now();
    await waitForCompaction(
      {
        metastoreUrl: cluster.metastoreUrl,
        brokers: cluster.kafkaBrokers,
        topics: { events: 'quarry-ingest', metrics: 'quarry-metrics' },
      },
      600_000,
    );
    results.cluster.compactionSeconds = (performance.now() - settled) / 1000;
    await settleMerges(many);
    results.cluster.freshness = await freshness(many);
    results.cluster.warm = await queryWarm(many);
    results.cluster.cold = await queryCold(many, cluster);
  } finally {
    await cluster.stop(0);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  report(results);
}

/** Sends every batch with CONCURRENCY in flight; wall-clock rate and the servers' CPU (all role processes). */
async function ingestAll(target, requests) {
  await fetch(`${target.url}/v2/datasets`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${target.token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: DATASET }),
  });
  const cpu0 = await cpuOf(target);
  let next = 0;
  let events = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < requests.length) {
        const body = requests[next++];
        const res = await request(
          `${target.url}/v1/ingest/${DATASET}`,
          {
            method: 'POST',
            agent,
            headers: {
              Authorization: `Bearer ${target.token}`,
              'Content-Type': 'application/x-ndjson',
              'Content-Length': body.length,
            },
          },
          body,
        );
        if (res.status !== 200) throw new Error(`ingest failed: ${res.status} ${res.text}`);
        events += JSON.parse(res.text).ingested;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpuSeconds = (await cpuOf(target)) - cpu0;
  return { events, seconds, rate: events / seconds, cpuSeconds };
}

/** The standalone server over `dataDir` (kept across restarts), one worker thread of each kind. */
async function startStandalone(dataDir) {
  const main = path.join(
    path.dirname(new URL(import.meta.url).pathname),
    '..',
    'apps',
    'standalone',
    'dist',
    'main.js',
  );
  const port = 30000 + Math.floor(Math.random() * 20000);
  const child = spawn(process.execPath, ['--initial-old-space-size=128', main], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      QUARRY_DATA_DIR: dataDir,
      QUARRY_BOOTSTRAP_TOKEN: TOKEN,
      QUARRY_LOG_LEVEL: 'warn',
      QUARRY_WORKER_THREADS: '1',
      QUARRY_QUERY_WORKERS: '1',
      QUARRY_MERGE_INTERVAL_MS: '1000',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(`${url}/readyz`)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    token: TOKEN,
    cpuUrls: [url],
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    },
  };
}

async function cpuOf(target) {
  let total = 0;
  for (const url of target.cpuUrls) total += await scrape(url, CPU_METRIC);
  return total;
}

async function settleStandalone(target) {
  for (let i = 0; i < 6000; i++) {
    const ready = await (await fetch(`${target.url}/readyz`)).json();
    if (ready.uncompactedRows === 0) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  await settleMerges(target);
}

/** Waits until the block count stops changing for 3 s (merges settled), as `npm run bench` does. */
async function settleMerges(target) {
  let blocks = NaN;
  for (let stable = 0, i = 0; stable < 3 && i < 300; i++) {
    await new Promise((r) => setTimeout(r, 1000));
    let now = 0;
    for (const url of target.cpuUrls) now = Math.max(now, await scrape(url, 'quarry_blocks'));
    stable = now === blocks ? stable + 1 : 0;
    blocks = now;
  }
}

async function query(target, apl) {
  const res = await fetch(`${target.url}/v1/datasets/_apl?format=tabular`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${target.token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ apl, startTime: '2000-01-01T00:00:00Z', endTime: '2100-01-01T00:00:00Z' }),
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`${res.status} ${JSON.stringify(json)}`);
  return json;
}

/**
 * Freshness: one event per probe with a unique marker, acknowledged, then queried until an answer holds
 * it. The time from the ack to the first such answer, and how many answers it took (read-your-writes
 * says one).
 */
async function freshness(target) {
  const dataset = 'bench-freshness';
  await fetch(`${target.url}/v2/datasets`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${target.token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: dataset }),
  });
  const times = [];
  let extraQueries = 0;
  for (let i = 0; i < PROBES; i++) {
    const marker = `probe-${i}-${Math.random().toString(36).slice(2)}`;
    const res = await fetch(`${target.url}/v1/ingest/${dataset}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${target.token}`, 'Content-Type': 'application/x-ndjson' },
      body: JSON.stringify({ marker }),
    });
    await res.arrayBuffer();
    const acked = performance.now();
    for (let attempt = 0; ; attempt++) {
      const answer = await query(target, `['${dataset}'] | where marker == '${marker}' | count`);
      if (answer.tables[0].columns[0][0] === 1) break;
      extraQueries++;
      if (attempt > 1000) throw new Error('a probe never became visible');
    }
    times.push(performance.now() - acked);
  }
  return { p50: percentile(times, 50), p99: percentile(times, 99), extraQueries };
}

async function queryWarm(target) {
  const out = {};
  for (const [, apl] of QUERIES) await query(target, apl); // warm-up round
  for (const [name, apl] of QUERIES) {
    const ms = [];
    for (let rep = 0; rep < REPS; rep++) {
      const t0 = performance.now();
      await query(target, apl);
      ms.push(performance.now() - t0);
    }
    out[name] = median(ms);
  }
  return out;
}

/** Each query once on query nodes just restarted with their disk caches wiped: every block from S3. */
async function queryCold(target, cluster) {
  const out = {};
  for (const [name, apl] of QUERIES) {
    for (const node of cluster.nodesOf('query')) {
      await node.stop('SIGTERM');
      fs.rmSync(path.join(node.options.dir, 'object-cache'), { recursive: true, force: true });
      await node.start();
    }
    await new Promise((r) => setTimeout(r, 1500)); // the gateway's probes see them again
    const t0 = performance.now();
    await query(target, apl);
    out[name] = performance.now() - t0;
  }
  return out;
}

function report({ standalone, cluster }) {
  const s = standalone.ingest;
  const c = cluster.ingest;
  console.log(
    `\ningest, standalone: ${fmt(s.rate)} events/s (${s.seconds.toFixed(1)} s; server CPU ${s.cpuSeconds.toFixed(1)} s = ${fmt(s.events / s.cpuSeconds)} events per CPU-second)`,
  );
  console.log(
    `ingest, cluster through the gateway: ${fmt(c.rate)} events/s (${c.seconds.toFixed(1)} s; CPU of the role processes ${c.cpuSeconds.toFixed(1)} s = ${fmt(c.events / c.cpuSeconds)} events per CPU-second) = ${(c.rate / s.rate).toFixed(2)}x the standalone`,
  );
  console.log(`cluster compaction caught up ${cluster.compactionSeconds.toFixed(1)} s after the last ack`);
  for (const [name, f] of [
    ['standalone', standalone.freshness],
    ['cluster', cluster.freshness],
  ])
    console.log(
      `freshness (ack → in a query's answer), ${name}: p50 ${f.p50.toFixed(1)} ms, p99 ${f.p99.toFixed(1)} ms over ${PROBES} probes; queries that missed the event: ${f.extraQueries}`,
    );
  console.log(
    '\n| query | standalone warm ms | cluster warm ms | cluster/standalone | standalone cold ms | cluster cold ms |\n|---|---:|---:|---:|---:|---:|',
  );
  const warm = [];
  const cold = [];
  for (const [name] of QUERIES) {
    const a = standalone.warm[name];
    const b = cluster.warm[name];
    warm.push(b / a);
    cold.push(cluster.cold[name] / standalone.cold[name]);
    console.log(
      `| ${name} | ${a.toFixed(1)} | ${b.toFixed(1)} | ${(b / a).toFixed(2)} | ${standalone.cold[name].toFixed(1)} | ${cluster.cold[name].toFixed(1)} |`,
    );
  }
  const geomean = (xs) => Math.exp(xs.reduce((x, r) => x + Math.log(r), 0) / xs.length);
  console.log(
    `\ngeometric mean cluster/standalone: warm ${geomean(warm).toFixed(2)}x, cold ${geomean(cold).toFixed(2)}x`,
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
