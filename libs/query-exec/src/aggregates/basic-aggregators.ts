/** count, countif, sum(if), avg(if), min(if), max(if), stdev/variance(if). */
import type { BoolColumn, Column, ColumnKind } from '@quarry/contracts';
import { isNullAt, readValue } from '../columns';
import { rowPasses, type AggregateOutput, type Aggregator } from './aggregator';
import { GroupSlots, groupCountOf } from './group-slots';
import { sumsPerSlot } from './slot-lanes';

function numericValues(c: Column): Float64Array | null {
  return c.kind === 'long' || c.kind === 'real' || c.kind === 'datetime' || c.kind === 'timespan'
    ? c.values
    : null;
}

export class CountAggregator implements Aggregator {
  private readonly counts = new GroupSlots();

  update(groups: Int32Array, n: number, _args: Column[], predicate: BoolColumn | null): void {
    const counts = this.counts.ensure(groupCountOf(groups, n));
    if (predicate === null) {
      for (let i = 0; i < n; i++) counts[groups[i]]++;
      return;
    }
    for (let i = 0; i < n; i++) if (rowPasses(predicate, i)) counts[groups[i]]++;
  }

  updateAll(n: number, _args: Column[], predicate: BoolColumn | null): void {
    let passing = n;
    if (predicate !== null) {
      passing = 0;
      for (let i = 0; i < n; i++) if (rowPasses(predicate, i)) passing++;
    }
    this.counts.ensure(1)[0] += passing;
  }

  /** Adds rows counted elsewhere (per dictionary code) to group g. */
  addToGroup(g: number, rows: number): void {
    this.counts.ensure(g + 1)[g] += rows;
  }

  merge(other: Aggregator, groupMap: ArrayLike<number>): void {
    const o = (other as CountAggregator).counts.data;
    for (let g = 0; g < o.length; g++) {
      if (o[g] === 0) continue;
      const t = groupMap[g];
      this.counts.ensure(t + 1)[t] += o[g];
    }
  }

  finish(groupCount: number): AggregateOutput[] {
    const values = new Array(groupCount);
    for (let g = 0; g < groupCount; g++) values[g] = this.counts.get(g);
    return [{ values, kind: 'long' }];
  }
}

export class SumAggregator implements Aggregator {
  private readonly sums = new GroupSlots();
  private readonly counts = new GroupSlots();
  private kind: ColumnKind | null = null;

  constructor(
    private readonly mode: 'sum' | 'avg',
    private readonly zeroWhenEmpty: boolean,
  ) {}

  update(groups: Int32Array, n: number, args: Column[], predicate: BoolColumn | null): void {
    const c = args[0];
    const size = groupCountOf(groups, n);
    const sums = this.sums.ensure(size);
    const counts = this.counts.ensure(size);
    const values = numericValues(c);
    if (values) {
      this.noteKind(c.kind);
      const nulls = (c as { nulls: Uint8Array | null }).nulls;
      // Hot loop over the typed array.
      for (let i = 0; i < n; i++) {
        if ((nulls !== null && nulls[i] === 1) || !rowPasses(predicate, i)) continue;
        const g = groups[i];
        sums[g] += values[i];
        counts[g]++;
      }
      return;
    }
    for (let i = 0; i < n; i++) {
      if (!rowPasses(predicate, i)) continue;
      const v = readValue(c, i);
      const x = typeof v === 'number' ? v : typeof v === 'boolean' ? Number(v) : null;
      if (x === null) continue;
      this.noteKind(Number.isInteger(x) ? 'long' : 'real');
      const g = groups[i];
      sums[g] += x;
      counts[g]++;
    }
  }

  private noteKind(k: ColumnKind): void {
    if (this.kind === null) this.kind = k;
    else if (this.kind !== k) this.kind = 'real';
  }

  /**
   * `update` for a single dictionary-encoded key: sums and counts per dictionary slot (the key's codes,
   * `nullSlot` for a null key), then one addition per slot into its group. `rows` holds the rows per slot,
   * which are the counts when the column has no nulls (slot-lanes.ts).
   */
  updateBySlot(
    codes: Int32Array,
    nullSlot: number,
    n: number,
    c: Column,
    groupOfSlot: Int32Array,
    rows: Float64Array,
  ): void {
    const values = numericValues(c)!;
    this.noteKind(c.kind);
    const nulls = (c as { nulls: Uint8Array | null }).nulls;
    let slotSums: Float64Array;
    let slotCounts: Float64Array;
    if (nulls === null) {
      slotSums = sumsPerSlot(codes, nullSlot, n, values);
      slotCounts = rows;
    } else {
      slotSums = new Float64Array(nullSlot + 1);
      slotCounts = new Float64Array(nullSlot + 1);
      for (let i = 0; i < n; i++) {
        if (nulls[i] === 1) continue;
        const code = codes[i];
        const slot = code < 0 ? nullSlot : code;
        slotSums[slot] += values[i];
        slotCounts[slot]++;
      }
    }
    for (let slot = 0; slot <= nullSlot; slot++) {
      if (slotCounts[slot] === 0) continue;
      const g = groupOfSlot[slot];
      this.sums.ensure(g + 1)[g] += slotSums[slot];
      this.counts.ensure(g + 1)[g] += slotCounts[slot];
    }
  }

  merge(other: Aggregator, groupMap: ArrayLike<number>): void {
    const o = other as SumAggregator;
    if (o.kind !== null) this.noteKind(o.kind);
    const oc = o.counts.data;
    for (let g = 0; g < oc.length; g++) {
      if (oc[g] === 0) continue;
      const t = groupMap[g];
      this.sums.ensure(t + 1)[t] += o.sums.get(g);
      this.counts.ensure(t + 1)[t] += oc[g];
    }
  }

  finish(groupCount: number): AggregateOutput[] {
    const values = new Array(groupCount);
    for (let g = 0; g < groupCount; g++) {
      const count = this.counts.get(g);
      const sum = this.sums.get(g);
      if (this.mode === 'avg') values[g] = count ? sum / count : null;
      else values[g] = count ? sum : this.zeroWhenEmpty ? 0 : null;
    }
    if (this.mode === 'avg') {
      const temporal = this.kind === 'timespan' || this.kind === 'datetime';
      return [{ values, kind: temporal ? this.kind! : 'real' }];
    }
    return [{ values, kind: this.kind ?? 'long' }];
  }
}

export class MinMaxAggregator implements Aggregator {
  private best: unknown[] = [];
  private kind: ColumnKind | null = null;

  constructor(private readonly wantMax: boolean) {}

  update(groups: Int32Array, n: number, args: Column[], predicate: BoolColumn | null): void {
    const c = args[0];
    const best = this.best;
    const values = numericValues(c);
    if (values) {
      this.noteKind(c.kind);
      const nulls = (c as { nulls: Uint8Array | null }).nulls;
      for (let i = 0; i < n; i++) {
        if ((nulls !== null && nulls[i] === 1) || !rowPasses(predicate, i)) continue;
        const g = groups[i];
        const cur = best[g] as number | undefined;
        const v = values[i];
        if (cur === undefined || (this.wantMax ? v > cur : v < cur)) best[g] = v;
      }
      return;
    }
    for (let i = 0; i < n; i++) {
      if (isNullAt(c, i) || !rowPasses(predicate, i)) continue;
      const v = readValue(c, i);
      if (typeof v === 'object') continue;
      this.noteKind(
        c.kind === 'dynamic'
          ? typeof v === 'string'
            ? 'string'
            : typeof v === 'boolean'
              ? 'bool'
              : 'real'
          : c.kind,
      );
      const g = groups[i];
      const cur = best[g];
      if (
        cur === undefined ||
        (this.wantMax ? (v as number) > (cur as number) : (v as number) < (cur as number))
      )
        best[g] = v;
    }
  }

  private noteKind(k: ColumnKind): void {
    if (this.kind === null) this.kind = k;
    else if (this.kind !== k)
      this.kind =
        (this.kind === 'long' || this.kind === 'real') && (k === 'long' || k === 'real') ? 'real' : 'dynamic';
  }

  merge(other: Aggregator, groupMap: ArrayLike<number>): void {
    const o = other as MinMaxAggregator;
    if (o.kind !== null) this.noteKind(o.kind);
    o.best.forEach((v, g) => {
      const t = groupMap[g];
      const cur = this.best[t];
      if (
        cur === undefined ||
        (this.wantMax ? (v as number) > (cur as number) : (v as number) < (cur as number))
      ) {
        this.best[t] = v;
      }
    });
  }

  finish(groupCount: number): AggregateOutput[] {
    const values = new Array(groupCount);
    for (let g = 0; g < groupCount; g++) values[g] = this.best[g] ?? null;
    return [{ values, kind: this.kind ?? 'real' }];
  }
}

/**
 * Sample (n−1) or population (n: stdevp, variancep) variance / standard deviation with Welford's update
 * (mergeable by Chan's formula).
 */
export class VarianceAggregator implements Aggregator {
  private n: number[] = [];
  private mean: number[] = [];
  private m2: number[] = [];

  constructor(
    private readonly stdev: boolean,
    private readonly population = false,
  ) {}

  update(groups: Int32Array, n: number, args: Column[], predicate: BoolColumn | null): void {
    const c = args[0];
    for (let i = 0; i < n; i++) {
      if (!rowPasses(predicate, i)) continue;
      const v = readValue(c, i);
      if (typeof v !== 'number') continue;
      const g = groups[i];
      const count = (this.n[g] ?? 0) + 1;
      const mean = this.mean[g] ?? 0;
      const delta = v - mean;
      const newMean = mean + delta / count;
      this.n[g] = count;
      this.mean[g] = newMean;
      this.m2[g] = (this.m2[g] ?? 0) + delta * (v - newMean);
    }
  }

  merge(other: Aggregator, groupMap: ArrayLike<number>): void {
    const o = other as VarianceAggregator;
    o.n.forEach((nb, g) => {
      const t = groupMap[g];
      const na = this.n[t] ?? 0;
      if (na === 0) {
        this.n[t] = nb;
        this.mean[t] = o.mean[g];
        this.m2[t] = o.m2[g];
        return;
      }
      // Chan et al.: combine two (n, mean, M2) partials.
      const delta = o.mean[g] - this.mean[t];
      const n = na + nb;
      this.mean[t] += (delta * nb) / n;
      this.m2[t] += o.m2[g] + (delta * delta * na * nb) / n;
      this.n[t] = n;
    });
  }

  finish(groupCount: number): AggregateOutput[] {
    const values = new Array(groupCount);
    for (let g = 0; g < groupCount; g++) {
      const count = this.n[g] ?? 0;
      if (count <= 1) values[g] = 0;
      else {
        const variance = this.m2[g] / (this.population ? count : count - 1);
        values[g] = this.stdev ? Math.sqrt(variance) : variance;
      }
    }
    return [{ values, kind: 'real' }];
  }
}
