/**
 * Space-Saving heavy hitters for `topk`: at most `capacity` counters (key, count, error). While the
 * distinct keys fit, every count is exact and every error 0. When a new key arrives at a full summary it
 * replaces the key with the smallest count `m` and starts at `m + 1` with error `m` (so `count - error`
 * is a lower bound and `count` an upper bound of the true frequency).
 *
 * Summaries merge (Agarwal et al., "Mergeable Summaries"): a key missing from one side may have occurred
 * there up to that side's `missingBound()` times (0 while the side never dropped a key, else its minimum
 * count), which is added to its count and error; the union is then cut back to the `capacity` largest.
 * A min-heap over the counters makes updates O(log capacity).
 */
export interface HeavyHitter {
  /** The value as it appears in the output. */
  value: unknown;
  count: number;
  error: number;
}

interface Counter extends HeavyHitter {
  key: string;
  /** Position in the heap. */
  pos: number;
}

export class SpaceSaving {
  private readonly index = new Map<string, Counter>();
  private heap: Counter[] = [];
  /** True once a key was evicted or cut: absent keys may then have occurred up to the minimum count. */
  private lossy = false;

  constructor(readonly capacity: number) {}

  get size(): number {
    return this.heap.length;
  }

  /** Upper bound of the true count of any key not in the summary. */
  missingBound(): number {
    return this.lossy && this.heap.length > 0 ? this.heap[0].count : 0;
  }

  add(key: string, value: unknown, weight = 1): void {
    const c = this.index.get(key);
    if (c) {
      c.count += weight;
      this.siftDown(c.pos);
      return;
    }
    if (this.heap.length < this.capacity) {
      const n: Counter = { key, value, count: weight, error: 0, pos: this.heap.length };
      this.heap.push(n);
      this.index.set(key, n);
      this.siftUp(n.pos);
      return;
    }
    // Replace the minimum: the newcomer inherits its count as possible overestimation.
    const min = this.heap[0];
    this.index.delete(min.key);
    this.lossy = true;
    const n: Counter = { key, value, count: min.count + weight, error: min.count, pos: 0 };
    this.heap[0] = n;
    this.index.set(key, n);
    this.siftDown(0);
  }

  merge(other: SpaceSaving): void {
    const mine = this.missingBound();
    const theirs = other.missingBound();
    const all = new Map<string, HeavyHitter & { key: string }>();
    for (const c of this.heap) {
      const o = other.index.get(c.key);
      all.set(c.key, {
        key: c.key,
        value: c.value,
        count: c.count + (o ? o.count : theirs),
        error: c.error + (o ? o.error : theirs),
      });
    }
    for (const o of other.heap) {
      if (all.has(o.key)) continue;
      all.set(o.key, { key: o.key, value: o.value, count: o.count + mine, error: o.error + mine });
    }
    let entries = [...all.values()];
    const lossy = this.lossy || other.lossy || entries.length > this.capacity;
    if (entries.length > this.capacity) entries = sortHitters(entries).slice(0, this.capacity);
    this.index.clear();
    this.heap = entries.map((e, pos) => ({ ...e, pos }));
    for (const c of this.heap) this.index.set(c.key, c);
    for (let i = (this.heap.length >> 1) - 1; i >= 0; i--) this.siftDown(i);
    this.lossy = lossy;
  }

  /** The `k` keys with the largest counts (ties: smaller key first, so results are deterministic). */
  top(k: number): HeavyHitter[] {
    return sortHitters([...this.heap])
      .slice(0, k)
      .map((c) => ({ value: c.value, count: c.count, error: c.error }));
  }

  private less(a: Counter, b: Counter): boolean {
    return a.count < b.count || (a.count === b.count && a.key > b.key);
  }

  private swap(i: number, j: number): void {
    const h = this.heap;
    const t = h[i];
    h[i] = h[j];
    h[j] = t;
    h[i].pos = i;
    h[j].pos = j;
  }

  private siftUp(i: number): void {
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.less(this.heap[i], this.heap[p])) break;
      this.swap(i, p);
      i = p;
    }
  }

  private siftDown(i: number): void {
    const h = this.heap;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < h.length && this.less(h[l], h[m])) m = l;
      if (r < h.length && this.less(h[r], h[m])) m = r;
      if (m === i) return;
      this.swap(i, m);
      i = m;
    }
  }
}

function sortHitters<T extends { key: string; count: number }>(xs: T[]): T[] {
  return xs.sort((a, b) => b.count - a.count || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}
