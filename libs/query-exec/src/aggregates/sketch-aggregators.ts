/** dcount(if) on a HyperLogLog-backed counter; percentile(s) on a mergeable quantile sketch. */
import { invalid } from '@quarry/common';
import type { BoolColumn, Column, ColumnKind } from '@quarry/contracts';
import { readValue } from '../columns';
import { toDynamic } from '../functions/scalar-impl';
import { DistinctCounter, hashKey, precisionOfLevel } from '../sketches/hyperloglog';
import { ExactBudget, QuantileSketch } from '../sketches/quantile-sketch';
import { rowPasses, type AggregateOutput, type Aggregator } from './aggregator';
import type { PercentileShape } from './weighted-percentile-aggregator';

export function valueKey(v: unknown): string {
  if (typeof v === 'string') return 's' + v;
  if (typeof v === 'number') return 'n' + v;
  if (typeof v === 'boolean') return 'b' + v;
  return 'j' + JSON.stringify(v);
}

/**
 * Hash pairs (`hashKey('s', v)`: the hashes of `valueKey(v)`) of a string column's dictionary, kept as long
 * as the dictionary lives. A block's decoded columns stay in the column cache across queries, so a repeated
 * `dcount` over a high-cardinality column (where hashing every distinct string was most of its time)
 * hashes each block's dictionary once. 8 bytes per string, next to the string's own tens of bytes; a
 * dictionary that grew since (an append-only one) is hashed again.
 */
const hashesOfDictionary = new WeakMap<readonly string[], Uint32Array>();

function dictionaryHashes(dict: readonly string[]): Uint32Array {
  const known = hashesOfDictionary.get(dict);
  if (known !== undefined && known.length === 2 * dict.length) return known;
  const hashes = new Uint32Array(2 * dict.length);
  for (let d = 0; d < dict.length; d++) hashKey('s', dict[d], hashes, 2 * d);
  hashesOfDictionary.set(dict, hashes);
  return hashes;
}

/**
 * Register memory one dcount / hll aggregate may hold over all its groups (registers are allocated only
 * when a group passes its exact set): 65,536 groups at level 1 (16 KiB each), 4,096 at level 4 (256 KiB).
 * Past it the query fails with query_limit_exceeded instead of exhausting the process's memory.
 */
export const MAX_REGISTER_BYTES = 1 << 30;

export class DcountAggregator implements Aggregator {
  protected counters: DistinctCounter[] = [];
  /** Log2 of the register count of new counters (Kusto's accuracy level, default 1: 2^14). */
  protected readonly precision: number;
  /** Register bytes held by this aggregate's counters (see MAX_REGISTER_BYTES). */
  protected registerBytes = 0;

  constructor(level = 1) {
    this.precision = precisionOfLevel(level);
  }

  /** Accounts for a counter's register bytes changing by `delta`. */
  protected charge(delta: number): void {
    if (delta === 0) return;
    this.registerBytes += delta;
    if (this.registerBytes > MAX_REGISTER_BYTES)
      throw invalid(
        `dcount / hll sketches hold more than ${MAX_REGISTER_BYTES / (1 << 20)} MiB of registers; ` +
          'use a lower accuracy level, group by fewer keys, or filter first',
        { code: 'query_limit_exceeded' },
      );
  }

  update(groups: Int32Array, n: number, args: Column[], predicate: BoolColumn | null): void {
    const c = args[0];
    const p = this.precision;
    if (c.kind === 'string') {
      // Exact counters take keys; sketches take hashes, one pair per dictionary string (see dictionaryHashes).
      const { codes, dict } = c;
      let hashes: Uint32Array | null = null;
      for (let i = 0; i < n; i++) {
        const code = codes[i];
        if (code < 0 || !rowPasses(predicate, i)) continue;
        const counter = (this.counters[groups[i]] ??= new DistinctCounter(p));
        if (counter.isExact) {
          counter.add(valueKey(dict[code]));
          if (!counter.isExact) this.charge(counter.registerBytes);
          continue;
        }
        hashes ??= dictionaryHashes(dict);
        counter.addHash(hashes[2 * code], hashes[2 * code + 1]);
      }
      return;
    }
    for (let i = 0; i < n; i++) {
      if (!rowPasses(predicate, i)) continue;
      const v = readValue(c, i);
      if (v === null) continue;
      const counter = (this.counters[groups[i]] ??= new DistinctCounter(p));
      if (!counter.isExact) {
        counter.add(valueKey(v));
        continue;
      }
      counter.add(valueKey(v));
      if (!counter.isExact) this.charge(counter.registerBytes);
    }
  }

  /** Merges `counter` into group g's (created at `counter`'s precision when the group has none). */
  protected mergeInto(g: number, counter: DistinctCounter): void {
    const target = (this.counters[g] ??= new DistinctCounter(counter.precision));
    const before = target.registerBytes;
    target.merge(counter);
    this.charge(target.registerBytes - before);
  }

  merge(other: Aggregator, groupMap: ArrayLike<number>): void {
    (other as DcountAggregator).counters.forEach((c, g) => this.mergeInto(groupMap[g], c));
  }

  finish(groupCount: number): AggregateOutput[] {
    const values = new Array(groupCount);
    for (let g = 0; g < groupCount; g++) values[g] = this.counters[g]?.estimate() ?? 0;
    return [{ values, kind: 'long' }];
  }
}

/**
 * Values kept exactly across all groups of one percentile aggregate (64 MiB of float64; twice as many
 * whole thousandths, held as 32-bit integers: quantile-sketch.ts) before groups switch to the t-digest.
 * Exact answers cost one radix selection per group; switching costs a sort of everything held, so the
 * budget is set where its memory is still small next to a query's.
 */
const EXACT_PERCENTILE_VALUES = 8_000_000;

export class PercentileAggregator implements Aggregator {
  private sketches: QuantileSketch[] = [];
  private kind: ColumnKind | null = null;
  private readonly budget = new ExactBudget(2 * EXACT_PERCENTILE_VALUES);

  constructor(
    private readonly ranks: number[],
    /** percentile: one column; percentiles: a column per rank; percentiles_array: one dynamic array. */
    private readonly shape: PercentileShape,
  ) {}

  update(groups: Int32Array, n: number, args: Column[], predicate: BoolColumn | null): void {
    const c = args[0];
    if (c.kind !== 'dynamic' && c.kind !== 'string' && c.kind !== 'bool') this.kind ??= c.kind;
    const sketches = this.sketches;
    if (c.kind === 'long' || c.kind === 'real' || c.kind === 'datetime' || c.kind === 'timespan') {
      const { values, nulls } = c;
      for (let i = 0; i < n; i++) {
        if ((nulls !== null && nulls[i] === 1) || !rowPasses(predicate, i)) continue;
        (sketches[groups[i]] ??= new QuantileSketch(this.budget)).add(values[i]);
      }
      return;
    }
    for (let i = 0; i < n; i++) {
      if (!rowPasses(predicate, i)) continue;
      const v = readValue(c, i);
      if (typeof v !== 'number') continue;
      (sketches[groups[i]] ??= new QuantileSketch(this.budget)).add(v);
    }
  }

  merge(other: Aggregator, groupMap: ArrayLike<number>): void {
    const o = other as PercentileAggregator;
    this.kind ??= o.kind;
    // A partial is dropped once merged, so its sketches' arrays are taken over rather than copied.
    o.sketches.forEach((sk, g) =>
      (this.sketches[groupMap[g]] ??= new QuantileSketch(this.budget)).absorb(sk),
    );
  }

  prepareForTransfer(moveMinBytes?: number): void {
    for (const sketch of this.sketches) sketch?.prepareForTransfer(moveMinBytes);
  }

  transferables(minBytes: number): ArrayBuffer[] {
    return this.sketches.flatMap((sketch) => sketch?.ownedBuffers(minBytes) ?? []);
  }

  finish(groupCount: number): AggregateOutput[] {
    const kind = this.kind ?? 'real';
    const perGroup = new Array<(number | null)[]>(groupCount);
    for (let g = 0; g < groupCount; g++) {
      const s = this.sketches[g];
      perGroup[g] = this.ranks.map((p) => (s ? s.quantile(p) : null));
    }
    if (this.shape === 'array') {
      // In an array (a dynamic value) datetimes and timespans are text, as in every dynamic value.
      return [{ values: perGroup.map((qs) => qs.map((q) => toDynamic(q, kind))), kind: 'dynamic' }];
    }
    const columns = this.shape === 'one' ? 1 : this.ranks.length;
    return Array.from({ length: columns }, (_, j) => ({ values: perGroup.map((qs) => qs[j]), kind }));
  }
}
