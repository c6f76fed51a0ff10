/**
 * Split-block Bloom filter (as Parquet's, docs/block-format.md "Token filters"): B blocks of 256 bits
 * (8 u32 words). A key's 32-bit hash h picks block ⌊h·B / 2^32⌋ and sets one bit in each of its 8 words,
 * bit (g·SALT[j] mod 2^32) >>> 27 of word j, where g = mix(h). One cache line per key, and with 10 bits
 * per key about 1% false positives.
 */
const SALT = [0x47b6137b, 0x44974d91, 0x8824ad5b, 0xa2b7289d, 0x705495c7, 0x2df1424b, 0x9efc4947, 0x5c6bfb31];
const BLOCK_WORDS = 8;
export const BLOCK_BYTES = 32;
export const BITS_PER_KEY = 10;

/** FNV-1a over UTF-16 code units, then murmur3's finalizer: the hash of a term or a trigram. */
export const FNV_OFFSET = 0x811c9dc5;
export const FNV_PRIME = 0x01000193;

export function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

export function hashString(s: string): number {
  let h = FNV_OFFSET;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), FNV_PRIME);
  return fmix32(h);
}

export function hashTrigram(a: number, b: number, c: number): number {
  return fmix32(Math.imul(Math.imul(Math.imul(FNV_OFFSET ^ a, FNV_PRIME) ^ b, FNV_PRIME) ^ c, FNV_PRIME));
}

/** Blocks for `keys` distinct keys at BITS_PER_KEY (0 for none: an empty filter answers "no"). */
export function blocksFor(keys: number): number {
  return Math.ceil((keys * BITS_PER_KEY) / 256);
}

export function bloomInsert(words: Uint32Array, blocks: number, h: number): void {
  const base = Math.floor((h * blocks) / 0x100000000) * BLOCK_WORDS;
  const g = fmix32(h ^ 0x9e3779b9);
  for (let j = 0; j < BLOCK_WORDS; j++) words[base + j] |= 1 << (Math.imul(g, SALT[j]) >>> 27);
}

export function bloomHas(words: Uint32Array, blocks: number, h: number): boolean {
  if (blocks === 0) return false;
  const base = Math.floor((h * blocks) / 0x100000000) * BLOCK_WORDS;
  const g = fmix32(h ^ 0x9e3779b9);
  for (let j = 0; j < BLOCK_WORDS; j++) {
    if ((words[base + j] & (1 << (Math.imul(g, SALT[j]) >>> 27))) === 0) return false;
  }
  return true;
}

/** Distinct 32-bit hashes (open addressing; the bloom filter only ever sees hashes, so this is exact for it). */
export class HashSet32 {
  private table = new Uint32Array(1024);
  private hasZero = false;
  size = 0;

  add(h: number): void {
    if (h === 0) {
      if (!this.hasZero) {
        this.hasZero = true;
        this.size++;
      }
      return;
    }
    const mask = this.table.length - 1;
    let slot = h & mask;
    for (;;) {
      const k = this.table[slot];
      if (k === h) return;
      if (k === 0) break;
      slot = (slot + 1) & mask;
    }
    this.table[slot] = h;
    if (++this.size * 2 > this.table.length) this.grow();
  }

  forEach(visit: (h: number) => void): void {
    if (this.hasZero) visit(0);
    for (let i = 0; i < this.table.length; i++) if (this.table[i] !== 0) visit(this.table[i]);
  }

  private grow(): void {
    const old = this.table;
    this.table = new Uint32Array(old.length * 2);
    const mask = this.table.length - 1;
    for (let i = 0; i < old.length; i++) {
      const h = old[i];
      if (h === 0) continue;
      let slot = h & mask;
      while (this.table[slot] !== 0) slot = (slot + 1) & mask;
      this.table[slot] = h;
    }
  }
}
