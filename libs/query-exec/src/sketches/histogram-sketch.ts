/**
 * Mergeable value distribution for `histogram`: exact (value → count) up to 4,096 distinct values, then
 * log-scale buckets with 0.5 % relative accuracy (DDSketch-style: bucket i of a positive value v is
 * ceil(log_γ v), γ = 1.005 / 0.995; negatives mirror; zero is counted apart). Min and max stay exact.
 * Bucketing is a pure function of the value, so merged partial states equal a one-pass state.
 */
const EXACT_LIMIT = 4096;
const ALPHA = 0.005;
const GAMMA = (1 + ALPHA) / (1 - ALPHA);
const LOG_GAMMA = Math.log(GAMMA);

export interface HistogramBin {
  lower: number;
  upper: number;
  count: number;
}

export class HistogramSketch {
  private exact: Map<number, number> | null = new Map();
  private pos = new Map<number, number>();
  private neg = new Map<number, number>();
  private zeros = 0;
  count = 0;
  min = Infinity;
  max = -Infinity;

  add(v: number, weight = 1): void {
    if (!Number.isFinite(v)) return;
    this.count += weight;
    if (v < this.min) this.min = v;
    if (v > this.max) this.max = v;
    if (this.exact) {
      this.exact.set(v, (this.exact.get(v) ?? 0) + weight);
      if (this.exact.size > EXACT_LIMIT) this.toBuckets();
      return;
    }
    this.addBucket(v, weight);
  }

  private addBucket(v: number, weight: number): void {
    if (v === 0) {
      this.zeros += weight;
      return;
    }
    const m = v > 0 ? this.pos : this.neg;
    const i = Math.ceil(Math.log(Math.abs(v)) / LOG_GAMMA);
    m.set(i, (m.get(i) ?? 0) + weight);
  }

  private toBuckets(): void {
    const values = this.exact!;
    this.exact = null;
    for (const [v, c] of values) this.addBucket(v, c);
  }

  merge(other: HistogramSketch): void {
    if (other.count === 0) return;
    this.count += other.count;
    if (other.min < this.min) this.min = other.min;
    if (other.max > this.max) this.max = other.max;
    if (this.exact && other.exact) {
      for (const [v, c] of other.exact) this.exact.set(v, (this.exact.get(v) ?? 0) + c);
      if (this.exact.size > EXACT_LIMIT) this.toBuckets();
      return;
    }
    if (this.exact) this.toBuckets();
    if (other.exact) {
      for (const [v, c] of other.exact) this.addBucket(v, c);
      return;
    }
    this.zeros += other.zeros;
    for (const [i, c] of other.pos) this.pos.set(i, (this.pos.get(i) ?? 0) + c);
    for (const [i, c] of other.neg) this.neg.set(i, (this.neg.get(i) ?? 0) + c);
  }

  /** (value, count) pairs: exact values, or one representative per bucket (within 0.5 % of its members). */
  private *points(): Iterable<[number, number]> {
    if (this.exact) {
      yield* this.exact;
      return;
    }
    if (this.zeros > 0) yield [0, this.zeros];
    const rep = (i: number) => (2 * Math.pow(GAMMA, i)) / (GAMMA + 1);
    for (const [i, c] of this.pos) yield [rep(i), c];
    for (const [i, c] of this.neg) yield [-rep(i), c];
  }

  /**
   * `nbins` equal-width bins over [min, max] (the last bin includes max); one bin when all values are
   * equal; none without values. Empty bins are kept (count 0), ordered by `lower`.
   */
  bins(nbins: number): HistogramBin[] {
    if (this.count === 0) return [];
    const { min, max } = this;
    if (min === max) return [{ lower: min, upper: max, count: this.count }];
    const width = (max - min) / nbins;
    const counts = new Array<number>(nbins).fill(0);
    for (const [v, c] of this.points()) {
      const i = Math.min(nbins - 1, Math.max(0, Math.floor((v - min) / width)));
      counts[i] += c;
    }
    return counts.map((count, i) => ({
      lower: min + i * width,
      upper: i === nbins - 1 ? max : min + (i + 1) * width,
      count,
    }));
  }
}
