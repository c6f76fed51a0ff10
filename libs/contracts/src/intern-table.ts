/**
 * What `StringInterner` and `Utf8Interner` share: flat open-addressing tables of code + 1 per slot (0 is
 * empty), hashes finished the same way, and the same bound on a probe.
 */

/** A probe this long means clustering, not bad luck (at load ≤ 1/2, expected probes are under 3). */
export const MAX_PROBES = 64;

/** Per process, so colliding values cannot be prepared in advance for every server. */
export const HASH_SEED = (Math.random() * 0x7fffffff) | 0;

/** Final mix, so the low bits that pick the slot depend on every input unit. */
export function finishHash(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return h;
}

/** A table of `capacity` slots (a power of two) holding codes 0 to count − 1 by their hashes. */
export function slotsFor(hashes: Int32Array, count: number, capacity: number): Int32Array {
  const slots = new Int32Array(capacity);
  const mask = capacity - 1;
  for (let c = 0; c < count; c++) {
    let i = hashes[c] & mask;
    while (slots[i] !== 0) i = (i + 1) & mask;
    slots[i] = c + 1;
  }
  return slots;
}
