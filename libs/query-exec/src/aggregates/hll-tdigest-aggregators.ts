/**
 * Kusto's "intermediate results" aggregations: `hll` / `hll_if` / `hll_merge` (distinct counts kept as a
 * value, read by `dcount_hll`) and `tdigest` / `tdigest_merge` (alias `merge_tdigest`; percentiles kept as a
 * value, read by `percentile_tdigest` and friends). They reuse the sketches of `dcount` (DistinctCounter)
 * and `percentile` (QuantileSketch), so `dcount_hll(hll(x))` is `dcount(x)` and
 * `percentile_tdigest(tdigest(x), p)` is `percentile(x, p)` while both are exact.
 *
 * The intermediate value is a `dynamic`, opaque as Kusto's is, but JSON-safe so it survives `summarize` →
 * `extend` → `summarize`, `materialize`, joins, storage and worker threads:
 *
 * - hll: `["hll", 1, keys]` while exact (the value keys, at most 4096) or `["hll", 1, "<base64>"]` (the
 *   2^14 one-byte registers of the HyperLogLog): accuracy level 1. Other levels write
 *   `["hll", 2, precision, keys | "<base64>"]` (precision 12, 16, 17 or 18: 2^precision registers).
 * - tdigest: `["tdigest", 1, kind, exact, means, weights]`: the value kind (`long`, `real`, `datetime`,
 *   `timespan`), 1 when `means` are the distinct values with their counts (the sketch's exact form), else 0
 *   and they are the t-digest's centroids.
 *
 * Anything else (a string, a random array) reads as no sketch: the merges skip it, the scalar functions
 * answer null.
 */
import type { BoolColumn, Column, ColumnKind } from '@quarry/contracts';
import { readValue } from '../columns';
import { DEFAULT_PRECISION, DistinctCounter, isPrecision } from '../sketches/hyperloglog';
import { QuantileSketch } from '../sketches/quantile-sketch';
import { rowPasses, type AggregateOutput, type Aggregator } from './aggregator';
import { DcountAggregator } from './sketch-aggregators';

const HLL_TAG = 'hll';
const TDIGEST_TAG = 'tdigest';
const VERSION = 1;
/** hll values of a precision other than level 1's carry it: `["hll", 2, precision, body]`. */
const HLL_VERSION_WITH_PRECISION = 2;
/**
 * Most values a digest can keep exactly (QuantileSketch without a shared budget: 10,000 values, or twice
 * as many whole thousandths). Past what the sketch itself keeps it compresses, so this is only a bound on
 * what is expanded back into values.
 */
const EXACT_DIGEST_VALUES = 20_000;
/** Weighted points buffered per group before they are folded into the digest. */
const WEIGHTED_BUFFER = 4096;
const DIGEST_KINDS: ReadonlySet<string> = new Set(['long', 'real', 'datetime', 'timespan']);

// ---- hll values ----

export function encodeHll(counter: DistinctCounter | undefined, precision = DEFAULT_PRECISION): unknown[] {
  const p = counter?.precision ?? precision;
  const keys = counter === undefined ? [] : counter.exactKeys();
  const body = keys ?? Buffer.from(counter!.registerCopy()!).toString('base64');
  // Level 1 keeps the original form, so values stored before levels existed and new ones compare equal.
  return p === DEFAULT_PRECISION ? [HLL_TAG, VERSION, body] : [HLL_TAG, HLL_VERSION_WITH_PRECISION, p, body];
}

/** The counter an `hll()` value holds, or null when the value is not one. */
export function decodeHll(value: unknown): DistinctCounter | null {
  if (!Array.isArray(value) || value[0] !== HLL_TAG) return null;
  let p: unknown;
  let body: unknown;
  if (value.length === 3 && value[1] === VERSION) [p, body] = [DEFAULT_PRECISION, value[2]];
  else if (value.length === 4 && value[1] === HLL_VERSION_WITH_PRECISION) [p, body] = [value[2], value[3]];
  else return null;
  if (!isPrecision(p)) return null;
  if (Array.isArray(body)) return DistinctCounter.restore(body, null, p);
  if (typeof body !== 'string') return null;
  // A copy: the registers must own their memory (a Buffer may be a view into a shared pool, and a clone
  // to another thread would carry the whole pool).
  return DistinctCounter.restore(null, new Uint8Array(Buffer.from(body, 'base64')), p);
}

// ---- tdigest values ----

export interface Digest {
  sketch: QuantileSketch;
  kind: ColumnKind;
}

export function encodeTdigest(sketch: QuantileSketch | undefined, kind: ColumnKind): unknown[] {
  if (sketch === undefined) return [TDIGEST_TAG, VERSION, kind, 1, [], []];
  const { exact, means, weights } = sketch.exportPoints();
  return [TDIGEST_TAG, VERSION, kind, exact ? 1 : 0, Array.from(means), Array.from(weights)];
}

/** The digest a `tdigest()` value holds, or null when the value is not one. */
export function decodeTdigest(value: unknown): Digest | null {
  if (!Array.isArray(value) || value.length !== 6) return null;
  const [tag, version, kind, exact, means, weights] = value as unknown[];
  if (tag !== TDIGEST_TAG || version !== VERSION || typeof kind !== 'string' || !DIGEST_KINDS.has(kind))
    return null;
  if ((exact !== 0 && exact !== 1) || !Array.isArray(means) || !Array.isArray(weights)) return null;
  if (means.length !== weights.length) return null;
  let total = 0;
  let integral = true;
  for (let i = 0; i < means.length; i++) {
    const m: unknown = means[i];
    const w: unknown = weights[i];
    if (typeof m !== 'number' || !Number.isFinite(m)) return null;
    if (typeof w !== 'number' || !Number.isFinite(w) || w <= 0) return null;
    total += w;
    if (!Number.isInteger(w)) integral = false;
  }
  const sketch = new QuantileSketch();
  // Exact values come back as values (so answers stay exact) only when they are what an exact digest
  // holds: whole counts, no more than a digest keeps exactly. Anything else is read as centroids.
  if (exact === 1 && integral && total <= EXACT_DIGEST_VALUES) {
    const values = new Float64Array(total);
    let at = 0;
    for (let i = 0; i < means.length; i++) values.fill(means[i] as number, at, (at += weights[i] as number));
    sketch.addAll(values);
  } else {
    sketch.addWeighted(Float64Array.from(means as number[]), Float64Array.from(weights as number[]));
  }
  return { sketch, kind: kind as ColumnKind };
}

// ---- aggregators ----

/**
 * `hll(x [, accuracy])` / `hll_if(x, p [, accuracy])`: dcount's counter per group (the same keys and
 * hashes, so dcount_hll(hll(x, a)) equals dcount(x, a)), given out as an hll value.
 */
export class HllAggregator extends DcountAggregator {
  /** Precision written for a group that holds no values. */
  protected emptyPrecision = this.precision;

  override finish(groupCount: number): AggregateOutput[] {
    const values = new Array<unknown>(groupCount);
    for (let g = 0; g < groupCount; g++) values[g] = encodeHll(this.counters[g], this.emptyPrecision);
    return [{ values, kind: 'dynamic' }];
  }
}

/**
 * `hll_merge(hll [, accuracy])`: the union of a group's hll values (values that are not one are skipped).
 * Values of different accuracy levels merge at the coarsest of them (Kusto's page says they cannot be
 * merged); an explicit accuracy caps the result's precision at that level's (it cannot add precision).
 */
export class HllMergeAggregator extends HllAggregator {
  /** `level`: the accuracy argument, or undefined when the call has none. */
  constructor(level?: number) {
    super(level ?? 4);
    if (level === undefined) this.emptyPrecision = DEFAULT_PRECISION;
  }

  override update(groups: Int32Array, n: number, args: Column[], predicate: BoolColumn | null): void {
    const c = args[0];
    for (let i = 0; i < n; i++) {
      if (!rowPasses(predicate, i)) continue;
      const counter = decodeHll(readValue(c, i));
      if (counter === null) continue;
      counter.reducePrecision(this.precision);
      this.mergeInto(groups[i], counter);
    }
  }
}

/** `tdigest(x [, weight])`: percentile's sketch per group, as a tdigest value. */
export class TdigestAggregator implements Aggregator {
  protected sketches: QuantileSketch[] = [];
  protected kind: ColumnKind | null = null;
  /** Weighted points not yet folded into group g's digest. */
  private pendingValues: number[][] = [];
  private pendingWeights: number[][] = [];
  /** Weight added to group g as repeated values; -1 once it has weighted centroids. */
  private repeated: number[] = [];

  constructor(private readonly weighted: boolean) {}

  update(groups: Int32Array, n: number, args: Column[], predicate: BoolColumn | null): void {
    const c = args[0];
    if (c.kind === 'long' || c.kind === 'real' || c.kind === 'datetime' || c.kind === 'timespan')
      this.kind ??= c.kind;
    for (let i = 0; i < n; i++) {
      if (!rowPasses(predicate, i)) continue;
      const v = readValue(c, i);
      // JSON cannot carry NaN or infinities: a digest holds finite values only.
      if (typeof v !== 'number' || !Number.isFinite(v)) continue;
      const g = groups[i];
      if (!this.weighted) {
        (this.sketches[g] ??= new QuantileSketch()).add(v);
        continue;
      }
      const w = readValue(args[1], i);
      if (typeof w !== 'number' || !Number.isFinite(w) || w <= 0) continue;
      // Whole weights repeat the value while the digest can stay exact (percentilew's answers); other
      // weights, or past that, make weighted centroids.
      const repeated = this.repeated[g] ?? 0;
      if (repeated >= 0 && Number.isInteger(w) && repeated + w <= EXACT_DIGEST_VALUES) {
        (this.sketches[g] ??= new QuantileSketch()).addAll(new Float64Array(w).fill(v));
        this.repeated[g] = repeated + w;
        continue;
      }
      this.repeated[g] = -1;
      const values = (this.pendingValues[g] ??= []);
      values.push(v);
      (this.pendingWeights[g] ??= []).push(w);
      if (values.length >= WEIGHTED_BUFFER) this.flush(g);
    }
  }

  private flush(g: number): void {
    const values = this.pendingValues[g];
    if (values === undefined || values.length === 0) return;
    const sketch = (this.sketches[g] ??= new QuantileSketch());
    sketch.addWeighted(Float64Array.from(values), Float64Array.from(this.pendingWeights[g]));
    this.pendingValues[g] = [];
    this.pendingWeights[g] = [];
  }

  protected flushAll(): void {
    this.pendingValues.forEach((_, g) => this.flush(g));
  }

  merge(other: Aggregator, groupMap: ArrayLike<number>): void {
    const o = other as TdigestAggregator;
    o.flushAll();
    this.kind ??= o.kind;
    o.sketches.forEach((sk, g) => (this.sketches[groupMap[g]] ??= new QuantileSketch()).merge(sk));
  }

  prepareForTransfer(moveMinBytes?: number): void {
    this.flushAll();
    for (const sketch of this.sketches) sketch?.prepareForTransfer(moveMinBytes);
  }

  transferables(minBytes: number): ArrayBuffer[] {
    return this.sketches.flatMap((sketch) => sketch?.ownedBuffers(minBytes) ?? []);
  }

  finish(groupCount: number): AggregateOutput[] {
    this.flushAll();
    const kind = this.kind ?? 'real';
    const values = new Array<unknown>(groupCount);
    for (let g = 0; g < groupCount; g++) values[g] = encodeTdigest(this.sketches[g], kind);
    return [{ values, kind: 'dynamic' }];
  }
}

/**
 * `tdigest_merge(tdigest)` / `merge_tdigest(tdigest)`: the union of a group's tdigest values (values that
 * are not one are skipped). The page asks for digests of one type per group; the first one's kind is kept.
 */
export class TdigestMergeAggregator extends TdigestAggregator {
  constructor() {
    super(false);
  }

  override update(groups: Int32Array, n: number, args: Column[], predicate: BoolColumn | null): void {
    const c = args[0];
    for (let i = 0; i < n; i++) {
      if (!rowPasses(predicate, i)) continue;
      const digest = decodeTdigest(readValue(c, i));
      if (digest === null) continue;
      this.kind ??= digest.kind;
      (this.sketches[groups[i]] ??= new QuantileSketch()).merge(digest.sketch);
    }
  }
}
