// Writes series.json, the dataset of the MPL golden files (deterministic, no randomness):
//   node test/golden/mpl/gen.mjs
// Values follow simple formulas so expected files can be checked by hand (see README.md).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const T0 = 1704067200; // 2024-01-01T00:00:00Z
const s = (value) => ({ type: 'string', value });
const i = (value) => ({ type: 'int', value });
const b = (value) => ({ type: 'bool', value });
const series = [];

// cpu: gauge, one sample a minute. h1 = minute index, h2 = 100 - minute, h3 = (minute % 10) * 10 with minutes 20..29 missing.
const cpu = [
  [{ host: s('h1'), region: s('eu'), cores: i(2) }, (m) => m],
  [{ host: s('h2'), region: s('eu'), cores: i(4) }, (m) => 100 - m],
  [{ host: s('h3'), region: s('us'), cores: i(8), spot: b(true) }, (m) => (m >= 20 && m < 30 ? null : (m % 10) * 10)],
];
for (const [tags, f] of cpu) {
  const points = [];
  for (let m = 0; m < 60; m++) if (f(m) !== null) points.push([T0 + m * 60, f(m)]);
  series.push({ kind: 'scalar', metric: 'cpu', tags, points });
}

// reqs: cumulative counters, one sample every 30 s (k = 0..119).
//   a/200: 6k, restarts at k = 60 (value 3(k - 59)); a/500: floor(k / 2); b/200: 3k + 100; b/500: always 7.
const reqs = [
  [{ svc: s('a'), code: s('200') }, (k) => (k < 60 ? 6 * k : 3 * (k - 59))],
  [{ svc: s('a'), code: s('500') }, (k) => Math.floor(k / 2)],
  [{ svc: s('b'), code: s('200') }, (k) => 3 * k + 100],
  [{ svc: s('b'), code: s('500') }, () => 7],
];
for (const [tags, f] of reqs) {
  const points = [];
  for (let k = 0; k < 120; k++) points.push([T0 + k * 30, f(k)]);
  series.push({ kind: 'scalar', metric: 'reqs', tags, points });
}

// lat: cumulative histogram, bounds 0.1 0.5 1, one point a minute. Per-minute increments:
//   a: [2, 5, 2, 1] (sum +4), b: [0, 1, 4, 5] (sum +9); b restarts at minute 40 (its counts start again from one increment).
const lat = [
  [{ svc: s('a') }, [2, 5, 2, 1], 4, null],
  [{ svc: s('b') }, [0, 1, 4, 5], 9, 40],
];
for (const [tags, inc, sumInc, restart] of lat) {
  const points = [];
  for (let m = 0; m < 60; m++) {
    const n = restart !== null && m >= restart ? m - restart + 1 : m + 1;
    points.push({ time: T0 + m * 60, counts: inc.map((c) => c * n), sum: sumInc * n, min: null, max: null });
  }
  series.push({ kind: 'histogram', metric: 'lat', tags, temporality: 'Cumulative', bounds: [0.1, 0.5, 1], points });
}

// job: delta histogram, bounds 1 5, one point every 5 minutes for queue q1, every 10 minutes for q2.
//   q1: counts [1, 2, 1], sum 8, min 0.5, max 7; q2: counts [0, 1, 3], sum 30, min 2, max 12.
for (const [tags, step, counts, sum, min, max] of [
  [{ queue: s('q1') }, 5, [1, 2, 1], 8, 0.5, 7],
  [{ queue: s('q2') }, 10, [0, 1, 3], 30, 2, 12],
]) {
  const points = [];
  for (let m = 0; m < 60; m += step) points.push({ time: T0 + m * 60, counts, sum, min, max });
  series.push({ kind: 'histogram', metric: 'job', tags, temporality: 'Delta', bounds: [1, 5], points });
}

// dur_bucket: Prometheus-style delta bucket series (le tag as string), one sample a minute:
//   cumulative-by-bound counts le 0.1 → 1, 0.5 → 3, 1 → 4, +Inf → 5.
for (const [le, v] of [['0.1', 1], ['0.5', 3], ['1', 4], ['+Inf', 5]]) {
  const points = [];
  for (let m = 0; m < 60; m++) points.push([T0 + m * 60, v]);
  series.push({ kind: 'scalar', metric: 'dur_bucket', tags: { le: s(le) }, points });
}

writeFileSync(join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, 'series.json'), JSON.stringify({ dataset: 'golden', t0: T0, series }, null, 0) + '\n');
