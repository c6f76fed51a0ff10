/**
 * Percentiles for `percentile` / `percentiles_array`: exact (all values) while a budget of values lasts,
 * then a merging t-digest-style sketch of centroids whose size limit shrinks toward the tails (q(1-q)
 * scale). Exact mode answers nearest-rank (by radix selection, select.ts: no sort, no reordering), which
 * is what the corpus' reference computes. Sketches merge.
 *
 * The budget is shared by all the sketches of one aggregate (one per group), so a query keeps exact
 * answers up to that many values in total and memory stays bounded however many groups there are; a
 * sketch that would exceed it compresses and hands its values back.
 *
 * Incoming values collect in a Float64Array buffer; a compression sorts the buffer (radix sort, radix-sort.ts;
 * no comparator, no per-value objects) and merges it with the sorted centroids in one linear pass.
 */
import { types } from 'node:util';
import { sortFloat64 } from './radix-sort';
import { radixSelect, radixSelectInt32 } from './select';

export { select } from './select';

/** Exact values per sketch when no shared budget is given. */
const EXACT_LIMIT = 10_000;
/**
 * Exact values that are whole thousandths of magnitude below 2^31 / 1000 (integers, milliseconds with
 * microseconds) are held as 32-bit integers `v * SCALE`: half the memory, so twice as many fit the budget.
 * A sketch of integers only that meets one of 2,147,484 or more switches to scale 1 (integers below 2^31).
 */
const SCALE = 1000;
const INT_MAX = 0x7fffffff;
/** Values buffered between compressions once the sketch is approximate. */
const BUFFER_LIMIT = 16_384;
const COMPRESSION = 200;

/**
 * What the exact sketches of one aggregate may still hold, in 4-byte words: a value costs 2 (a float64), or
 * 1 while its sketch holds only whole thousandths or only integers (see SCALE).
 */
export class ExactBudget {
  constructor(public remaining: number) {}
}

export class QuantileSketch {
  /** The values while exact and not compact, else the values to compress (once approximate). */
  private buffer = new Float64Array(0);
  /** The values, `v * scale`, while every value so far was a whole thousandth (an integer); else null. */
  private ints: Int32Array | null = new Int32Array(64);
  /** SCALE, or 1 once an integer too large for SCALE arrived while every value was an integer. */
  private scale = SCALE;
  /** Values held (in `ints` when it is not null, else in `buffer`). */
  private buffered = 0;
  /** Centroid means (ascending) and weights once compressed; null while exact. */
  private means: Float64Array | null = null;
  private weights: Float64Array | null = null;
  private centroids = 0;
  private count = 0;

  constructor(private readonly budget: ExactBudget = new ExactBudget(2 * EXACT_LIMIT)) {}

  add(v: number): void {
    const ints = this.ints;
    if (ints !== null) {
      const scale = this.scale;
      const k = Math.round(v * scale);
      // k / scale === v: decoding gives v back exactly; -0 is kept as a float so that it stays -0.
      if (k / scale === v && k <= INT_MAX && k >= -INT_MAX && (k !== 0 || 1 / v > 0)) {
        if (this.buffered === ints.length) this.growInts();
        this.ints![this.buffered++] = k;
        this.took(1, 1);
        return;
      }
      if (this.toUnitScale(v)) {
        this.add(v);
        return;
      }
      this.widen();
    }
    if (this.buffered === this.buffer.length) this.grow();
    this.buffer[this.buffered++] = v;
    this.took(1, 2);
  }

  merge(other: QuantileSketch): void {
    if (other.ints !== null && this.ints !== null && other.scale === this.scale && other.buffered > 0) {
      const k = other.buffered;
      if (this.buffered + k > this.ints.length) this.growInts(this.buffered + k);
      this.ints.set(other.ints.subarray(0, k), this.buffered);
      this.buffered += k;
      this.took(k, k);
    } else this.addAll(other.heldValues());
    if (other.means === null || other.centroids === 0) return;
    this.compress();
    this.mergeSorted(other.means.subarray(0, other.centroids), other.weights!.subarray(0, other.centroids));
    this.count += sum(other.weights!, other.centroids);
  }

  /** `add` for each value; in one copy once the sketch holds float64s. */
  addAll(values: Float64Array): void {
    let i = 0;
    if (this.ints !== null) {
      while (i < values.length && this.ints !== null) this.add(values[i++]);
      if (i === values.length) return;
    }
    const k = values.length - i;
    if (k === 0) return;
    if (this.buffered + k > this.buffer.length) this.grow(this.buffered + k);
    this.buffer.set(i === 0 ? values : values.subarray(i), this.buffered);
    this.buffered += k;
    this.took(k, 2 * k);
  }

  /** The values held, as float64s (a view of `buffer`, or decoded from `ints` into a new array). */
  private heldValues(): Float64Array {
    const n = this.buffered;
    if (this.ints === null) return this.buffer.subarray(0, n);
    const out = new Float64Array(n);
    for (let i = 0; i < n; i++) out[i] = this.ints[i] / this.scale;
    return out;
  }

  /**
   * An integer `v` that SCALE cannot hold, arriving while every held value is an integer: the held values
   * are divided by SCALE and the sketch goes on at scale 1. False (nothing changed) otherwise.
   */
  private toUnitScale(v: number): boolean {
    const magnitude = Math.abs(v);
    if (this.scale !== SCALE || !Number.isInteger(v) || magnitude > INT_MAX || magnitude * SCALE <= INT_MAX) {
      return false;
    }
    const ints = this.ints!;
    const n = this.buffered;
    for (let i = 0; i < n; i++) if (ints[i] % SCALE !== 0) return false;
    for (let i = 0; i < n; i++) ints[i] /= SCALE;
    this.scale = 1;
    return true;
  }

  /** Words of the budget the held values cost while exact. */
  private heldWords(): number {
    return this.ints !== null ? this.buffered : 2 * this.buffered;
  }

  /** Moves compact values to `buffer` as float64s (no budget change). */
  private toFloats(): void {
    const ints = this.ints;
    if (ints === null) return;
    const values = new Float64Array(Math.max(64, this.buffered));
    for (let i = 0; i < this.buffered; i++) values[i] = ints[i] / this.scale;
    this.ints = null;
    this.buffer = values;
  }

  /** A value the compact values cannot hold arrived: they become float64s, at twice the cost. */
  private widen(): void {
    const n = this.buffered;
    this.toFloats();
    this.took(0, n);
  }

  /**
   * `merge`, but an empty sketch takes over `other`'s arrays instead of copying them (a partial's
   * millions of exact values arriving from a worker): `other` must not be used afterwards.
   */
  absorb(other: QuantileSketch): void {
    if (this.count !== 0 || this.means !== null || other.count === 0) {
      this.merge(other);
      return;
    }
    this.buffer = other.buffer;
    this.ints = other.ints;
    this.scale = other.scale;
    this.means = other.means;
    this.weights = other.weights;
    this.centroids = other.centroids;
    this.buffered = other.buffered;
    this.count = other.count - other.buffered;
    this.took(other.buffered, this.heldWords());
  }

  /**
   * Accounts for `k` values just buffered, costing `words` of the budget while exact: exact sketches spend
   * the shared budget (one that would overdraw it compresses everything it holds and hands its words
   * back), approximate ones compress once the buffer is over its limit.
   */
  private took(k: number, words: number): void {
    this.count += k;
    if (this.means === null) {
      this.budget.remaining -= words;
      if (this.budget.remaining < 0) {
        this.budget.remaining += this.heldWords();
        this.compress();
      }
    } else if (this.buffered > BUFFER_LIMIT) this.compress();
  }

  /**
   * Trims the buffer to its values before the sketch is cloned to another thread, unless it is at least
   * `moveMinBytes` and so will move (`ownedBuffers`): a copy of millions of values into fresh memory costs
   * far more than carrying spare capacity that was never written (its pages were never touched).
   */
  prepareForTransfer(moveMinBytes?: number): void {
    const moves = (a: Int32Array | Float64Array): boolean =>
      moveMinBytes !== undefined && a.byteLength >= moveMinBytes;
    if (this.ints !== null) {
      if (this.ints.length !== this.buffered && !moves(this.ints))
        this.ints = this.ints.slice(0, this.buffered);
    } else if (this.buffer.length !== this.buffered && !moves(this.buffer)) {
      this.buffer = this.buffer.slice(0, this.buffered);
    }
  }

  /**
   * The buffers this sketch alone holds (after `prepareForTransfer`), of at least `minBytes`: they may move
   * to the receiving thread instead of being copied, after which this sketch must not be used. Every array
   * of a sketch is its own (allocated here, or taken over by `absorb` from a sketch that is then dropped).
   */
  ownedBuffers(minBytes: number): ArrayBuffer[] {
    const out: ArrayBuffer[] = [];
    for (const a of [this.ints, this.buffer, this.means, this.weights])
      // A SharedArrayBuffer cannot move (a sketch never holds one).
      if (a !== null && a.byteLength >= minBytes && types.isArrayBuffer(a.buffer)) out.push(a.buffer);
    return out;
  }

  /**
   * The sketch as ascending points and weights (what a `tdigest()` result carries): while exact, its
   * distinct values with their counts (`exact` true); else its centroids.
   */
  exportPoints(): { exact: boolean; means: Float64Array; weights: Float64Array } {
    if (this.means === null) {
      const values = this.heldValues().slice();
      sortFloat64(values);
      const means: number[] = [];
      const weights: number[] = [];
      for (let i = 0; i < values.length; i++) {
        const last = means.length - 1;
        if (last >= 0 && means[last] === values[i]) weights[last]++;
        else {
          means.push(values[i]);
          weights.push(1);
        }
      }
      return { exact: true, means: Float64Array.from(means), weights: Float64Array.from(weights) };
    }
    if (this.buffered) this.compress();
    const n = this.centroids;
    return { exact: false, means: this.means.slice(0, n), weights: this.weights!.slice(0, n) };
  }

  /**
   * Adds points with weights (ascending or not; weights positive). The sketch becomes approximate: a
   * weighted point is a centroid, not a value.
   */
  addWeighted(points: Float64Array, pointWeights: Float64Array): void {
    if (points.length === 0) return;
    // Leaving exact mode hands the values' share of the budget back (as `took` does).
    if (this.means === null) this.budget.remaining += this.heldWords();
    this.compress();
    const order = Array.from(points.keys()).sort((a, b) => points[a] - points[b]);
    const sortedPoints = Float64Array.from(order, (i) => points[i]);
    const sortedWeights = Float64Array.from(order, (i) => pointWeights[i]);
    this.mergeSorted(sortedPoints, sortedWeights);
    this.count += sum(sortedWeights, sortedWeights.length);
  }

  /** The p-th percentile (0–100); null when empty. */
  quantile(p: number): number | null {
    if (this.count === 0) return null;
    if (this.means === null) {
      const n = this.buffered;
      const rank = Math.min(n, Math.max(1, Math.ceil((p / 100) * n)));
      // Radix selection reads the values where they are (no copy of millions of values per group) and
      // copies out only the few that share the answer's leading bits.
      if (this.ints !== null) return radixSelectInt32(this.ints.subarray(0, n), rank - 1) / this.scale;
      return radixSelect(this.buffer.subarray(0, n), rank - 1);
    }
    if (this.buffered) this.compress();
    const means = this.means;
    const weights = this.weights!;
    const n = this.centroids;
    const target = (p / 100) * this.count;
    let cum = 0;
    for (let i = 0; i < n; i++) {
      const next = cum + weights[i];
      if (target <= next || i === n - 1) {
        if (i === 0 || weights[i] === 1) return means[i];
        const prevMid = cum - weights[i - 1] / 2;
        const mid = cum + weights[i] / 2;
        if (target >= mid || mid === prevMid) return means[i];
        const t = (target - prevMid) / (mid - prevMid);
        return means[i - 1] + t * (means[i] - means[i - 1]);
      }
      cum = next;
    }
    return means[n - 1];
  }

  private growInts(atLeast = 0): void {
    const bigger = new Int32Array(Math.max(atLeast, this.ints!.length * 2, 64));
    bigger.set(this.ints!);
    this.ints = bigger;
  }

  private grow(atLeast = 0): void {
    const bigger = new Float64Array(Math.max(atLeast, this.buffer.length * 2, 64));
    bigger.set(this.buffer);
    this.buffer = bigger;
  }

  /** Folds the buffered values (weight 1 each) into the centroids. */
  private compress(): void {
    this.toFloats();
    const values = this.buffer.subarray(0, this.buffered);
    sortFloat64(values);
    this.mergeSorted(values, null);
    this.buffered = 0;
  }

  /**
   * Merges ascending points (`weights` null = weight 1 each) with the current centroids and re-clusters
   * greedily: a point joins the previous centroid while the centroid stays under the size limit for its
   * quantile.
   */
  private mergeSorted(points: Float64Array, pointWeights: Float64Array | null): void {
    const oldMeans = this.means;
    const oldWeights = this.weights;
    const oldCount = this.centroids;
    const total =
      sum(oldWeights, oldCount) + (pointWeights ? sum(pointWeights, points.length) : points.length);
    const capacity = oldCount + points.length;
    const means = new Float64Array(capacity);
    const weights = new Float64Array(capacity);
    let out = 0;
    let cum = 0;
    let i = 0;
    let j = 0;
    while (i < oldCount || j < points.length) {
      let m: number;
      let w: number;
      if (j >= points.length || (i < oldCount && oldMeans![i] <= points[j])) {
        m = oldMeans![i];
        w = oldWeights![i++];
      } else {
        m = points[j];
        w = pointWeights ? pointWeights[j] : 1;
        j++;
      }
      const last = out - 1;
      if (last >= 0) {
        const q = (cum - weights[last] / 2) / total;
        const limit = Math.max(1, (4 * total * q * (1 - q)) / COMPRESSION);
        if (weights[last] + w <= limit) {
          const nw = weights[last] + w;
          means[last] += ((m - means[last]) * w) / nw;
          weights[last] = nw;
          cum += w;
          continue;
        }
      }
      means[out] = m;
      weights[out] = w;
      out++;
      cum += w;
    }
    this.means = means;
    this.weights = weights;
    this.centroids = out;
  }
}

function sum(values: Float64Array | null, n: number): number {
  let s = 0;
  for (let i = 0; i < n; i++) s += values![i];
  return s;
}
