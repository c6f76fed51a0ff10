/**
 * make_bag(bag [, max]): merges the property bags of a group into one. Values that are not bags (null,
 * scalars, arrays) are skipped. When a key occurs in several bags the FIRST value seen wins (Kusto
 * documents "an arbitrary value"; first-wins keeps it deterministic and matches the cap: once `max` keys
 * are collected, new keys are dropped). Partial states merge in order: this state's rows precede the other's.
 */
import type { BoolColumn, Column } from '@quarry/contracts';
import { readValue } from '../columns';
import { rowPasses, type AggregateOutput, type Aggregator } from './aggregator';

/** Kusto's default cap on the number of keys. */
export const MAKE_BAG_DEFAULT_MAX = 1_048_576;

export class MakeBagAggregator implements Aggregator {
  private bags: Map<string, unknown>[] = [];

  constructor(private readonly cap: number) {}

  private put(g: number, entries: Iterable<[string, unknown]>): void {
    const bag = (this.bags[g] ??= new Map());
    for (const [k, v] of entries) {
      if (bag.has(k)) continue;
      if (bag.size >= this.cap) return;
      bag.set(k, v);
    }
  }

  update(groups: Int32Array, n: number, args: Column[], predicate: BoolColumn | null): void {
    const c = args[0];
    for (let i = 0; i < n; i++) {
      if (!rowPasses(predicate, i)) continue;
      const v = readValue(c, i);
      if (v === null || typeof v !== 'object' || Array.isArray(v)) continue;
      this.put(groups[i], Object.entries(v as Record<string, unknown>));
    }
  }

  merge(other: Aggregator, groupMap: ArrayLike<number>): void {
    (other as MakeBagAggregator).bags.forEach((bag, g) => this.put(groupMap[g], bag));
  }

  finish(groupCount: number): AggregateOutput[] {
    const values = new Array(groupCount);
    // fromEntries defines own properties, so a `__proto__` key stays a plain key.
    for (let g = 0; g < groupCount; g++) values[g] = Object.fromEntries(this.bags[g] ?? []);
    return [{ values, kind: 'dynamic' }];
  }
}
