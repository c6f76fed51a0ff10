// Block size and codec speed on the bench events, without a server:
//
//   npm run build && node bench/block-size.mjs [--events 131072] [--fresh 32768] [--record 5000] [--reps 3]
//
// Generates events with generate.mjs (spread as for a 1M-event run, so `_time` has the bench's density),
// parses them as ingest does in records of `--record` events (one `_sysTime` each), then builds blocks as
// the compactor does (concatenate the records' batches, sort by `_time`, encodeBlock): fresh blocks of
// `--fresh` rows, and one merged block of all `--events` rows built from the decoded fresh blocks as the
// merger does. Prints per-column bytes per row (token filter included), the ratio against the NDJSON, and
// single-threaded encode and decode rates (CPU time, best of --reps). `--options '{"compression":"none"}'` passes encoder options (JSON).
import { decodeBlock, encodeBlock, readFooter } from '@quarry/block-format';
import { batchFromEvents, concatEventBatches, selectRows, timeOrder } from '@quarry/contracts';
import { parseIngestBody } from '@quarry/ingest-core';
import { generateEvents } from './generate.mjs';

const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : dflt);
const total = Number(opt('events', '131072'));
const freshRows = Number(opt('fresh', '32768'));
const recordSize = Number(opt('record', '5000'));
const reps = Number(opt('reps', '3'));
const options = JSON.parse(opt('options', '{}'));

/** What the compactor's buildBlock does before encoding: concatenate, then sort rows by `_time`. */
function sortedBatch(batches) {
  const all = concatEventBatches(batches);
  const order = timeOrder(all);
  return order === null ? all : selectRows(all, order);
}

/**
 * Best of `reps` runs of `run`, in seconds of process CPU time (user + system): on a machine shared with
 * other work, wall time measures the neighbours. Single-threaded code, so this is the time one core
 * spends (GC helper threads included).
 */
function bestSeconds(run) {
  let best = Infinity;
  for (let r = 0; r < reps; r++) {
    const start = process.cpuUsage();
    run();
    const used = process.cpuUsage(start);
    best = Math.min(best, (used.user + used.system) / 1e6);
  }
  return best;
}

/**
 * CPU time of a fixed integer loop, printed with the results: rates from a shared or throttled machine
 * can then be compared with rates from another (an unloaded 2–3 GHz core: roughly 50–100 ms).
 */
function calibrationMs() {
  const start = process.cpuUsage();
  let x = 0;
  for (let i = 0; i < 1e8; i++) x = (x + i * 7) | 0;
  const used = process.cpuUsage(start);
  return [(used.user + used.system) / 1000, x];
}

const T_END = Date.UTC(2024, 4, 2);
const records = [];
let ndjsonBytes = 0;
let lines = [];
const flush = () => {
  const sysTime = T_END + records.length * 1000;
  const text = lines.join('\n');
  const { events } = parseIngestBody(Buffer.from(text), { nowMs: sysTime });
  records.push({ batch: batchFromEvents(events, sysTime), ndjson: Buffer.byteLength(text) + 1 });
  lines = [];
};
let generated = 0;
for (const line of generateEvents(1_000_000, { endMs: T_END })) {
  lines.push(line);
  ndjsonBytes += Buffer.byteLength(line) + 1;
  if (lines.length === recordSize) flush();
  if (++generated === total) break;
}
if (lines.length > 0) flush();

/** Encodes, decodes and reports one block built from `batches`. */
function measure(label, batches, ndjson) {
  const batch = sortedBatch(batches);
  const n = batch.length;
  let bytes;
  const encodeS = bestSeconds(() => {
    bytes = encodeBlock(batch, options);
  });
  const decodeS = bestSeconds(() => decodeBlock(bytes));
  const footer = readFooter(bytes);
  const perColumn = footer.columns
    .map((c) => ({ name: c.name, bytes: c.length + (c.filterLength ?? 0), c }))
    .sort((a, b) => b.bytes - a.bytes);
  console.log(`\n${label}: ${n} rows, ${bytes.length} B = ${(bytes.length / n).toFixed(2)} B/row`);
  console.log(
    `  NDJSON ${(ndjson / n).toFixed(1)} B/row → ${(ndjson / bytes.length).toFixed(2)}× smaller; ` +
      `encode ${((n / encodeS) * 1e-6).toFixed(2)}M rows/s (${(encodeS * 1000).toFixed(1)} ms), ` +
      `decode ${((n / decodeS) * 1e-6).toFixed(2)}M rows/s (${(decodeS * 1000).toFixed(1)} ms)`,
  );
  for (const { name, bytes: b, c } of perColumn) {
    const filter = c.filterLength ? ` (filter ${(c.filterLength / n).toFixed(3)})` : '';
    console.log(
      `  ${name.padEnd(24)} ${(b / n).toFixed(3).padStart(7)} B/row${filter}  ${c.encoding}/${c.compression}`,
    );
  }
  return bytes;
}

// Fresh blocks: consecutive records up to `freshRows` rows each, as a compactor tick would see them.
const freshBlocks = [];
for (let i = 0; i < records.length;) {
  const group = [];
  let rows = 0;
  let ndjson = 0;
  while (i < records.length && (rows === 0 || rows + records[i].batch.length <= freshRows)) {
    group.push(records[i].batch);
    rows += records[i].batch.length;
    ndjson += records[i].ndjson;
    i++;
  }
  freshBlocks.push({ group, ndjson });
}
const first = freshBlocks[0];
const firstBytes = measure('fresh block', first.group, first.ndjson);
const freshEncoded = [firstBytes];
for (const { group } of freshBlocks.slice(1)) freshEncoded.push(encodeBlock(sortedBatch(group), options));
const freshTotal = freshEncoded.reduce((s, b) => s + b.length, 0);
console.log(
  `\n${freshBlocks.length} fresh blocks: ${(freshTotal / total).toFixed(2)} B/row, ` +
    `${(ndjsonBytes / freshTotal).toFixed(2)}× smaller than the NDJSON`,
);

measure(
  'merged block',
  freshEncoded.map((b) => decodeBlock(b)),
  ndjsonBytes,
);
console.log(
  `\ncalibration: 1e8 iterations of an integer loop took ${calibrationMs()[0].toFixed(0)} ms of CPU`,
);
