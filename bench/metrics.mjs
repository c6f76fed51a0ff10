// Metrics benchmark over HTTP against the standalone server: OTLP protobuf ingest, then MPL queries.
//
//   node bench/metrics.mjs [--points 1000000] [--series 100] [--per-request 10000] [--concurrency 2] [--reps 5]
//   QUARRY_URL=http://127.0.0.1:8080 QUARRY_TOKEN=xaat-... node bench/metrics.mjs   (use a running server)
//
// Without QUARRY_URL it starts apps/standalone/dist/main.js (run `npm run build` first) on a free port with a
// temporary data directory. Half the series are a gauge (`cpu.usage`, tag host), half a cumulative counter
// (`http.requests`, tags service and route), one point every 10 s. Request bodies are encoded before the
// clock starts (with the conformance corpus' dependency-free OTLP encoder), so the ingest rate is the
// server's. Prints ingest points/s, the time until everything is compacted and merged, and per-query median
// latency over --reps runs, from merged blocks.
import { scrape, startServer } from './server.mjs';
import { encodeProtobuf } from '../test/conformance/mpl/send.mjs';

const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : dflt);
const POINTS = Number(opt('points', '1000000'));
const SERIES = Number(opt('series', '100'));
const PER_REQUEST = Number(opt('per-request', '10000'));
const CONCURRENCY = Number(opt('concurrency', '2'));
const REPS = Number(opt('reps', '5'));
const DATASET = 'bench-metrics';
const T0 = 1_746_057_600; // 2025-05-01T00:00:00Z
const STEP = 10;

const perSeries = Math.ceil(POINTS / SERIES);
const END = T0 + perSeries * STEP;
const range = { startTime: new Date(T0 * 1000).toISOString(), endTime: new Date(END * 1000).toISOString() };

const QUERIES = [
  ['gauge-avg-1h', `\`${DATASET}\`:\`cpu.usage\` | align to 1h using avg | group using avg`],
  ['gauge-one-host-1m', `\`${DATASET}\`:\`cpu.usage\` | where host == "h7" | align to 1m using max`],
  [
    'counter-rate-by-service',
    `\`${DATASET}\`:\`http.requests\` | align to 5m using prom::rate | group by service using sum`,
  ],
  [
    'counter-filter-regex',
    `\`${DATASET}\`:\`http.requests\` | where route == #/^\\/api/ | align to 1h using prom::rate | group using sum`,
  ],
];

/**
 * Series definitions: even ids gauges, odd ids counters. Every tag set is distinct (the route carries the
 * counter's number), so the server stores every point sent.
 */
function seriesList() {
  return Array.from({ length: SERIES }, (_, i) =>
    i % 2 === 0
      ? { metric: 'gauge', resource: { host: `h${i / 2}` }, attributes: {} }
      : {
          metric: 'counter',
          resource: { service: `svc-${i % 5}` },
          attributes: { route: `/api/r${(i - 1) / 2}`, code: i % 3 === 0 ? '500' : '200' },
        },
  );
}

const GAUGE = { name: 'cpu.usage', unit: '1', kind: 'gauge', valueType: 'double' };
const COUNTER = {
  name: 'http.requests',
  unit: '{request}',
  kind: 'sum',
  valueType: 'int',
  monotonic: true,
  temporality: 'cumulative',
};

/** Request bodies of about PER_REQUEST points: every series, a slice of its time range. */
function buildBodies() {
  const series = seriesList();
  const stepsPerRequest = Math.max(1, Math.floor(PER_REQUEST / SERIES));
  const bodies = [];
  for (let from = 0; from < perSeries; from += stepsPerRequest) {
    const to = Math.min(perSeries, from + stepsPerRequest);
    const request = series.map((s, i) => {
      const points = [];
      for (let k = from; k < to; k++) {
        const t = T0 + k * STEP;
        const value = s.metric === 'gauge' ? 50 + 40 * Math.sin(k / 50 + i) : (k + 1) * ((i % 7) + 1);
        points.push({
          attributes: s.attributes,
          time: BigInt(t) * 1_000_000_000n,
          start: BigInt(T0) * 1_000_000_000n,
          value,
        });
      }
      return { resource: s.resource, metrics: [{ meta: s.metric === 'gauge' ? GAUGE : COUNTER, points }] };
    });
    bodies.push({ body: encodeProtobuf(request), points: (to - from) * SERIES });
  }
  return bodies;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const bodies = buildBodies();
  const server = await startServer('quarry-bench-metrics-');
  const auth = { Authorization: `Bearer ${server.token}` };
  try {
    await fetch(`${server.url}/v2/datasets`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: DATASET, kind: 'otel:metrics:v1' }),
    });
    const totalPoints = bodies.reduce((n, b) => n + b.points, 0);
    const totalBytes = bodies.reduce((n, b) => n + b.body.length, 0);
    const started = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < bodies.length) {
          const { body } = bodies[next++];
          const res = await fetch(`${server.url}/v1/metrics`, {
            method: 'POST',
            headers: {
              ...auth,
              'Content-Type': 'application/x-protobuf',
              'x-axiom-metrics-dataset': DATASET,
            },
            body,
          });
          if (!res.ok) throw new Error(`ingest answered ${res.status}: ${await res.text()}`);
          await res.arrayBuffer();
        }
      }),
    );
    const ingestSeconds = (performance.now() - started) / 1000;
    console.log(
      `ingest: ${totalPoints} points in ${bodies.length} requests (${(totalBytes / 1e6).toFixed(1)} MB protobuf), ` +
        `${ingestSeconds.toFixed(2)} s, ${Math.round(totalPoints / ingestSeconds)} points/s`,
    );

    const compactStart = performance.now();
    while ((await scrape(server.url, 'quarry_metrics_tail_points')) > 0)
      await new Promise((r) => setTimeout(r, 200));
    console.log(
      `compacted into blocks ${((performance.now() - compactStart) / 1000).toFixed(2)} s after the last ack`,
    );
    // Queries run on the steady state: the merge loop (one round per compaction interval, 5 s) has joined
    // the blocks of every finished hour, which it has when the block count holds for longer than a round.
    let blocks = await scrape(server.url, 'quarry_metrics_blocks');
    for (let still = 0; still < 7; still++) {
      await new Promise((r) => setTimeout(r, 1000));
      const now = await scrape(server.url, 'quarry_metrics_blocks');
      if (now !== blocks) [blocks, still] = [now, -1];
    }
    console.log(
      `merged into ${blocks} blocks ${((performance.now() - compactStart) / 1000).toFixed(1)} s after the last ack`,
    );

    for (const [name, mpl] of QUERIES) {
      const times = [];
      let seriesCount = 0;
      for (let i = 0; i < REPS; i++) {
        const t = performance.now();
        const res = await fetch(`${server.url}/v1/query/_mpl?format=metrics-v2`, {
          method: 'POST',
          headers: { ...auth, 'Content-Type': 'application/json' },
          body: JSON.stringify({ mpl, ...range }),
        });
        const body = await res.json();
        if (!res.ok) throw new Error(`${name}: ${res.status} ${JSON.stringify(body)}`);
        times.push(performance.now() - t);
        seriesCount = body.series.length;
      }
      console.log(
        `query ${name}: median ${median(times).toFixed(1)} ms, first ${times[0].toFixed(1)} ms (${seriesCount} series)`,
      );
    }
  } finally {
    await server.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
