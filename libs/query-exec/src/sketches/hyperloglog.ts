/**
 * Distinct counting for `dcount`: exact (a set of value keys) up to a threshold, then a HyperLogLog.
 * Kusto's accuracy levels 0–4 pick the register count (its dcount page: 2^12, 2^14, 2^16, 2^17, 2^18
 * one-byte counters, standard error 1.6, 0.8, 0.4, 0.28, 0.2 % = 1.04/√m); level 1 (2^14) is the
 * default. Both forms merge, so partial states from several workers can be combined; counters of
 * different precisions merge at the coarser one (the finer registers are folded down, which gives exactly
 * the registers a pass at the coarser precision would have built).
 */
/** Precision (log2 of the register count) of each accuracy level. */
export const HLL_LEVEL_PRECISION: readonly number[] = [12, 14, 16, 17, 18];
/** Level 1's precision: what a counter without a level uses (and what `["hll", 1, …]` values hold). */
export const DEFAULT_PRECISION = 14;
/**
 * Distinct values kept exactly before the registers are allocated, by precision. Level 1 keeps today's
 * 4,096; level 0 a quarter as many (as its registers); levels 2–4 8,192, at least the 8,000 values Kusto's
 * page says its level 2 counts exactly.
 */
const EXACT_LIMIT: Readonly<Record<number, number>> = { 12: 1024, 14: 4096, 16: 8192, 17: 8192, 18: 8192 };

export function precisionOfLevel(level: number): number {
  return HLL_LEVEL_PRECISION[level] ?? DEFAULT_PRECISION;
}

export function isPrecision(p: unknown): p is number {
  return typeof p === 'number' && EXACT_LIMIT[p] !== undefined;
}

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

  /** `precision`: log2 of the register count (one of HLL_LEVEL_PRECISION). */
  constructor(private p: number = DEFAULT_PRECISION) {}

  get precision(): number {
    return this.p;
  }

  /** Bytes of registers held (0 while exact): 2^precision once the counter is a sketch. */
  get registerBytes(): number {
    return this.registers === null ? 0 : this.registers.length;
  }

  add(key: string): void {
    if (this.exact) {
      this.exact.add(key);
      if (this.exact.size > EXACT_LIMIT[this.p]) this.toSketch();
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
    const p = this.p;
    const idx = h >>> (32 - p);
    // Rank from the remaining bits plus a second hash, so runs longer than 32 - p bits are still possible.
    const rest = ((h << p) | (h2 >>> (32 - p))) >>> 0;
    const rank = rest === 0 ? 33 : clz32(rest) + 1;
    if (rank > this.registers![idx]) this.registers![idx] = rank;
  }

  private toSketch(): void {
    this.registers = new Uint8Array(1 << this.p);
    const keys = this.exact!;
    this.exact = null;
    for (const k of keys) this.addKey(k);
  }

  /** Lowers the counter's precision to `p` (no-op when it is already that coarse). */
  reducePrecision(p: number): void {
    if (p >= this.p) return;
    if (this.exact) {
      this.p = p;
      if (this.exact.size > EXACT_LIMIT[p]) this.toSketch();
      return;
    }
    this.registers = foldRegisters(this.registers!, this.p, p);
    this.p = p;
  }

  /** Adds `other`'s values; the result has the coarser of the two precisions. */
  merge(other: DistinctCounter): void {
    if (other.p < this.p) this.reducePrecision(other.p);
    if (other.exact) {
      for (const k of other.exact) this.add(k);
      return;
    }
    if (this.exact) this.toSketch();
    const a = this.registers!;
    const b = other.p === this.p ? other.registers! : foldRegisters(other.registers!, other.p, this.p);
    const m = a.length;
    for (let i = 0; i < m; i++) if (b[i] > a[i]) a[i] = b[i];
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
   * A counter from `exactKeys()` or `registerCopy()` output (`hll()` results read back) at precision `p`;
   * null when the keys are not strings or the registers are not 2^p ranks of at most 33.
   */
  static restore(
    keys: readonly unknown[] | null,
    registers: Uint8Array | null,
    p: number = DEFAULT_PRECISION,
  ): DistinctCounter | null {
    if (!isPrecision(p)) return null;
    const counter = new DistinctCounter(p);
    if (registers !== null) {
      const m = 1 << p;
      if (registers.length !== m) return null;
      for (let i = 0; i < m; i++) if (registers[i] > 33) return null;
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
    const M = regs.length;
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

/**
 * HLL register folding: the registers a pass at precision `to` would build, from those of a pass at the
 * finer precision `from` over the same hashes. Register j of `from` becomes register j >> d (d = from − to);
 * the d index bits dropped are the first bits of the coarser rank's window: if one of them is set, the
 * coarser rank is the position of the first set one, else it is d plus the finer rank (capped at 33, the
 * rank of an all-zero 32-bit window).
 */
export function foldRegisters(regs: Uint8Array, from: number, to: number): Uint8Array {
  const d = from - to;
  const out = new Uint8Array(1 << to);
  const lowMask = (1 << d) - 1;
  for (let j = 0; j < regs.length; j++) {
    const r = regs[j];
    if (r === 0) continue;
    const low = j & lowMask;
    const rank = low !== 0 ? clz32(low) - (32 - d) + 1 : Math.min(d + r, 33);
    const i = j >>> d;
    if (rank > out[i]) out[i] = rank;
  }
  return out;
}
