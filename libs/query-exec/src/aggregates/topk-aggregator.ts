/** topk(x, k), topkif(x, k, pred): approximate most frequent values on a mergeable Space-Saving sketch. */
import type { BoolColumn, Column } from '@quarry/contracts';
import { readValue } from '../columns';
import { toDynamic } from '../functions/scalar-impl';
import { SpaceSaving } from '../sketches/space-saving';
import { rowPasses, type AggregateOutput, type Aggregator } from './aggregator';
import { valueKey } from './sketch-aggregators';

/** Counters per group: ten per requested key, at least 1,000 (exact while the distinct values fit). */
export function topkCapacity(k: number): number {
  return Math.max(k * 10, 1000);
}

export class TopkAggregator implements Aggregator {
  private sketches: SpaceSaving[] = [];
  private readonly capacity: number;

  constructor(private readonly k: number) {
    this.capacity = topkCapacity(k);
  }

  private sketch(g: number): SpaceSaving {
    return (this.sketches[g] ??= new SpaceSaving(this.capacity));
  }

  update(groups: Int32Array, n: number, args: Column[], predicate: BoolColumn | null): void {
    const c = args[0];
    if (c.kind === 'string') {
      const keys = c.dict.map((s) => valueKey(s));
      for (let i = 0; i < n; i++) {
        const code = c.codes[i];
        if (code < 0 || !rowPasses(predicate, i)) continue;
        this.sketch(groups[i]).add(keys[code], c.dict[code]);
      }
      return;
    }
    for (let i = 0; i < n; i++) {
      if (!rowPasses(predicate, i)) continue;
      const v = readValue(c, i);
      if (v === null || v === undefined) continue;
      const dv = toDynamic(v, c.kind);
      this.sketch(groups[i]).add(valueKey(dv), dv);
    }
  }

  merge(other: Aggregator, groupMap: ArrayLike<number>): void {
    (other as TopkAggregator).sketches.forEach((s, g) => this.sketch(groupMap[g]).merge(s));
  }

  finish(groupCount: number): AggregateOutput[] {
    const values = new Array(groupCount);
    for (let g = 0; g < groupCount; g++) {
      const s = this.sketches[g];
      values[g] = s ? s.top(this.k).map((h) => ({ key: h.value, count: h.count, error: h.error })) : [];
    }
    return [{ values, kind: 'dynamic' }];
  }
}
