/**
 * Per-group numeric state in a Float64Array that grows with the group count. Plain JS arrays indexed by
 * group id turn holey and fall off V8's fast paths (`counts[g] ?? 0` per row); a typed array does not.
 */
export class GroupSlots {
  data = new Float64Array(16);

  /** Makes room for group ids below `groupCount` (new slots are 0) and returns the array. */
  ensure(groupCount: number): Float64Array {
    if (groupCount > this.data.length) {
      const bigger = new Float64Array(Math.max(groupCount, 2 * this.data.length));
      bigger.set(this.data);
      this.data = bigger;
    }
    return this.data;
  }

  get(g: number): number {
    return g < this.data.length ? this.data[g] : 0;
  }
}

/** One more than the largest group id in `groups[0, n)` (0 when empty). */
export function groupCountOf(groups: Int32Array, n: number): number {
  let max = -1;
  for (let i = 0; i < n; i++) if (groups[i] > max) max = groups[i];
  return max + 1;
}
