// The CPU an ingest worker spends per event, without HTTP, the log or storage: the bench's events in
// batches (`ingestTask`: decode, parse, columns, log record), then one compactor flush of all their records
// (`buildBlocksTask`: decode, sort, cut at spans, encode blocks). The 10M run's sustained ingest rate is
// about this cost on one thread; `--density` replays a flush at that run's events per hour.
//
//   npm run build && node bench/ingest-replay.mjs [--events 1200000] [--batch 5000] [--density 10000000] [--reps 3]
//   node --cpu-prof --cpu-prof-dir=/tmp/prof bench/ingest-replay.mjs …   (a profile of the same work)
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { generateEvents } from './generate.mjs';

const require = createRequire(import.meta.url);
const { ingestTask, buildBlocksTask } = require('../libs/server/dist/workers/cpu-tasks.js');
const { DEFAULT_SPANS } = require('../libs/server/dist/storage/compactor.js');

const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const EVENTS = Number(opt('events', '1200000'));
const BATCH = Number(opt('batch', '5000'));
/** The run whose density is replayed: its events spread over one day, as `npm run bench` spreads them. */
const DENSITY = Number(opt('density', '10000000'));
const REPS = Number(opt('reps', '3'));

const spanMs = Math.round((86_400_000 * EVENTS) / DENSITY);
const bodies = [];
let lines = [];
for (const line of generateEvents(EVENTS, { spanMs })) {
  lines.push(line);
  if (lines.length === BATCH) {
    bodies.push(Buffer.from(lines.join('\n')));
    lines = [];
  }
}
if (lines.length) bodies.push(Buffer.from(lines.join('\n')));

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
/** CPU time of this process (user + system: page faults of fresh memory are system time), in ms. */
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const parse = [];
const build = [];
const parseCpu = [];
const buildCpu = [];
const faults = () => process.resourceUsage().minorPageFault;
const parseFaults = [];
const buildFaults = [];
for (let rep = 0; rep < REPS; rep++) {
  const payloads = [];
  let c = cpuMs();
  let f = faults();
  let t = performance.now();
  for (const body of bodies) {
    const out = await ingestTask({
      datasetId: 'bench',
      body,
      mapFields: [],
      nowMs: Date.UTC(2024, 4, 2),
      contentType: 'application/x-ndjson',
    });
    for (const r of out.records) payloads.push(r.payload);
  }
  parse.push(((performance.now() - t) * 1000) / EVENTS);
  parseCpu.push(((cpuMs() - c) * 1000) / EVENTS);
  parseFaults.push(faults() - f);
  f = faults();
  c = cpuMs();
  t = performance.now();
  const blocks = buildBlocksTask({ payloads, spans: DEFAULT_SPANS });
  build.push(((performance.now() - t) * 1000) / EVENTS);
  buildCpu.push(((cpuMs() - c) * 1000) / EVENTS);
  buildFaults.push(faults() - f);
  if (rep === 0) {
    const bytes = blocks.reduce((a, b) => a + b.bytes.byteLength, 0);
    console.log(`${EVENTS} events in ${bodies.length} batches → ${blocks.length} blocks, ${bytes} bytes`);
  }
}
// The first run warms the JIT up; the figures are the median of the others (all runs listed).
const warm = (xs) => (xs.length > 1 ? xs.slice(1) : xs);
// Page faults: each one maps a fresh 4 KiB page (about 17 µs in the VM this was measured in).
const fmt = (xs, cpu, pf) =>
  `${median(warm(xs)).toFixed(2)} µs/event wall, ${median(warm(cpu)).toFixed(2)} CPU, ` +
  `${median(warm(pf))} page faults (wall runs: ${xs.map((x) => x.toFixed(2)).join(', ')})`;
console.log(`parse (ingestTask):       ${fmt(parse, parseCpu, parseFaults)}`);
console.log(`build (buildBlocksTask):  ${fmt(build, buildCpu, buildFaults)}`);
console.log(
  `total:                    ${(median(warm(parse)) + median(warm(build))).toFixed(2)} µs/event wall, ` +
    `${(median(warm(parseCpu)) + median(warm(buildCpu))).toFixed(2)} CPU`,
);
