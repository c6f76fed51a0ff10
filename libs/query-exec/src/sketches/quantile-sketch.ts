/**
 * Percentiles for `percentile` / `percentiles_array`: exact (all values) up to a threshold, then a
 * merging t-digest-style sketch of centroids whose size limit shrinks toward the tails (q(1-q) scale).
 * Exact mode answers nearest-rank, which is what the corpus' reference computes. Sketches merge.
 */
const EXACT_LIMIT = 10_000;
const COMPRESSION = 200;

export class QuantileSketch {
  private values: number[] = [];
  /** Centroid means and weights once compressed. */
  private means: number[] | null = null;
  private weights: number[] | null = null;
  private count = 0;

  add(v: number, w = 1): void {
    this.values.push(v);
    this.count += w;
    if (w !== 1 || this.values.length > EXACT_LIMIT) this.compress(w);
  }

  merge(other: QuantileSketch): void {
    if (other.means) {
      for (let i = 0; i < other.means.length; i++) this.addCentroid(other.means[i], other.weights![i]);
      for (const v of other.values) this.add(v);
      return;
    }
    for (const v of other.values) this.add(v);
  }

  private addCentroid(mean: number, weight: number): void {
    if (!this.means) this.compress(1);
    this.means!.push(mean);
    this.weights!.push(weight);
    this.count += weight;
    this.compress(1);
  }

  private compress(lastWeight: number): void {
    const pts: [number, number][] = [];
    if (this.means) for (let i = 0; i < this.means.length; i++) pts.push([this.means[i], this.weights![i]]);
    for (let i = 0; i < this.values.length; i++)
      pts.push([this.values[i], i === this.values.length - 1 ? lastWeight : 1]);
    this.values = [];
    pts.sort((a, b) => a[0] - b[0]);
    const total = pts.reduce((s, p) => s + p[1], 0);
    const means: number[] = [];
    const weights: number[] = [];
    let cum = 0;
    for (const [m, w] of pts) {
      const last = means.length - 1;
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
      means.push(m);
      weights.push(w);
      cum += w;
    }
    this.means = means;
    this.weights = weights;
  }

  /** The p-th percentile (0–100); null when empty. */
  quantile(p: number): number | null {
    if (this.count === 0) return null;
    if (!this.means) {
      const sorted = [...this.values].sort((a, b) => a - b);
      const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
      return sorted[Math.min(sorted.length, rank) - 1];
    }
    if (this.values.length) this.compress(1);
    const means = this.means;
    const weights = this.weights!;
    const target = (p / 100) * this.count;
    let cum = 0;
    for (let i = 0; i < means.length; i++) {
      const next = cum + weights[i];
      if (target <= next || i === means.length - 1) {
        if (i === 0 || weights[i] === 1) return means[i];
        const prevMid = cum - weights[i - 1] / 2;
        const mid = cum + weights[i] / 2;
        if (target >= mid || mid === prevMid) return means[i];
        const t = (target - prevMid) / (mid - prevMid);
        return means[i - 1] + t * (means[i] - means[i - 1]);
      }
      cum = next;
    }
    return means[means.length - 1];
  }
}
