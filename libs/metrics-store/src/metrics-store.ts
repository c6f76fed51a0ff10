import { createHash } from 'node:crypto';
import { ByteLru, invalid, isQuarryError } from '@quarry/common';
import type {
  MetricSelection,
  MetricSeries,
  MetricsSource,
  MetricTags,
  MetricTemporality,
  MetricType,
} from '@quarry/contracts';
import type {
  Metastore,
  MetricBlockRecord,
  MetricMetadataRecord,
  MetricSeriesRecord,
} from '@quarry/metastore';
import type { ObjectStore } from '@quarry/objstore';
import { MetricsTail } from './metrics-tail';
import {
  decodeBlockSeries,
  decodedByteLength,
  decodePointBlock,
  encodePointBlock,
  indexPointBlock,
  type BlockIndex,
  type BlockSeries,
} from './point-block';
import { SeriesCatalog, type SeriesEntry } from './series-catalog';
import { seriesIdOf } from './series-key';
import { mergePieces, normalizeSeries, scalarColumns, sliceSeries } from './series-points';
import type { IncomingSeries, MetricMeta, MetricsBatch } from './types';

export interface MetricsStoreOptions {
  /** Points one query may read before it fails (bounded memory per query). */
  maxPointsPerQuery?: number;
  /** Block indexes and decoded series kept for queries, in bytes. */
  blockCacheBytes?: number;
  /** Blocks never span a multiple of this many seconds, so a query reads only buckets it overlaps. */
  bucketSeconds?: number;
  /**
   * Embedded shape (default): compactions and merges update this process's block lists and tail at once.
   * Cluster: the catalog refresh applies what the metastore says (`setBlocks`, `dropThrough`), so a
   * compactor never changes in-memory state that a query node's refresh owns.
   */
  applyLocally?: boolean;
}

/** A metrics-log record handed to the compactor. */
export interface MetricsLogEntry {
  offset: number;
  batch: MetricsBatch;
}

export interface MetricsCompaction {
  blocks: number;
  points: number;
}

const DEFAULTS = {
  maxPointsPerQuery: 20_000_000,
  blockCacheBytes: 64 * 1024 * 1024,
  bucketSeconds: 3600,
  applyLocally: true,
};

/** Blocks of one (dataset, metric, bucket) merged at once while the bucket is still being written. */
const MERGE_OPEN_BUCKET_AT = 16;
/** Merges per round, so one round holds the compaction lock only briefly. */
const MAX_MERGES_PER_ROUND = 32;
/** Merged-away objects stay readable this long for queries that listed them before the swap. */
const RETIRE_GRACE_SECONDS = 60;

/**
 * The series store of metrics datasets: catalog + tag index (in memory, persisted in the metastore),
 * columnar point blocks in the object store, and the tail of acknowledged, not yet compacted points.
 * Durability is the caller's job (the metrics log): `add` is called only for logged batches, and
 * `compact` registers blocks and the log offset in one metastore transaction.
 */
export class MetricsStore {
  readonly catalog = new SeriesCatalog();
  readonly tail = new MetricsTail();
  /** Registered blocks by dataset and metric, in log order. */
  private readonly blocks = new Map<string, Map<string, MetricBlockRecord[]>>();
  /** Ids of the blocks above: a redone compaction step registers nothing twice. */
  private readonly blockIds = new Set<string>();
  /** Per block: its index (`i`) and the series queries decoded from it (`s`), so a read decodes only its series. */
  private readonly cache: ByteLru<CacheEntry>;
  /** Objects of merged-away blocks, deleted after the grace period (a crash leaves them as garbage). */
  private retired: { objectKey: string; at: number }[] = [];
  private readonly options: typeof DEFAULTS;
  private blockCount = 0;
  /** The committed metrics-log offset of the snapshot `open` loaded. */
  loadedOffset = 0;
  /** How often the metrics log started over (block ids carry it; see `blockIdFor` in contracts). */
  logEpoch = 0;

  private constructor(
    private readonly metastore: Metastore,
    private readonly objects: ObjectStore,
    options: MetricsStoreOptions,
  ) {
    this.options = { ...DEFAULTS, ...options };
    this.cache = new ByteLru<CacheEntry>(this.options.blockCacheBytes);
  }

  /** Loads the persisted catalog and block list. */
  static async open(
    metastore: Metastore,
    objects: ObjectStore,
    options: MetricsStoreOptions = {},
  ): Promise<MetricsStore> {
    const store = new MetricsStore(metastore, objects, options);
    // Catalog, blocks and offset from one snapshot: a reader that follows the log from `loadedOffset`
    // sees every series the catalog lacks.
    const { snapshot, offset } = await metastore.snapshot(async (tx) => ({
      snapshot: await tx.metricSeries.load(),
      offset: await tx.metricSeries.committedOffset(),
    }));
    store.loadedOffset = offset;
    const metaOf = new Map(snapshot.metadata.map((m) => [`${m.datasetId}\0${m.metric}`, toMeta(m)]));
    for (const s of snapshot.series) {
      const meta = metaOf.get(`${s.datasetId}\0${s.metric}`) ?? UNKNOWN_META;
      store.catalog.upsert(
        s.datasetId,
        s.metric,
        meta,
        s.seriesId,
        s.tags as MetricTags,
        s.minTime,
        s.maxTime,
      );
    }
    store.addBlocks(snapshot.blocks);
    return store;
  }

  get stats(): { series: number; tailPoints: number; blocks: number } {
    return { series: this.catalog.seriesCount, tailPoints: this.tail.points, blocks: this.blockCount };
  }

  /** The next metrics-log offset to compact. */
  committedOffset(): Promise<number> {
    return this.metastore.metricSeries.committedOffset();
  }

  /** Makes a logged batch visible to queries and the info endpoints. Returns the number of points. */
  add(entry: MetricsLogEntry): number {
    let points = 0;
    for (const incoming of entry.batch.series) {
      const series = this.register(entry.batch.datasetId, incoming);
      if (!series) continue;
      this.tail.add(entry.batch.datasetId, incoming.metric, { offset: entry.offset, series });
      points += series.times.length;
    }
    return points;
  }

  /**
   * Turns log entries into blocks: upload one block per (dataset, metric, time bucket), register the
   * blocks, series, metadata and the next offset in one transaction, then (synchronously) swap the
   * blocks in and drop the range from the tail. Block ids derive from the log range, so redoing a range
   * after a crash overwrites the same objects and registers nothing twice.
   */
  async compact(
    entries: readonly MetricsLogEntry[],
    isLive: (datasetId: string) => boolean,
    /** Compare-and-set: the committed offset the caller read from (see `MetricsCommit.expectedOffset`). */
    expectedOffset?: number,
  ): Promise<MetricsCompaction> {
    if (entries.length === 0) return { blocks: 0, points: 0 };
    const firstOffset = entries[0].offset;
    const lastOffset = entries[entries.length - 1].offset;
    const groups = new Map<
      string,
      { datasetId: string; metric: string; bucket: number; pieces: Map<string, BlockSeries[]> }
    >();
    const seriesRows = new Map<string, MetricSeriesRecord>();
    const metaRows = new Map<string, MetricMetadataRecord>();
    for (const { batch } of entries) {
      if (!isLive(batch.datasetId)) continue; // dataset deleted since
      for (const incoming of batch.series) {
        // The catalog already has these series: `add` (or the replay) registered them.
        const series = normalizeIncoming(incoming);
        if (!series) continue;
        metaRows.set(`${batch.datasetId}\0${incoming.metric}`, {
          datasetId: batch.datasetId,
          metric: incoming.metric,
          ...incoming.meta,
        });
        const rowKey = `${batch.datasetId}\0${series.id}`;
        const row = seriesRows.get(rowKey);
        const minTime = series.times[0];
        const maxTime = series.times[series.times.length - 1];
        if (row) {
          row.minTime = Math.min(row.minTime, minTime);
          row.maxTime = Math.max(row.maxTime, maxTime);
        } else {
          seriesRows.set(rowKey, {
            datasetId: batch.datasetId,
            seriesId: series.id,
            metric: incoming.metric,
            tags: series.tags,
            minTime,
            maxTime,
          });
        }
        for (const piece of splitByBucket(series, this.options.bucketSeconds)) {
          const bucket = Math.floor(piece.times[0] / this.options.bucketSeconds);
          const key = `${batch.datasetId}\0${incoming.metric}\0${bucket}`;
          let group = groups.get(key);
          if (!group) {
            group = { datasetId: batch.datasetId, metric: incoming.metric, bucket, pieces: new Map() };
            groups.set(key, group);
          }
          const list = group.pieces.get(series.id) ?? [];
          list.push(piece);
          group.pieces.set(series.id, list);
        }
      }
    }

    const blocks: MetricBlockRecord[] = [];
    let points = 0;
    for (const group of groups.values()) {
      const series = [...group.pieces.values()].map(mergePieces);
      const bytes = encodePointBlock(group.metric, series);
      const epoch = this.logEpoch > 0 ? `.e${this.logEpoch}` : '';
      const id = `${group.datasetId}.${metricHashOf(group.metric)}.${group.bucket}${epoch}.${firstOffset}-${lastOffset}`;
      const objectKey = `metrics/${group.datasetId}/${id}.qmb`;
      await this.objects.put(objectKey, bytes);
      const pointCount = series.reduce((n, s) => n + s.times.length, 0);
      points += pointCount;
      blocks.push({
        id,
        datasetId: group.datasetId,
        metric: group.metric,
        objectKey,
        minTime: series.reduce((t, s) => Math.min(t, s.times[0]), Infinity),
        maxTime: series.reduce((t, s) => Math.max(t, s.times[s.times.length - 1]), -Infinity),
        seriesCount: series.length,
        pointCount,
        sizeBytes: bytes.byteLength,
        firstOffset,
        createdAt: new Date().toISOString(),
      });
    }
    await this.metastore.metricSeries.commit({
      series: [...seriesRows.values()],
      metadata: [...metaRows.values()],
      blocks,
      nextOffset: lastOffset + 1,
      expectedOffset,
    });
    if (this.options.applyLocally) {
      // Synchronous from here: a query snapshots blocks and tail together, so it sees each point once.
      this.addBlocks(blocks.filter((b) => isLive(b.datasetId)));
      this.tail.dropThrough(lastOffset);
    }
    return { blocks: blocks.length, points };
  }

  /**
   * Merges the small blocks that compaction steps leave in a time bucket into one: for every (dataset,
   * metric, bucket) with several blocks once the bucket is over (or many while it is written). The
   * merged block replaces its inputs in one metastore transaction and in one synchronous in-memory step;
   * its id derives from the inputs, so a crash before the commit only repeats the upload. Returns the
   * number of merges done.
   */
  async mergeBlocks(nowSec: number, isLive: (datasetId: string) => boolean): Promise<number> {
    await this.deleteRetired(nowSec);
    const { bucketSeconds } = this.options;
    const groups: { datasetId: string; metric: string; bucket: number; blocks: MetricBlockRecord[] }[] = [];
    for (const [datasetId, metrics] of this.blocks) {
      if (!isLive(datasetId)) continue;
      for (const [metric, list] of metrics) {
        const byBucket = new Map<number, MetricBlockRecord[]>();
        for (const block of list) {
          const bucket = Math.floor(block.minTime / bucketSeconds);
          const group = byBucket.get(bucket) ?? [];
          group.push(block);
          byBucket.set(bucket, group);
        }
        for (const [bucket, blocks] of byBucket) {
          const closed = (bucket + 1) * bucketSeconds <= nowSec;
          if (blocks.length >= MERGE_OPEN_BUCKET_AT || (closed && blocks.length >= 2))
            groups.push({ datasetId, metric, bucket, blocks });
        }
      }
    }
    const chosen = groups.slice(0, MAX_MERGES_PER_ROUND);
    let merged = 0;
    for (const group of chosen) {
      try {
        await this.mergeGroup(group.datasetId, group.metric, group.bucket, group.blocks, nowSec);
        merged++;
      } catch (err) {
        // Another process changed the inputs (cluster): the next round sees the new list.
        if (isQuarryError(err) && err.code === 'blocks_changed') continue;
        throw err;
      }
    }
    return merged;
  }

  private async mergeGroup(
    datasetId: string,
    metric: string,
    bucket: number,
    inputs: readonly MetricBlockRecord[],
    nowSec: number,
  ): Promise<void> {
    // Inputs are in log order, so "last point per second wins" carries over into the merged block.
    const pieces = new Map<string, BlockSeries[]>();
    for (const block of inputs) {
      // Straight from the object, past the cache: a merge reads every series once.
      for (const series of decodePointBlock(await this.objects.get(block.objectKey)).series) {
        const list = pieces.get(series.id);
        if (list) list.push(series);
        else pieces.set(series.id, [series]);
      }
    }
    const series = [...pieces.values()].map(mergePieces);
    const bytes = encodePointBlock(metric, series);
    const inputsHash = createHash('sha256')
      .update(inputs.map((b) => b.id).join('\n'))
      .digest('hex')
      .slice(0, 16);
    const firstOffset = Math.min(...inputs.map((b) => b.firstOffset));
    const id = `${datasetId}.${metricHashOf(metric)}.${bucket}.${firstOffset}-m${inputsHash}`;
    const merged: MetricBlockRecord = {
      id,
      datasetId,
      metric,
      objectKey: `metrics/${datasetId}/${id}.qmb`,
      minTime: Math.min(...inputs.map((b) => b.minTime)),
      maxTime: Math.max(...inputs.map((b) => b.maxTime)),
      seriesCount: series.length,
      pointCount: series.reduce((n, s) => n + s.times.length, 0),
      sizeBytes: bytes.byteLength,
      firstOffset,
      createdAt: new Date(nowSec * 1000).toISOString(),
    };
    await this.objects.put(merged.objectKey, bytes);
    await this.metastore.metricSeries.replaceBlocks(
      inputs.map((b) => b.id),
      merged,
      { requireAll: !this.options.applyLocally },
    );
    for (const block of inputs) this.retired.push({ objectKey: block.objectKey, at: nowSec });
    if (!this.options.applyLocally) return;
    // Synchronous from here (see compact).
    const removed = new Set(inputs.map((b) => b.id));
    const list = (this.blocks.get(datasetId)?.get(metric) ?? []).filter((b) => !removed.has(b.id));
    const at = list.findIndex((b) => b.firstOffset > firstOffset);
    list.splice(at < 0 ? list.length : at, 0, merged);
    this.blocks.get(datasetId)?.set(metric, list);
    for (const block of inputs) {
      this.blockIds.delete(block.id);
      this.cache.delete(indexKey(block.objectKey)); // its series entries age out
    }
    this.blockIds.add(merged.id);
    this.blockCount += 1 - inputs.length;
  }

  private async deleteRetired(nowSec: number): Promise<void> {
    const due = this.retired.filter((r) => r.at + RETIRE_GRACE_SECONDS <= nowSec);
    if (due.length === 0) return;
    this.retired = this.retired.filter((r) => r.at + RETIRE_GRACE_SECONDS > nowSec);
    for (const r of due) await this.objects.delete(r.objectKey);
  }

  /**
   * Cluster catalog refresh: the dataset's registered blocks as the metastore lists them now (log order).
   * Replaces the in-memory list in one synchronous step.
   */
  setBlocks(datasetId: string, blocks: readonly MetricBlockRecord[]): void {
    const known = this.blocks.get(datasetId);
    const kept = new Set(blocks.map((b) => b.id));
    if (known) {
      for (const list of known.values()) {
        for (const block of list) {
          if (kept.has(block.id)) continue;
          this.blockIds.delete(block.id);
          this.cache.delete(indexKey(block.objectKey));
          this.blockCount--;
        }
      }
    }
    const byMetric = new Map<string, MetricBlockRecord[]>();
    for (const block of blocks) {
      if (!this.blockIds.has(block.id)) {
        this.blockIds.add(block.id);
        this.blockCount++;
      }
      const list = byMetric.get(block.metric) ?? [];
      list.push(block);
      byMetric.set(block.metric, list);
    }
    if (byMetric.size === 0) this.blocks.delete(datasetId);
    else this.blocks.set(datasetId, byMetric);
  }

  /** Cluster catalog refresh: forgets a dataset deleted by another process (memory only). */
  forgetDataset(datasetId: string): void {
    this.setBlocks(datasetId, []);
    this.catalog.dropDataset(datasetId);
    this.tail.dropDataset(datasetId);
  }

  /** Forgets a dataset: catalog, tail, blocks (rows and objects). */
  async deleteDataset(datasetId: string): Promise<number> {
    const removed = await this.metastore.metricSeries.deleteDataset(datasetId);
    this.catalog.dropDataset(datasetId);
    this.tail.dropDataset(datasetId);
    const known = this.blocks.get(datasetId);
    if (known) {
      for (const list of known.values()) {
        this.blockCount -= list.length;
        for (const block of list) this.blockIds.delete(block.id);
      }
    }
    this.blocks.delete(datasetId);
    for (const block of removed) {
      this.cache.delete(indexKey(block.objectKey));
      await this.objects.delete(block.objectKey);
    }
    return removed.length;
  }

  /** How many series a metric of a dataset has (whether a query over it is worth splitting). */
  seriesCount(datasetId: string, metric: string): number {
    return this.catalog.metric(datasetId, metric)?.series.size ?? 0;
  }

  /**
   * The read side as the MPL engine sees it. `resolve` maps a dataset name to the id of a metrics
   * dataset, or throws (unknown dataset, wrong kind).
   */
  sourceFor(resolve: (datasetName: string) => string): MetricsSource {
    return { selectSeries: (selection) => this.selectSeries(resolve(selection.dataset), selection) };
  }

  private async *selectSeries(datasetId: string, selection: MetricSelection): AsyncIterable<MetricSeries> {
    const { start, end } = selection;
    // Snapshot catalog, blocks and tail synchronously (see compact).
    const entry = this.catalog.metric(datasetId, selection.metric);
    if (!entry || end <= start) return;
    const candidates = new Map<string, SeriesEntry>();
    for (const series of entry.series.values()) {
      if (series.minTime >= end || series.maxTime < start) continue;
      if (selection.tagPredicate && !selection.tagPredicate(series.tags)) continue;
      candidates.set(series.id, series);
    }
    if (candidates.size === 0) return;
    const blocks = (this.blocks.get(datasetId)?.get(selection.metric) ?? []).filter(
      (b) => b.minTime < end && b.maxTime >= start,
    );
    const tail = this.tail.of(datasetId, selection.metric);

    const pieces = new Map<string, BlockSeries[]>();
    let budget = this.options.maxPointsPerQuery;
    const take = (series: BlockSeries) => {
      if (!candidates.has(series.id)) return;
      const inside = sliceSeries(series, start, end);
      if (!inside) return;
      budget -= inside.times.length;
      if (budget < 0) {
        // Same code and wording as the engine's own limits: to a client it is one limit.
        const max = this.options.maxPointsPerQuery;
        throw invalid(
          `query exceeds the limit of ${max.toLocaleString('en')} points read; ` +
            'shorten the time range or select fewer series with where clauses',
          { code: 'mpl_limit_exceeded', details: { limit: 'points read', max } },
        );
      }
      const list = pieces.get(series.id);
      if (list) list.push(inside);
      else pieces.set(series.id, [inside]);
    };
    for (const block of blocks) for (const series of await this.read(block, candidates)) take(series);
    for (const chunk of tail) take(chunk.series);

    const temporality: MetricTemporality = entry.meta.temporality ?? 'Cumulative';
    for (const [id, list] of pieces) {
      const tags = candidates.get(id)!.tags;
      if (list[0].kind === 'scalar') {
        yield {
          kind: 'scalar',
          metric: selection.metric,
          tags,
          unit: entry.meta.unit,
          ...scalarColumns(list),
        };
      } else {
        const merged = mergePieces(list);
        if (merged.kind !== 'histogram') continue;
        yield {
          kind: 'histogram',
          metric: selection.metric,
          tags,
          unit: entry.meta.unit,
          temporality,
          points: merged.points,
        };
      }
    }
  }

  /**
   * The series of `wanted` that a block holds, decoding only those: a query for one host of a metric
   * with thousands of series decodes one series per block. From the cache when the block's index and
   * every wanted series are there; otherwise the object is fetched once and the missing series decoded.
   */
  private async read(block: MetricBlockRecord, wanted: ReadonlyMap<string, unknown>): Promise<BlockSeries[]> {
    const key = block.objectKey;
    const cachedIndex = this.cache.get(indexKey(key))?.index;
    const entries = cachedIndex?.series.filter((e) => wanted.has(e.id));
    const hits = entries?.map((e) => this.cache.get(seriesKey(key, e.id))?.series);
    if (hits && hits.every((h) => h !== undefined)) return hits as BlockSeries[];

    const bytes = await this.objects.get(key);
    let index = cachedIndex;
    if (!index) {
      index = indexPointBlock(bytes);
      this.cache.set(indexKey(key), { index, byteLength: index.byteLength });
    }
    const out: BlockSeries[] = [];
    for (const entry of index.series) {
      if (!wanted.has(entry.id)) continue;
      let series = this.cache.get(seriesKey(key, entry.id))?.series;
      if (!series) {
        series = decodeBlockSeries(bytes, entry);
        this.cache.set(seriesKey(key, entry.id), { series, byteLength: decodedByteLength(series) });
      }
      out.push(series);
    }
    return out;
  }

  /** Registers the series of an incoming batch in the catalog; returns it normalized, or null if empty. */
  private register(datasetId: string, incoming: IncomingSeries): BlockSeries | null {
    const series = normalizeIncoming(incoming);
    if (!series) return null;
    this.catalog.setMeta(datasetId, incoming.metric, incoming.meta);
    this.catalog.upsert(
      datasetId,
      incoming.metric,
      incoming.meta,
      series.id,
      incoming.tags,
      series.times[0],
      series.times[series.times.length - 1],
    );
    return series;
  }

  private addBlocks(records: readonly MetricBlockRecord[]): void {
    for (const block of records) {
      if (this.blockIds.has(block.id)) continue;
      this.blockIds.add(block.id);
      let metrics = this.blocks.get(block.datasetId);
      if (!metrics) this.blocks.set(block.datasetId, (metrics = new Map()));
      const list = metrics.get(block.metric) ?? [];
      list.push(block);
      metrics.set(block.metric, list);
      this.blockCount++;
    }
  }
}

/** A block index (key `i…`) or one decoded series of a block (key `s…`). */
interface CacheEntry {
  index?: BlockIndex;
  series?: BlockSeries;
  byteLength: number;
}
const indexKey = (objectKey: string) => `i\0${objectKey}`;
const seriesKey = (objectKey: string, seriesId: string) => `s\0${objectKey}\0${seriesId}`;

const UNKNOWN_META: MetricMeta = { type: 'Gauge', temporality: null, unit: null };

function toMeta(row: MetricMetadataRecord): MetricMeta {
  return {
    type: row.type as MetricType,
    temporality: row.temporality as MetricTemporality | null,
    unit: row.unit,
  };
}

const metricHashOf = (metric: string): string =>
  createHash('sha256').update(metric).digest('hex').slice(0, 16);

/** An incoming series with its id, sorted and one point per second; null when it has no points. */
function normalizeIncoming(incoming: IncomingSeries): BlockSeries | null {
  const id = seriesIdOf(incoming.metric, incoming.tags);
  const series = normalizeSeries(
    incoming.kind === 'scalar'
      ? { id, tags: incoming.tags, kind: 'scalar', times: incoming.times, values: incoming.values }
      : {
          id,
          tags: incoming.tags,
          kind: 'histogram',
          times: incoming.points.map((p) => p.time),
          points: incoming.points,
        },
  );
  return series.times.length > 0 ? series : null;
}

/** Splits a sorted series at multiples of `bucketSeconds`. */
function splitByBucket(series: BlockSeries, bucketSeconds: number): BlockSeries[] {
  const first = Math.floor(series.times[0] / bucketSeconds);
  const last = Math.floor(series.times[series.times.length - 1] / bucketSeconds);
  if (first === last) return [series];
  const out: BlockSeries[] = [];
  for (let b = first; b <= last; b++) {
    const piece = sliceSeries(series, b * bucketSeconds, (b + 1) * bucketSeconds);
    if (piece) out.push(piece);
  }
  return out;
}
