// Ingest + query benchmark over HTTP against the standalone server.
//
//   npm run bench -- [--events 1000000] [--batch 5000] [--concurrency 2] [--reps 5]
//   QUARRY_URL=http://127.0.0.1:8080 QUARRY_TOKEN=xaat-... npm run bench   (use a running server)
//
// Without QUARRY_URL it builds nothing: it starts apps/standalone/dist/main.js (run `npm run build` first)
// on a free port with a temporary data directory, and removes it afterwards. Prints ingest events/s and MB/s,
// then per-query median latency over --reps runs. A DuckDB comparison comes with the performance work (bench/README.md).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { scrape, startServer } from './server.mjs';
import { COMPARE, compareAnswers, openDuckDb, SQL } from './duckdb-side.mjs';
import { generateEvents } from './generate.mjs';
import { DATASET, QUERIES } from './queries.mjs';

const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : dflt);
const EVENTS = Number(opt('events', '1000000'));
const BATCH = Number(opt('batch', '5000'));
const CONCURRENCY = Number(opt('concurrency', '2'));
const REPS = Number(opt('reps', '5'));

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function main() {
  // Merge often so the queries below run on merged blocks, as a server that has run a while does.
  const server = await startServer('quarry-bench-', { QUARRY_MERGE_INTERVAL_MS: '1000' });
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-bench-duck-'));
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
    console.log(
      `compaction caught up ${((performance.now() - settleStarted) / 1000).toFixed(1)} s after the last ack`,
    );
    const blocksLine = async (when) => {
      const bytes = await scrape(server.url, 'quarry_block_bytes');
      const count = await scrape(server.url, 'quarry_blocks');
      console.log(
        `Quarry blocks ${when}: ${count} blocks, ${(bytes / 1e6).toFixed(1)} MB = ${(rawBytes / bytes).toFixed(1)}x smaller than the NDJSON`,
      );
    };
    await blocksLine('fresh');
    // Wait for the merge loop to settle (the block count stops changing for 3 s).
    let blocks = await scrape(server.url, 'quarry_blocks');
    for (let stable = 0, i = 0; stable < 3 && i < 300; i++) {
      await new Promise((r) => setTimeout(r, 1000));
      const now = await scrape(server.url, 'quarry_blocks');
      stable = now === blocks ? stable + 1 : 0;
      blocks = now;
    }
    await blocksLine('after merging');

    // DuckDB on the same events, one thread, loaded from the same NDJSON (unless --no-duckdb).
    let duck = null;
    if (!args.includes('--no-duckdb')) {
      const ndjson = path.join(scratch, 'events.ndjson');
      // Batch by batch: all events in one string would exceed V8's string limit at 5M events.
      const fd = fs.openSync(ndjson, 'w');
      for (const b of batches) fs.writeSync(fd, b + '\n');
      fs.closeSync(fd);
      duck = await openDuckDb(scratch, ndjson);
      const duckRate = ingested / duck.loadSeconds;
      console.log(
        `DuckDB load (threads=1, explicit schema, CHECKPOINT): ${Math.round(duckRate).toLocaleString('en')} events/s; ` +
          `Quarry ingest / DuckDB load = ${(ingested / seconds / duckRate).toFixed(2)}x`,
      );
      console.log(
        `DuckDB file: ${(duck.fileBytes / 1e6).toFixed(1)} MB = ${(rawBytes / duck.fileBytes).toFixed(1)}x smaller than the NDJSON`,
      );
    }

    const body = (apl) =>
      JSON.stringify({ apl, startTime: '2000-01-01T00:00:00Z', endTime: '2100-01-01T00:00:00Z' });
    const runQuarry = async (name, apl) => {
      const res = await fetch(`${server.url}/v1/datasets/_apl?format=tabular`, {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/json' },
        body: body(apl),
      });
      const json = await res.json();
      if (!res.ok) throw new Error(`${name}: ${res.status} ${JSON.stringify(json)}`);
      return json;
    };
    const timed = async (fn) => {
      const t0 = performance.now();
      const result = await fn();
      return { ms: performance.now() - t0, result };
    };

    console.log(
      `\n| query | Quarry ms | DuckDB ms (t=1) | Quarry/DuckDB | answers |\n|---|---:|---:|---:|---|`,
    );
    const ratios = [];
    for (const [name, apl] of QUERIES) {
      const ours = [];
      const theirs = [];
      // One untimed warm-up each, then interleaved repetitions.
      const first = await runQuarry(name, apl);
      const duckFirst = duck ? await duck.query(COMPARE[name]?.checkSql ?? SQL[name]) : null;
      for (let rep = 0; rep < REPS; rep++) {
        ours.push((await timed(() => runQuarry(name, apl))).ms);
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
    duck?.close();
  } finally {
    await server.stop();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
