// Ingest + query benchmark over HTTP against the standalone server.
//
//   npm run bench -- [--events 1000000] [--batch 5000] [--concurrency 2] [--reps 5]
//   QUARRY_URL=http://127.0.0.1:8080 QUARRY_TOKEN=xaat-... npm run bench   (use a running server)
//
// Without QUARRY_URL it builds nothing: it starts apps/standalone/dist/main.js (run `npm run build` first)
// on a free port with a temporary data directory, and removes it afterwards. Prints ingest events/s and MB/s,
// then per-query median latency over --reps runs. A DuckDB comparison comes with the performance work (bench/README.md).
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateEvents } from './generate.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : dflt);
const EVENTS = Number(opt('events', '1000000'));
const BATCH = Number(opt('batch', '5000'));
const CONCURRENCY = Number(opt('concurrency', '2'));
const REPS = Number(opt('reps', '5'));
const DATASET = 'bench-http-logs';

export const QUERIES = [
  ['count', `['${DATASET}'] | count`],
  ['filter-eq-count', `['${DATASET}'] | where status == '500' | count`],
  ['group-by-status', `['${DATASET}'] | summarize count() by status`],
  ['group-by-country', `['${DATASET}'] | summarize count() by ['geo.country']`],
  ['avg-by-method', `['${DATASET}'] | summarize avg(req_duration_ms) by method`],
  ['count-by-minute', `['${DATASET}'] | summarize count() by bin(_time, 1m)`],
  ['dcount-id', `['${DATASET}'] | summarize dcount(id)`],
  ['p95-by-dc', `['${DATASET}'] | summarize percentile(req_duration_ms, 95) by server_datacenter`],
  ['top-uris', `['${DATASET}'] | summarize c = count() by uri | top 10 by c`],
  ['contains', `['${DATASET}'] | where message contains 'timeout' | count`],
  ['contains-cs', `['${DATASET}'] | where message contains_cs 'timeout' | count`],
  ['has', `['${DATASET}'] | where message has 'timeout' | count`],
  ['recent-404s', `['${DATASET}'] | where status == '404' | sort by _time desc | take 100`],
];

async function startServer() {
  if (process.env.QUARRY_URL)
    return { url: process.env.QUARRY_URL, token: process.env.QUARRY_TOKEN, stop: async () => {} };
  const main = path.join(HERE, '..', 'apps', 'standalone', 'dist', 'main.js');
  if (!fs.existsSync(main))
    throw new Error('run `npm run build` first (apps/standalone/dist/main.js is missing)');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-bench-'));
  const token = 'xaat-bench-0000000000000001';
  const port = 30000 + Math.floor(Math.random() * 20000);
  const child = spawn(process.execPath, [main], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      QUARRY_DATA_DIR: dataDir,
      QUARRY_BOOTSTRAP_TOKEN: token,
      QUARRY_LOG_LEVEL: 'warn',
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
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function dirBytes(dir) {
  let total = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    total += entry.isDirectory() ? dirBytes(full) : fs.statSync(full).size;
  }
  return total;
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function main() {
  const server = await startServer();
  const headers = { Authorization: `Bearer ${server.token}` };
  try {
    await fetch(`${server.url}/v2/datasets`, {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: DATASET }),
    });

    // Pre-generate batches so the generator's cost is not measured.
    const batches = [];
    let lines = [];
    let rawBytes = 0;
    for (const line of generateEvents(EVENTS)) {
      lines.push(line);
      if (lines.length === BATCH) {
        batches.push(lines.join('\n'));
        lines = [];
      }
    }
    if (lines.length) batches.push(lines.join('\n'));
    for (const b of batches) rawBytes += Buffer.byteLength(b);

    let next = 0;
    let ingested = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < batches.length) {
          const body = batches[next++];
          const res = await fetch(`${server.url}/v1/ingest/${DATASET}`, {
            method: 'POST',
            headers: { ...headers, 'Content-Type': 'application/x-ndjson' },
            body,
          });
          if (!res.ok) throw new Error(`ingest failed: ${res.status} ${await res.text()}`);
          ingested += (await res.json()).ingested;
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `ingest: ${ingested} events, ${(rawBytes / 1e6).toFixed(1)} MB in ${seconds.toFixed(2)} s = ` +
        `${Math.round(ingested / seconds).toLocaleString('en')} events/s, ${(rawBytes / 1e6 / seconds).toFixed(1)} MB/s ` +
        `(batch ${BATCH}, concurrency ${CONCURRENCY}, durable: fsync before each 200)`,
    );

    // Measure queries in steady state: wait until the compactor has turned the log tail into blocks.
    const settleStarted = performance.now();
    for (let i = 0; i < 600; i++) {
      const ready = await (await fetch(`${server.url}/readyz`)).json();
      if (ready.uncompactedRows === 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    if (server.dataDir) {
      const blockBytes = dirBytes(path.join(server.dataDir, 'objects'));
      console.log(
        `blocks on disk: ${(blockBytes / 1e6).toFixed(1)} MB = ${(rawBytes / blockBytes).toFixed(1)}x smaller than the NDJSON`,
      );
    }
    console.log(
      `compaction caught up ${((performance.now() - settleStarted) / 1000).toFixed(1)} s after the last ack`,
    );

    const body = (apl) =>
      JSON.stringify({ apl, startTime: '2000-01-01T00:00:00Z', endTime: '2100-01-01T00:00:00Z' });
    console.log(`\n| query | median ms (${REPS} runs) | rows examined |\n|---|---:|---:|`);
    for (const [name, apl] of QUERIES) {
      const times = [];
      let examined = 0;
      for (let rep = 0; rep < REPS + 1; rep++) {
        const t0 = performance.now();
        const res = await fetch(`${server.url}/v1/datasets/_apl?format=tabular`, {
          method: 'POST',
          headers: { ...headers, 'Content-Type': 'application/json' },
          body: body(apl),
        });
        const json = await res.json();
        if (!res.ok) throw new Error(`${name}: ${res.status} ${JSON.stringify(json)}`);
        if (rep > 0) times.push(performance.now() - t0); // first run warms caches
        examined = json.status.rowsExamined;
      }
      console.log(`| ${name} | ${median(times).toFixed(1)} | ${examined.toLocaleString('en')} |`);
    }
  } finally {
    await server.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
