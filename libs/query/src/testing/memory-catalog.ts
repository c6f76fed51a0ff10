/**
 * An in-memory `Catalog` for tests: datasets from arrays of JSON events, split into several batches so
 * multi-batch paths (including a field whose kind differs between batches) are exercised.
 */
import { parseRfc3339 } from '@quarry/common';
import {
  batchFromEvents,
  selectRows,
  wireTypeOfKind,
  type Catalog,
  type ColumnBatch,
  type DatasetSource,
  type FieldSchema,
  type FieldValue,
  type NormalizedEvent,
  type ScanRequest,
  type ScanStats,
} from '@quarry/contracts';

export interface MemoryCatalogOptions {
  /** Events per batch (default 64). */
  batchSize?: number;
  /** `_sysTime` of every event (default: 2024-06-01). */
  sysTimeMs?: number;
}

/** Flattens nested objects into dotted names (`geo.city`); arrays stay values. */
export function flattenEvent(
  event: Record<string, unknown>,
  prefix = '',
  out: Record<string, FieldValue> = {},
): Record<string, FieldValue> {
  for (const [key, value] of Object.entries(event)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (value !== null && typeof value === 'object' && !Array.isArray(value))
      flattenEvent(value as Record<string, unknown>, name, out);
    else out[name] = value as FieldValue;
  }
  return out;
}

export function normalizeEvent(event: Record<string, unknown>, fallbackTime: number): NormalizedEvent {
  const fields = flattenEvent(event);
  const rawTime = fields._time;
  delete fields._time;
  delete fields._sysTime;
  let time = fallbackTime;
  if (typeof rawTime === 'string') time = parseRfc3339(rawTime) ?? fallbackTime;
  else if (typeof rawTime === 'number') time = rawTime;
  return { time, fields };
}

export class MemoryDataset implements DatasetSource {
  readonly batches: ColumnBatch[] = [];

  constructor(
    readonly name: string,
    events: Record<string, unknown>[],
    options: MemoryCatalogOptions = {},
  ) {
    const size = options.batchSize ?? 64;
    const sys = options.sysTimeMs ?? Date.UTC(2024, 5, 1);
    const normalized = events.map((e) => normalizeEvent(e, sys));
    for (let i = 0; i < normalized.length; i += size)
      this.batches.push(batchFromEvents(normalized.slice(i, i + size), sys));
  }

  /** The same dataset with only the batches whose index passes `keep` (to split scans in tests). */
  subset(keep: (index: number) => boolean): MemoryDataset {
    const part = new MemoryDataset(this.name, []);
    this.batches.forEach((b, i) => keep(i) && part.batches.push(b));
    return part;
  }

  async schema(): Promise<FieldSchema[]> {
    const types = new Map<string, Set<string>>();
    for (const b of this.batches) {
      for (const [name, col] of b.columns) {
        let set = types.get(name);
        if (!set) types.set(name, (set = new Set()));
        set.add(wireTypeOfKind(col.kind));
      }
    }
    if (!types.has('_time')) types.set('_time', new Set(['datetime']));
    if (!types.has('_sysTime')) types.set('_sysTime', new Set(['datetime']));
    return [...types.entries()]
      .map(([name, set]) => ({ name, type: [...set].sort().join('|') }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** Counts through `scan` (`_time` only): exercises the engine's count-from-metadata path in tests. */
  async countRows(startMs: number, endMs: number, stats: ScanStats): Promise<number> {
    let rows = 0;
    for await (const batch of this.scan({ startMs, endMs, columns: [], stats })) rows += batch.length;
    return rows;
  }

  async *scan(request: ScanRequest): AsyncIterable<ColumnBatch> {
    for (const batch of this.batches) {
      if (request.signal?.aborted) return;
      const time = batch.columns.get('_time') as { values: Float64Array };
      request.stats.blocksExamined++;
      let min = Infinity;
      let max = -Infinity;
      const sel: number[] = [];
      for (let i = 0; i < batch.length; i++) {
        const t = time.values[i];
        if (t < min) min = t;
        if (t > max) max = t;
        if (t >= request.startMs && t < request.endMs) sel.push(i);
      }
      if (batch.length) {
        request.stats.minBlockTime =
          request.stats.minBlockTime === null ? min : Math.min(request.stats.minBlockTime, min);
        request.stats.maxBlockTime =
          request.stats.maxBlockTime === null ? max : Math.max(request.stats.maxBlockTime, max);
      }
      if (sel.length === 0) continue;
      request.stats.blocksMatched++;
      request.stats.rowsExamined += sel.length;
      let out = sel.length === batch.length ? batch : selectRows(batch, sel);
      if (request.columns) {
        const wanted = new Set([...request.columns, '_time']);
        out = { length: out.length, columns: new Map([...out.columns].filter(([name]) => wanted.has(name))) };
      }
      yield out;
    }
  }
}

export class MemoryCatalog implements Catalog {
  private readonly datasets = new Map<string, MemoryDataset>();

  constructor(datasets: Record<string, Record<string, unknown>[]> = {}, options: MemoryCatalogOptions = {}) {
    for (const [name, events] of Object.entries(datasets))
      this.datasets.set(name, new MemoryDataset(name, events, options));
  }

  add(name: string, events: Record<string, unknown>[], options?: MemoryCatalogOptions): this {
    this.datasets.set(name, new MemoryDataset(name, events, options));
    return this;
  }

  async getDataset(name: string): Promise<DatasetSource | null> {
    return this.datasets.get(name) ?? null;
  }

  async listDatasets(): Promise<string[]> {
    return [...this.datasets.keys()];
  }
}
