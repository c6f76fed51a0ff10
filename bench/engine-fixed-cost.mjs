// The engine's share of a query's fixed cost, in process (no HTTP): `runApl` over a 10-event in-memory
// dataset, µs per query, with the parse cache and with it emptied before every run (every run parses,
// as before the cache). Rounds alternate between the two; medians of the rounds are printed.
//
//   npm run build && node bench/engine-fixed-cost.mjs [--runs 2000] [--rounds 7]
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { runApl, referencedDatasets, MemoryCatalog, parseCache } = require('@quarry/query');

const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : dflt);
const RUNS = Number(opt('runs', '2000'));
const ROUNDS = Number(opt('rounds', '7'));

const T0 = Date.UTC(2024, 4, 1);
const catalog = new MemoryCatalog({
  ds: Array.from({ length: 10 }, (_, i) => ({
    _time: new Date(T0 + i * 60_000).toISOString(),
    status: i % 3 === 0 ? 500 : 200,
    message: `event ${i}`,
  })),
});
const QUERIES = [
  ['take 1', "['ds'] | take 1"],
  ['count', "['ds'] | count"],
  ['summarize by', "['ds'] | summarize count() by status"],
  ['where take', "['ds'] | where status == 200 | take 5"],
  [
    'dashboard-like',
    "['ds'] | where status >= 500 and message contains 'event' | summarize n = count(), a = avg(status) by bin(_time, 1m) | sort by n desc | take 10",
  ],
];
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function perQuery(apl, cached) {
  const opts = { startMs: T0, endMs: T0 + 86_400_000, nowMs: T0 + 86_400_000, catalog };
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < RUNS; i++) {
    if (!cached) parseCache.clear();
    // As the HTTP endpoint does: the access check parses the text, then the run.
    referencedDatasets(apl, ['ds']);
    await runApl(apl, opts);
  }
  return Number(process.hrtime.bigint() - t0) / 1000 / RUNS;
}

console.log(`runApl in process, ${RUNS} runs x ${ROUNDS} rounds, µs per query (median of rounds)`);
console.log('| query | parsed every run | parse cache | saved |\n|---|---:|---:|---:|');
for (const [name, apl] of QUERIES) {
  await perQuery(apl, true);
  await perQuery(apl, false);
  const off = [];
  const on = [];
  for (let r = 0; r < ROUNDS; r++) {
    off.push(await perQuery(apl, false));
    on.push(await perQuery(apl, true));
  }
  const a = median(off);
  const b = median(on);
  console.log(
    `| ${name} | ${a.toFixed(1)} | ${b.toFixed(1)} | ${(a - b).toFixed(1)} (${((100 * (a - b)) / a).toFixed(0)}%) |`,
  );
}
