// `percentile(req_duration_ms, 95) by server_datacenter` without a server: bench-shaped values (the
// generator's `round(rnd() * rnd() * 2000 * 1000) / 1000`, 8 datacenters) fed to the engine's
// PercentileAggregator in batches of merged-block size by --workers partials (each a contiguous share of
// the events, run one after the other here); each partial crosses a thread the way a worker's does
// (prepareForTransfer, structured clone, classes restored) and the main thread merges and finishes them.
// Prints the wall time of each phase (summed over partials; median of --reps) and checks every answer
// against a sort.
//
//   npm run build && node bench/percentile-repro.mjs [--events 10000000] [--batch 131072] [--workers 1] [--reps 3] [--unrounded]
//   node --cpu-prof bench/percentile-repro.mjs --reps 1     # a profile of one run
import { createRequire } from 'node:module';
import { mulberry32 } from './generate.mjs';

const require = createRequire(import.meta.url);
// QUARRY_QUERY_EXEC_DIST: another build of libs/query-exec/dist (an older commit's, to compare).
const dist = process.env.QUARRY_QUERY_EXEC_DIST ?? '../libs/query-exec/dist';
const { PercentileAggregator } = require(`${dist}/aggregates/sketch-aggregators.js`);
const { packInstances, unpackInstances } = require(`${dist}/aggregates/state-transfer.js`);

const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : dflt);
const EVENTS = Number(opt('events', '10000000'));
const BATCH = Number(opt('batch', '131072'));
const REPS = Number(opt('reps', '3'));
const WORKERS = Number(opt('workers', '1'));
// --unrounded: the durations without the rounding to thousandths (values a sketch must hold as float64s).
const UNROUNDED = args.includes('--unrounded');
const GROUPS = 8;
const P = 95;

const rnd = mulberry32(42);
const values = new Float64Array(EVENTS);
const groupIds = new Int32Array(EVENTS);
for (let i = 0; i < EVENTS; i++) {
  const v = rnd() * rnd() * 2000;
  values[i] = UNROUNDED ? v : Math.round(v * 1000) / 1000;
  groupIds[i] = Math.floor(rnd() * GROUPS);
}

// The reference: nearest rank over each group's sorted values.
const expected = [];
for (let g = 0; g < GROUPS; g++) {
  const mine = values.filter((_, i) => groupIds[i] === g).sort();
  expected.push(mine[Math.min(mine.length, Math.max(1, Math.ceil((P / 100) * mine.length))) - 1]);
}

const ms = (t0) => Number(process.hrtime.bigint() - t0) / 1e6;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function run() {
  const t0 = process.hrtime.bigint();
  let tUpdate = 0;
  let tTransfer = 0;
  const received = [];
  for (let w = 0; w < WORKERS; w++) {
    const t1 = process.hrtime.bigint();
    const agg = new PercentileAggregator([P], 'one');
    const end = Math.floor(((w + 1) * EVENTS) / WORKERS);
    for (let start = Math.floor((w * EVENTS) / WORKERS); start < end; start += BATCH) {
      const n = Math.min(BATCH, end - start);
      const column = { kind: 'real', values: values.subarray(start, start + n), nulls: null };
      agg.update(groupIds.subarray(start, start + n), n, [column], null);
    }
    tUpdate += ms(t1);
    const t2 = process.hrtime.bigint();
    agg.prepareForTransfer();
    received.push(unpackInstances(structuredClone(packInstances([agg])))[0]);
    tTransfer += ms(t2);
  }
  const t3 = process.hrtime.bigint();
  const main = new PercentileAggregator([P], 'one');
  const identity = Array.from({ length: GROUPS }, (_, g) => g);
  for (const partial of received) main.merge(partial, identity);
  const [out] = main.finish(GROUPS);
  const tFinish = ms(t3);
  return { tUpdate, tTransfer, tFinish, tTotal: ms(t0), answers: out.values };
}

const runs = [];
for (let r = 0; r < REPS; r++) runs.push(run());
const worst = Math.max(...runs[0].answers.map((a, g) => Math.abs(a - expected[g]) / expected[g]));
const f = (k) =>
  median(runs.map((x) => x[k]))
    .toFixed(0)
    .padStart(6);
console.log(
  `${EVENTS} values, ${GROUPS} groups, ${WORKERS} partial(s), batch ${BATCH}, median of ${REPS}: update ${f('tUpdate')} ms, ` +
    `transfer ${f('tTransfer')} ms, merge+finish ${f('tFinish')} ms, total ${f('tTotal')} ms; ` +
    `worst relative error vs exact ${worst.toExponential(2)}${worst === 0 ? ' (exact)' : ''}`,
);
