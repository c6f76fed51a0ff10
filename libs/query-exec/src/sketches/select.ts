/**
 * Order statistics of a Float64Array: `select` (quickselect, reorders its input) and `radixSelect`, the
 * k-th smallest value by MSD radix selection over the IEEE-754 bits, without
 * reordering it: a pass counts the values per 16-bit digit of an order-preserving key (the key
 * radix-sort.ts sorts by), the digit holding rank k is found, and only that digit's values are copied out
 * for the next digit — or, once few remain, for a quickselect. On millions of values that is two or three
 * cheap sequential passes instead of quickselect's partitioning (several times faster on this machine).
 *
 * Order is the typed-array sort's: -Infinity … -0, +0 … +Infinity, then NaN.
 */
const DIGITS = 1 << 16;
/** Candidates few enough to quickselect directly. */
const SMALL = 4096;
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

let counts = new Uint32Array(0);

/** The order-preserving key of word `w` (the high word when `high`) of a float64 whose high word is `h`. */
function key(h: number, w: number, high: boolean): number {
  if (h & 0x80000000) return ~w >>> 0;
  return high ? (w | 0x80000000) >>> 0 : w;
}

/** The k-th smallest (0-based) of `a`; `a` is left as it is. */
export function radixSelect(a: Float64Array, k: number): number {
  if (a.length <= SMALL || !LITTLE_ENDIAN) return select(a.slice(), k);
  if (counts.length === 0) counts = new Uint32Array(DIGITS);
  let values = a;
  // Digits from the most significant: high word's top, high word's bottom, low word's top, bottom.
  for (let digit = 0; digit < 4; digit++) {
    const n = values.length;
    const words = new Uint32Array(values.buffer, values.byteOffset, 2 * n);
    const high = digit < 2;
    const shift = digit % 2 === 0 ? 16 : 0;
    const offset = high ? 1 : 0;
    counts.fill(0);
    for (let i = 0; i < n; i++) {
      counts[(key(words[2 * i + 1], words[2 * i + offset], high) >>> shift) & 0xffff]++;
    }
    let bucket = 0;
    let below = 0;
    while (below + counts[bucket] <= k) below += counts[bucket++];
    const size = counts[bucket];
    k -= below;
    const next = new Float64Array(size);
    let m = 0;
    for (let i = 0; i < n; i++) {
      if (((key(words[2 * i + 1], words[2 * i + offset], high) >>> shift) & 0xffff) === bucket) {
        next[m++] = values[i];
      }
    }
    values = next;
    if (size <= SMALL) return select(values, k);
  }
  // Every 64 bits agree: all the candidates are one value.
  return values[k];
}

/** The k-th smallest value of `a` (0-based); reorders `a`. Hoare quickselect, median-of-three pivots. */
export function select(a: Float64Array, k: number): number {
  let lo = 0;
  let hi = a.length - 1;
  while (hi > lo) {
    const mid = (lo + hi) >>> 1;
    // Median of three as the pivot keeps sorted and reverse-sorted input linear.
    if (a[mid] < a[lo]) swap(a, mid, lo);
    if (a[hi] < a[lo]) swap(a, hi, lo);
    if (a[hi] < a[mid]) swap(a, hi, mid);
    const pivot = a[mid];
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i] < pivot) i++;
      while (a[j] > pivot) j--;
      if (i <= j) {
        swap(a, i, j);
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return a[k];
  }
  return a[k];
}

function swap(a: Float64Array, i: number, j: number): void {
  const t = a[i];
  a[i] = a[j];
  a[j] = t;
}

/** `radixSelect` over 32-bit integers: the k-th smallest of `a` (0-based), `a` left as it is. */
export function radixSelectInt32(a: Int32Array, k: number): number {
  const n = a.length;
  if (n <= SMALL) return select(Float64Array.from(a), k);
  if (counts.length === 0) counts = new Uint32Array(DIGITS);
  // Sign bit flipped: the keys order like the integers. First the top 16 bits over every value.
  counts.fill(0);
  for (let i = 0; i < n; i++) counts[(a[i] ^ 0x80000000) >>> 16]++;
  let bucket = 0;
  while (counts[bucket] <= k) k -= counts[bucket++];
  const next = new Float64Array(counts[bucket]);
  let m = 0;
  for (let i = 0; i < n; i++) if ((a[i] ^ 0x80000000) >>> 16 === bucket) next[m++] = a[i];
  // The rest share their top 16 bits: a quickselect over at most 65,536 distinct values.
  return select(next, k);
}
