/** phrases(text, max) and presence(x, ... | *). */
import type { BoolColumn, Column } from '@quarry/contracts';
import { readValue, valueToString } from '../columns';
import { rowPasses, type AggregateOutput, type Aggregator } from './aggregator';

/** A value's phrase: its text with surrounding white space removed and inner runs collapsed to one space. */
export function phraseOf(text: string): string {
  return text.trim().replace(/\s+/g, ' ');
}

/**
 * `phrases(text, max)`: the `max` most frequent phrases (Quarry's reading of an undocumented algorithm: a
 * phrase is a whole value, white space normalized; empty values are skipped). Order: count descending,
 * then text by code point. Exact counts, so partial states merge without loss.
 */
export class PhrasesAggregator implements Aggregator {
  private counts: Map<string, number>[] = [];

  constructor(private readonly max: number) {}

  update(groups: Int32Array, n: number, args: Column[], predicate: BoolColumn | null): void {
    const c = args[0];
    for (let i = 0; i < n; i++) {
      if (!rowPasses(predicate, i)) continue;
      const v = readValue(c, i);
      if (v === null) continue;
      const phrase = phraseOf(valueToString(v, c.kind));
      if (phrase === '') continue;
      const m = (this.counts[groups[i]] ??= new Map());
      m.set(phrase, (m.get(phrase) ?? 0) + 1);
    }
  }

  merge(other: Aggregator, groupMap: ArrayLike<number>): void {
    (other as PhrasesAggregator).counts.forEach((m, g) => {
      const mine = (this.counts[groupMap[g]] ??= new Map());
      for (const [k, v] of m) mine.set(k, (mine.get(k) ?? 0) + v);
    });
  }

  finish(groupCount: number): AggregateOutput[] {
    const values = new Array(groupCount);
    for (let g = 0; g < groupCount; g++) {
      const entries = [...(this.counts[g] ?? new Map<string, number>())];
      entries.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
      values[g] = entries.slice(0, this.max).map(([k]) => k);
    }
    return [{ values, kind: 'dynamic' }];
  }
}

/**
 * `presence(x, y, ...)` / `presence(*)`: per column, how many rows have a non-null value — a bag
 * `{column: count}` (Quarry's reading of an undocumented function seen in Axiom tooling).
 */
export class PresenceAggregator implements Aggregator {
  private counts: number[][] = [];

  constructor(private readonly names: string[]) {}

  update(groups: Int32Array, n: number, args: Column[], predicate: BoolColumn | null): void {
    for (let i = 0; i < n; i++) {
      if (!rowPasses(predicate, i)) continue;
      const row = (this.counts[groups[i]] ??= new Array<number>(this.names.length).fill(0));
      args.forEach((c, j) => {
        if (readValue(c, i) !== null) row[j]++;
      });
    }
  }

  merge(other: Aggregator, groupMap: ArrayLike<number>): void {
    (other as PresenceAggregator).counts.forEach((row, g) => {
      const mine = (this.counts[groupMap[g]] ??= new Array<number>(this.names.length).fill(0));
      row.forEach((v, j) => (mine[j] += v));
    });
  }

  finish(groupCount: number): AggregateOutput[] {
    const values = new Array(groupCount);
    for (let g = 0; g < groupCount; g++) {
      const row = this.counts[g] ?? new Array<number>(this.names.length).fill(0);
      const bag: Record<string, number> = {};
      this.names.forEach((name, j) => (bag[name] = row[j]));
      values[g] = bag;
    }
    return [{ values, kind: 'dynamic' }];
  }
}
