import * as path from 'node:path';
import { threadId } from 'node:worker_threads';
import type { BlockRecord } from '@quarry/contracts';
import {
  PartialAggregate,
  runPartialAggregate,
  type QueryLimits,
  type RemotePartial,
} from '@quarry/query-exec';
import type { AggregateNode } from '@quarry/query-plan';
import { BlockReader } from '../storage/block-reader';
import { openObjectStore, type ObjectStoreSpec } from '../storage/object-store-spec';
import { nanosTimespanFieldsOfPlan } from '../storage/kind-field-types';
import { blocksSource } from '../storage/part-scan';
import { cancellationOf } from './shared-cancel';
import { settle, type TaskResult } from './task-result';

/**
 * The query side of worker threads: a summarize over some blocks of a dataset, answered as a partial
 * state for the main thread to merge (`WorkerAggregateOffload`). Each worker keeps its own block reader
 * and decoded-column cache; a block is always sent to the same worker, so caches do not overlap.
 */

export interface QueryWorkerConfig {
  /** The object store blocks are read from (each worker opens its own; a disk cache gets a subdirectory). */
  objects: ObjectStoreSpec;
  columnCacheBytes: number;
  fileCacheBytes: number;
  /** Read only the byte ranges of the columns a scan needs (remote stores), not whole block files. */
  rangeReads: boolean;
}

export interface AggregateTaskInput {
  config: QueryWorkerConfig;
  node: AggregateNode;
  dataset: string;
  blocks: BlockRecord[];
  limits?: Partial<QueryLimits>;
  /** Set (to 1) by the main thread when the query is aborted: the scan stops between blocks. */
  cancel?: SharedArrayBuffer;
}

let reader: Promise<BlockReader> | null = null;
/** The reader once open, for the memory report (`query-worker.ts`). */
export let openedReader: BlockReader | null = null;

function readerFor(config: QueryWorkerConfig): Promise<BlockReader> {
  const spec: ObjectStoreSpec =
    config.objects.kind === 's3' && config.objects.cache
      ? {
          ...config.objects,
          cache: { ...config.objects.cache, dir: path.join(config.objects.cache.dir, `worker-${threadId}`) },
        }
      : config.objects;
  reader ??= openObjectStore(spec).then((objects) => {
    openedReader = new BlockReader(objects, {
      columnCacheBytes: config.columnCacheBytes,
      fileCacheBytes: config.fileCacheBytes,
      rangeReads: config.rangeReads,
    });
    return openedReader;
  });
  return reader;
}

/**
 * Buffers below this size are copied with the rest of the answer; larger ones (a percentile's millions of
 * exact values: 40 MB at 10M rows, which a copy took ~0.2 s to write here and as long to read on the
 * main thread) move to it.
 */
const MOVE_MIN_BYTES = 64 * 1024;

export async function aggregateTask(input: AggregateTaskInput): Promise<RemotePartial> {
  const reader = await readerFor(input.config);
  const cancel = input.cancel ? cancellationOf(input.cancel) : undefined;
  const nanosTimespans = nanosTimespanFieldsOfPlan(input.node, input.dataset);
  const source = blocksSource(input.dataset, input.blocks, reader, cancel, nanosTimespans);
  return runPartialAggregate(input.node, source, {
    limits: input.limits,
    moveMinBytes: MOVE_MIN_BYTES,
  });
}

export interface ForgetTaskInput {
  /** Blocks that left the index (merged away, trimmed, their dataset deleted). */
  objectKeys: string[];
}

/** Drops what this worker's reader cached for blocks that are gone (nothing to do before it opened). */
export function forgetTask(input: ForgetTaskInput): void {
  for (const key of input.objectKeys) openedReader?.forget(key);
}

export function runAggregateTask(input: AggregateTaskInput): Promise<TaskResult<RemotePartial>> {
  return settle(() => aggregateTask(input));
}

/** The buffers of a task's answer that may move to the main thread instead of being copied. */
export function movableBuffersOf(result: TaskResult<RemotePartial>): ArrayBuffer[] {
  return result.ok ? PartialAggregate.transferablesOf(result.value.state, MOVE_MIN_BYTES) : [];
}
