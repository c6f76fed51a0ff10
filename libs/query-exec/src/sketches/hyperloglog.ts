/**
 * Distinct counting for `dcount`: exact (a set of value keys) up to a threshold, then a HyperLogLog with
 * 2^14 registers (~0.8% standard error). Both forms merge, so partial states from several workers can be
 * combined.
 */
const P = 14;
const M = 1 << P;
const EXACT_LIMIT = 4096;
// Module-level aliases: a global lookup per call is slow inside vm contexts (jest) and costs nothing here.
const imul = Math.imul;
const clz32 = Math.clz32;

/** 32-bit FNV-1a followed by a murmur3 finalizer for better avalanche on short keys. */
export function hash32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = imul(h, 0x01000193);
  }
  return fmix32(h);
}

/** murmur3's 32-bit finaliser. */
function fmix32(h: number): number {
  h ^= h >>> 16;
  h = imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

const scratch = new Uint32Array(2);

/**
 * Two independent 32-bit hashes of `prefix + key` from one pass (no string concatenation), written to
 * `out[at]` and `out[at + 1]`. Callers hash each distinct dictionary string once and add by code.
 */
export function hashKey(prefix: string, key: string, out: Uint32Array, at: number): void {
  let h = 0x811c9dc5;
  let h2 = 0x9747b28c;
  for (let i = 0; i < prefix.length; i++) {
    const c = prefix.charCodeAt(i);
    h = imul(h ^ c, 0x01000193);
    h2 = imul(h2 ^ c, 0x5bd1e995);
    h2 ^= h2 >>> 15;
  }
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    h = imul(h ^ c, 0x01000193);
    h2 = imul(h2 ^ c, 0x5bd1e995);
    h2 ^= h2 >>> 15;
  }
  out[at] = fmix32(h);
  out[at + 1] = fmix32(h2 ^ (prefix.length + key.length));
}

export class DistinctCounter {
  private exact: Set<string> | null = new Set();
  private registers: Uint8Array | null = null;

  add(key: string): void {
    if (this.exact) {
      this.exact.add(key);
      if (this.exact.size > EXACT_LIMIT) this.toSketch();
      return;
    }
    this.addKey(key);
  }

  /** True while the counter still keeps exact keys (then it needs keys, not hashes). */
  get isExact(): boolean {
    return this.exact !== null;
  }

  private addKey(key: string): void {
    hashKey('', key, scratch, 0);
    this.addHash(scratch[0], scratch[1]);
  }

  /** Adds a key hashed beforehand with `hashKey` (the sketch form only; see `isExact`). */
  addHash(h: number, h2: number): void {
    const idx = h >>> (32 - P);
    // Rank from the remaining bits plus a second hash, so runs longer than 18 bits are still possible.
    const rest = ((h << P) | (h2 >>> (32 - P))) >>> 0;
    const rank = rest === 0 ? 33 : clz32(rest) + 1;
    if (rank > this.registers![idx]) this.registers![idx] = rank;
  }

  private toSketch(): void {
    this.registers = new Uint8Array(M);
    const keys = this.exact!;
    this.exact = null;
    for (const k of keys) this.addKey(k);
  }

  merge(other: DistinctCounter): void {
    if (other.exact) {
      for (const k of other.exact) this.add(k);
      return;
    }
    if (this.exact) this.toSketch();
    const a = this.registers!;
    const b = other.registers!;
    for (let i = 0; i < M; i++) if (b[i] > a[i]) a[i] = b[i];
  }

  /** The exact keys while the counter is exact, else null (what an `hll()` result carries). */
  exactKeys(): string[] | null {
    return this.exact ? [...this.exact] : null;
  }

  /** A copy of the registers once the counter is a sketch, else null. */
  registerCopy(): Uint8Array | null {
    return this.registers ? this.registers.slice() : null;
  }

  /**
   * A counter from `exactKeys()` or `registerCopy()` output (`hll()` results read back); null when the
   * keys are not strings or the registers are not 2^14 ranks of at most 33.
   */
  static restore(keys: readonly unknown[] | null, registers: Uint8Array | null): DistinctCounter | null {
    const counter = new DistinctCounter();
    if (registers !== null) {
      if (registers.length !== M) return null;
      for (let i = 0; i < M; i++) if (registers[i] > 33) return null;
      counter.exact = null;
      counter.registers = registers;
      return counter;
    }
    if (keys === null) return null;
    for (const k of keys) {
      if (typeof k !== 'string') return null;
      counter.add(k);
    }
    return counter;
  }

  estimate(): number {
    if (this.exact) return this.exact.size;
    const regs = this.registers!;
    let sum = 0;
    let zeros = 0;
    for (let i = 0; i < M; i++) {
      sum += Math.pow(2, -regs[i]);
      if (regs[i] === 0) zeros++;
    }
    const alpha = 0.7213 / (1 + 1.079 / M);
    const raw = (alpha * M * M) / sum;
    if (raw <= 2.5 * M && zeros > 0) return Math.round(M * Math.log(M / zeros));
    return Math.round(raw);
  }
}
