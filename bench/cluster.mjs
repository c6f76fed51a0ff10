// The cluster against the standalone server, on this machine, with the same events (issue 13's figures):
// ingest through the gateway vs the standalone, freshness (ack → visible to a query) p50/p99, and warm and
// cold (empty caches) query latency of the bench's queries; then scale-out (issue 14): the same queries
// on one query node with the other one there (summarizes split over both) and stopped (alone), and the
// coordinator's overhead on a tiny query.
//
//   npm run build && node bench/cluster.mjs [--events 1000000] [--batch 5000] [--concurrency 4] [--reps 5]
//                                           [--probes 200] [--s3 fake|radosgw] [--only scale-out]
//
// The cluster is LocalCluster (what `npm run cluster` starts): 2 ingest, 2 compactor, 2 query nodes, 1
// management node and the gateway, over PostgreSQL, librdkafka's mock Kafka and an S3 fake (or Ceph
// radosgw), every process with one worker thread and the standalone's default column cache. All of it
// shares this machine's cores with the client.
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
const ONLY_SCALE_OUT = opt('only', '') === 'scale-out';
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
  let standalone = ONLY_SCALE_OUT ? null : await startStandalone(standaloneDir);
  if (standalone)
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
    }
  fs.rmSync(standaloneDir, { recursive: true, force: true });

  // --- the cluster
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-bench-cluster-'));
  fs.chmodSync(dataDir, 0o755);
  const cluster = await LocalCluster.start({
    dataDir,
    bootstrapToken: TOKEN,
    localS3: LOCAL_S3,
    env: {
      QUARRY_LOG_LEVEL: 'warn',
      QUARRY_MERGE_INTERVAL_MS: '1000',
      // The standalone's defaults on this machine (LocalCluster keeps nodes small for laptops): a query
      // worker's decoded-column cache of 2 GiB, so one node can hold every column these queries read.
      QUARRY_COLUMN_CACHE_BYTES: String(4 * 1024 ** 3),
      QUARRY_QUERY_WORKER_HEAP_MB: '6144',
    },
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
    const ingested = await ingestAll(many, batches);
    if (!ONLY_SCALE_OUT) results.cluster.ingest = ingested;
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
    if (!ONLY_SCALE_OUT) {
      results.cluster.freshness = await freshness(many);
      results.cluster.warm = await queryWarm(many);
      results.cluster.cold = await queryCold(many, cluster);
    }
    results.scaleOut = await scaleOut(cluster);
  } finally {
    await cluster.stop(0);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  if (ONLY_SCALE_OUT) reportScaleOut(results.scaleOut);
  else report(results);
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

async function query(target, apl, explain = false) {
  const res = await fetch(`${target.url}/v1/datasets/_apl?format=tabular${explain ? '&explain=true' : ''}`, {
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

/**
 * Scale-out: every query sent to the first query node (the coordinator), warm, with the second query node
 * up (splittable summarizes dealt over both, each node one worker thread) and then stopped (the first
 * alone). Plus a tiny query (10 events, never split) both ways: what coordinating costs.
 */
async function scaleOut(cluster) {
  const [first, second] = cluster.nodesOf('query');
  const direct = { url: first.url, token: TOKEN };
  await ingestTiny(cluster.url);
  const tiny = `['bench-tiny'] | summarize count() by k`;
  const measure = async () => ({ warm: await queryWarm(direct), tiny: await tinyLatency(direct, tiny) });
  const split = await measure();
  const splitNodes = (await query(direct, QUERIES[2][1], true)).status.nodes.length;
  // Who did what for one scan-heavy query: each share's node, blocks, rows and time.
  const sample = (await query(direct, QUERIES.find(([name]) => name === 'contains')[1], true)).status.nodes;
  await second.stop('SIGTERM'); // leaves the membership as it stops
  await new Promise((r) => setTimeout(r, 2500)); // the next heartbeat of the first node sees it gone
  const alone = await measure();
  await second.start();
  return { split, alone, splitNodes, sample };
}

async function ingestTiny(url) {
  const headers = { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' };
  await fetch(`${url}/v2/datasets`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ name: 'bench-tiny' }),
  });
  const events = Array.from({ length: 10 }, (_, i) => ({ k: i % 3 }));
  const res = await fetch(`${url}/v1/ingest/bench-tiny`, {
    method: 'POST',
    headers,
    body: JSON.stringify(events),
  });
  if (!res.ok) throw new Error(`tiny ingest failed: ${res.status}`);
}

/** Median of 50 runs of a tiny query (after 10 to warm up). */
async function tinyLatency(target, apl) {
  for (let i = 0; i < 10; i++) await query(target, apl);
  const ms = [];
  for (let i = 0; i < 50; i++) {
    const t0 = performance.now();
    await query(target, apl);
    ms.push(performance.now() - t0);
  }
  return median(ms);
}

function reportScaleOut({ split, alone, splitNodes, sample }) {
  console.log(
    `
scale-out: each query sent to query-1, with query-2 up (summaries split over ${splitNodes} nodes) vs query-2 stopped
` + '| query | 1 node ms | 2 nodes ms | 2 nodes / 1 node |\n|---|---:|---:|---:|',
  );
  const ratios = [];
  for (const [name] of QUERIES) {
    const ratio = split.warm[name] / alone.warm[name];
    ratios.push(ratio);
    console.log(
      `| ${name} | ${alone.warm[name].toFixed(1)} | ${split.warm[name].toFixed(1)} | ${ratio.toFixed(2)} |`,
    );
  }
  const geomean = Math.exp(ratios.reduce((x, r) => x + Math.log(r), 0) / ratios.length);
  console.log(`shares of one 'contains' query: ${JSON.stringify(sample)}`);
  console.log(`geometric mean 2 nodes / 1 node: ${geomean.toFixed(2)}x`);
  console.log(
    `tiny query (10 events) median: 1 node ${alone.tiny.toFixed(2)} ms, 2 nodes ${split.tiny.toFixed(2)} ms (coordinator overhead ${(split.tiny - alone.tiny).toFixed(2)} ms)`,
  );
}

function report({ standalone, cluster, scaleOut }) {
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
  reportScaleOut(scaleOut);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
