/**
 * Scalar functions over Kusto's intermediate results (hll-tdigest-aggregators.ts has the value formats):
 * `dcount_hll`, `hll_merge(h1, h2, …)`, `tdigest_merge` / `merge_tdigest(t1, …)`, `percentile_tdigest`,
 * `percentiles_array_tdigest`, `percentrank_tdigest` and `rank_tdigest`. A value that is not a sketch
 * answers null (never an error), as a null does.
 */
import type { ColumnKind } from '@quarry/contracts';
import {
  decodeHll,
  decodeTdigest,
  encodeHll,
  encodeTdigest,
  type Digest,
} from '../aggregates/hll-tdigest-aggregators';
import { DistinctCounter } from '../sketches/hyperloglog';
import { QuantileSketch } from '../sketches/quantile-sketch';
import { datetimeOf, num, toDynamic, type ScalarImpl } from './scalar-impl';

/**
 * Whether a trailing argument is a `typeof(t)` literal. It reaches functions as a constant column of kind
 * t whose value is not kept (strings.ts `extract` says the same), so: anything but a rank (a number) or an
 * array of ranks.
 */
function isTypeLiteral(v: unknown): boolean {
  return (typeof v !== 'number' || Number.isNaN(v)) && !Array.isArray(v);
}

/** A percentile of a digest as the type `typeOfLiteral` asks for; without one, a dynamic value. */
function asType(q: number | null, digestKind: ColumnKind, target: ColumnKind | null): unknown {
  if (q === null) return null;
  switch (target) {
    case null:
    case 'dynamic':
      return toDynamic(q, digestKind);
    case 'long':
      return Math.trunc(q);
    case 'real':
    case 'datetime':
    case 'timespan':
      return q;
    case 'string':
      return String(toDynamic(q, digestKind));
    default:
      return null;
  }
}

/** A rank argument: a number 0–100, else null. */
function rankOf(v: unknown): number | null {
  return typeof v === 'number' && v >= 0 && v <= 100 ? v : null;
}

/** The value to rank, in the digest's unit (datetimes and timespans are milliseconds). */
function pointOf(v: unknown, k: ColumnKind, digestKind: ColumnKind): number | null {
  if (digestKind === 'datetime') return datetimeOf(v, k);
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  return num(v, k);
}

/**
 * Count of the digest's members at or below `v` (Kusto's rank_tdigest). Exact digests count their
 * values; for centroids, each holds its weight around its mean: half below, half above, with linear
 * interpolation between neighbouring means.
 */
export function rankInDigest(digest: Digest, v: number): number {
  const { exact, means, weights } = digest.sketch.exportPoints();
  const n = means.length;
  let below = 0;
  if (exact) {
    for (let i = 0; i < n; i++) if (means[i] <= v) below += weights[i];
    return below;
  }
  if (n === 0 || v < means[0]) return 0;
  let total = 0;
  for (let i = 0; i < n; i++) total += weights[i];
  if (v >= means[n - 1]) return total;
  for (let i = 0; i < n - 1; i++) {
    if (v >= means[i + 1]) {
      below += weights[i];
      continue;
    }
    // means[i] <= v < means[i + 1]: half of centroid i is at or below its mean, and the gap up to the
    // next mean holds the other half of i and the lower half of i + 1.
    const t = (v - means[i]) / (means[i + 1] - means[i]);
    return Math.round(below + weights[i] / 2 + t * (weights[i] / 2 + weights[i + 1] / 2));
  }
  return total;
}

function totalOf(digest: Digest): number {
  const { weights } = digest.sketch.exportPoints();
  let total = 0;
  for (let i = 0; i < weights.length; i++) total += weights[i];
  return total;
}

export const SKETCH_FUNCTIONS: Record<string, ScalarImpl> = {
  dcount_hll: ([h]) => decodeHll(h)?.estimate() ?? null,

  // Values of different accuracy levels merge at the coarsest one (DistinctCounter.merge).
  hll_merge: (args) => {
    let merged: DistinctCounter | null = null;
    for (const a of args) {
      const counter = decodeHll(a);
      if (counter === null) continue;
      if (merged === null) merged = counter;
      else merged.merge(counter);
    }
    return merged === null ? null : encodeHll(merged);
  },

  tdigest_merge: (args) => mergeDigests(args),
  merge_tdigest: (args) => mergeDigests(args),

  percentile_tdigest: ([t, p], kinds) => {
    const digest = decodeTdigest(t);
    const rank = rankOf(p);
    if (digest === null || rank === null) return null;
    // A third argument is the typeOfLiteral.
    const target = kinds.length > 2 ? kinds[2] : null;
    return asType(digest.sketch.quantile(rank), digest.kind, target);
  },

  percentiles_array_tdigest: (args, kinds) => {
    const digest = decodeTdigest(args[0]);
    if (digest === null) return null;
    let rest = args.slice(1);
    let target: ColumnKind | null = null;
    if (rest.length > 1 && isTypeLiteral(rest[rest.length - 1])) {
      target = kinds[args.length - 1];
      rest = rest.slice(0, -1);
    }
    // Kusto's page: one rank and a type give that type's value, not an array.
    if (target !== null && rest.length === 1 && !Array.isArray(rest[0])) {
      const rank = rankOf(rest[0]);
      return rank === null ? null : asType(digest.sketch.quantile(rank), digest.kind, target);
    }
    // (t, p1, p2, …) or (t, dynamic([p1, p2, …])).
    const ranks = rest.length === 1 && Array.isArray(rest[0]) ? (rest[0] as unknown[]) : rest;
    // An array holds dynamic values: datetimes and timespans as text, as in percentiles_array.
    const inArray = target === 'datetime' || target === 'timespan' ? 'dynamic' : target;
    return ranks.map((r) => {
      const rank = rankOf(r);
      return rank === null ? null : asType(digest.sketch.quantile(rank), digest.kind, inArray);
    });
  },

  rank_tdigest: ([t, v], kinds) => {
    const digest = decodeTdigest(t);
    if (digest === null) return null;
    const point = pointOf(v, kinds[1], digest.kind);
    return point === null ? null : rankInDigest(digest, point);
  },

  percentrank_tdigest: ([t, v], kinds) => {
    const digest = decodeTdigest(t);
    if (digest === null) return null;
    const point = pointOf(v, kinds[1], digest.kind);
    const total = totalOf(digest);
    if (point === null || total === 0) return null;
    return (rankInDigest(digest, point) * 100) / total;
  },
};

function mergeDigests(args: unknown[]): unknown {
  let merged: QuantileSketch | null = null;
  let kind: ColumnKind | null = null;
  for (const a of args) {
    const digest = decodeTdigest(a);
    if (digest === null) continue;
    kind ??= digest.kind;
    if (merged === null) merged = digest.sketch;
    else merged.merge(digest.sketch);
  }
  return merged === null ? null : encodeTdigest(merged, kind!);
}
