/**
 * Turns a logical plan into a pipeline of batch streams (pull-based async iterators) and runs it.
 */
import type { Column, ColumnBatch, DatasetSource, ScanStats } from '@quarry/contracts';
import { joinRowSource, type AggregateNode, type PlanNode, type ScanNode } from '@quarry/query-plan';
import { QuarryError } from '@quarry/common';
import { concatBatches } from './concat';
import { EvalContext } from './eval/context';
import { aggregate, PartialAggregate } from './operators/aggregate';
import { countByValue, countByValueShape } from './operators/count-by-value';
import type {
  AggregateOffload,
  BatchStream,
  ExecEnv,
  RemotePartial,
  RowsFragment,
} from './operators/exec-env';
import { join } from './operators/join';
import { makeSeries } from './operators/make-series';
import { mvExpand } from './operators/mv-expand';
import { sort } from './operators/ordering';
import { DEFAULT_QUERY_LIMITS, RowBudget, type QueryLimits } from './limits';
import { planTimeOrderedTop } from './operators/time-ordered-top';
import { topHeap } from './operators/top-heap';
import { parse } from './operators/parse';
import { extend, filter, limit, project, scan, union, values } from './operators/streaming';
import {
  addScanStats,
  distributableRowsScan,
  offloadedRows,
  ROW_WISE,
  runRowsFragment,
  shareEnv,
} from './row-fragments';

export interface ExecuteOptions {
  sources: Map<string, DatasetSource>;
  stats: ScanStats;
  signal?: AbortSignal;
  limits?: Partial<QueryLimits>;
  /** Splits large summarizes across threads (see `AggregateOffload`). */
  offload?: AggregateOffload;
}

export interface ExecuteResult {
  batch: ColumnBatch;
  rowsMatched: number;
  numGroups: number;
}

const ROW_PRESERVING = new Set(['filter', 'extend', 'project', 'mv-expand', 'parse']);

/** The node whose output rows count as "matched": the top of the filter chain above the main source. */
function matchedPoint(root: PlanNode): PlanNode {
  const path: PlanNode[] = [];
  let n: PlanNode = root;
  for (;;) {
    path.push(n);
    if (n.kind === 'scan' || n.kind === 'values' || n.kind === 'union') break;
    n = n.kind === 'join' ? joinRowSource(n) : n.input;
  }
  let i = path.length - 1;
  while (i > 0 && ROW_PRESERVING.has(path[i - 1].kind)) i--;
  return path[i];
}

async function* counted(stream: BatchStream, counter: { rowsMatched: number }): BatchStream {
  for await (const b of stream) {
    counter.rowsMatched += b.length;
    yield b;
  }
}

function build(node: PlanNode, env: ExecEnv, matched: PlanNode): BatchStream {
  const stream = buildNode(node, env, matched);
  return node === matched ? counted(stream, env.counters) : stream;
}

function buildNode(node: PlanNode, env: ExecEnv, matched: PlanNode): BatchStream {
  const input = () => build((node as { input: PlanNode }).input, env, matched);
  switch (node.kind) {
    case 'scan':
      return scan(node, env);
    case 'values':
      return values(node, env);
    case 'filter':
      return filter(input(), node.predicate, env);
    case 'extend':
      return extend(input(), node, env);
    case 'project':
      return project(input(), node, env);
    case 'aggregate': {
      if (isPlainCount(node) && env.sources.get(node.input.dataset)?.countRows)
        return countFromMetadata(node, node.input, env, matched);
      const general = (): BatchStream => {
        const source = env.offload ? splittableScan(node) : null;
        return source ? offloadedAggregate(node, source, env, matched) : aggregate(input(), node, env);
      };
      const byValue = countByValueShape(node);
      if (byValue && env.sources.get(byValue.scan.dataset)?.countValues)
        return countByValue(node, byValue, env, matched, general);
      return general();
    }
    case 'sort':
      return sort(filteredRows(node.input, env, matched), node.keys, env);
    case 'limit': {
      const source = env.offload?.splitRows ? distributableRowsScan(node) : null;
      if (source) return offloadedRows(node, source, env, matched, build);
      return limit(input(), node.count);
    }
    case 'top': {
      const source = env.offload?.splitRows ? distributableRowsScan(node) : null;
      if (source) return offloadedRows(node, source, env, matched, build);
      const bound = planTimeOrderedTop(node, env);
      return topHeap(input(), node.count, node.keys, env, bound);
    }
    case 'mv-expand':
      return mvExpand(input(), node, env);
    case 'parse':
      return parse(input(), node, env);
    case 'join':
      return join(filteredRows(node.left, env, matched), filteredRows(node.right, env, matched), node, env);
    case 'make-series':
      return makeSeries(filteredRows(node.input, env, matched), node, env);
    case 'union':
      return union(
        node.inputs.map((i) => filteredRows(i, env, matched)),
        node,
      );
  }
}

/**
 * The rows of `node` for an operator that needs them all (a sort without take, a join side, a union
 * input, make-series): when `node` is a filtered scan through row-wise operators, the filtering runs on
 * every query node over its blocks (row-fragments.ts) and only the matching rows travel — as a take of
 * every row, so they arrive in the scan's order, as one node would read them.
 */
function filteredRows(node: PlanNode, env: ExecEnv, matched: PlanNode): BatchStream {
  if (env.offload?.splitRows) {
    const everyRow: RowsFragment = {
      kind: 'limit',
      input: node,
      count: Number.MAX_SAFE_INTEGER,
      schema: node.schema,
    };
    const source = distributableRowsScan(everyRow);
    if (source) return offloadedRows(everyRow, source, env, matched, build);
  }
  return build(node, env, matched);
}

export async function executePlan(root: PlanNode, options: ExecuteOptions): Promise<ExecuteResult> {
  const env: ExecEnv = {
    sources: options.sources,
    stats: options.stats,
    signal: options.signal,
    ctx: new EvalContext(),
    counters: { rowsMatched: 0, numGroups: 0 },
    scanHints: new Map(),
    budget: new RowBudget({ ...DEFAULT_QUERY_LIMITS, ...options.limits }),
    offload: options.offload,
  };
  const batches: ColumnBatch[] = [];
  throwIfAborted(options.signal);
  for await (const b of build(root, env, matchedPoint(root))) {
    env.budget.hold(b.length, 'the result');
    batches.push(b);
  }
  throwIfAborted(options.signal);
  const names = root.schema.map((f) => f.name);
  const batch = batches.length ? concatBatches(batches, names) : { length: 0, columns: new Map() };
  return { batch, rowsMatched: env.counters.rowsMatched, numGroups: env.counters.numGroups };
}

function throwIfAborted(signal?: AbortSignal): void {
  if (signal?.aborted) throw new QuarryError('unavailable', 'query aborted', { code: 'query_aborted' });
}

/** The scan under a summarize whose input is a row-wise chain over that one scan, else null. */
function splittableScan(node: AggregateNode): ScanNode | null {
  let n: PlanNode = node.input;
  while (ROW_WISE.has(n.kind)) n = (n as { input: PlanNode }).input;
  return n.kind === 'scan' ? n : null;
}

/**
 * A summarize whose scan `env.offload` may split: the remote part's partial states are merged with the
 * state of the rows read here, then finished as usual.
 */
async function* offloadedAggregate(
  node: AggregateNode,
  scanNode: ScanNode,
  env: ExecEnv,
  matched: PlanNode,
): BatchStream {
  const source = env.sources.get(scanNode.dataset);
  const split = source ? env.offload!.split(node, scanNode, source, env.signal) : null;
  if (!split) {
    yield* aggregate(build(node.input, env, matched), node, env);
    return;
  }
  // Settled either way before this generator ends, so a failure here leaves no rejection unhandled.
  const remote = split.remote.then(
    (parts) => ({ parts, error: null }),
    (error: unknown) => ({ parts: [] as RemotePartial[], error }),
  );
  const partial = new PartialAggregate(node, env.budget);
  const localEnv: ExecEnv = { ...env, sources: new Map(env.sources).set(scanNode.dataset, split.local) };
  for await (const batch of build(node.input, localEnv, matched)) partial.add(batch, env.ctx);
  const { parts, error } = await remote;
  if (error !== null) throw error;
  for (const part of parts) {
    partial.mergeFrom(PartialAggregate.fromState(node, env.budget, part.state));
    addScanStats(env.stats, part.stats);
    if (matched === node.input) env.counters.rowsMatched += part.rowsMatched;
  }
  yield partial.finish(env.counters);
}

/**
 * The remote side of a split summarize: reads `source` (part of the dataset) through the summarize's
 * input chain and returns the partial state, for `AggregateOffload` implementations to run on a worker.
 */
export async function runPartialAggregate(
  node: AggregateNode,
  source: DatasetSource,
  options: {
    limits?: Partial<QueryLimits>;
    signal?: AbortSignal;
    /** The caller moves buffers of this size to the receiving thread (`PartialAggregate.toState`). */
    moveMinBytes?: number;
  },
): Promise<RemotePartial> {
  const scanNode = splittableScan(node);
  if (!scanNode)
    throw new QuarryError('internal', 'summarize cannot be split', { code: 'exec_not_splittable' });
  const env = shareEnv(new Map([[scanNode.dataset, source]]), options);
  const partial = new PartialAggregate(node, env.budget);
  for await (const batch of build(node.input, env, node.input)) partial.add(batch, env.ctx);
  return {
    state: partial.toState(options.moveMinBytes),
    stats: env.stats,
    rowsMatched: env.counters.rowsMatched,
  };
}

/**
 * The remote side of a split take or top: its rows from each of `parts` (one block each, in the scan's
 * order), for `AggregateOffload.splitRows` implementations (row-fragments.ts).
 */
export function runRowsShare(
  node: RowsFragment,
  dataset: string,
  parts: readonly DatasetSource[],
  options: { limits?: Partial<QueryLimits>; signal?: AbortSignal },
): ReturnType<typeof runRowsFragment> {
  return runRowsFragment(node, dataset, parts, options, build);
}

/** `T | count` and `summarize count()` with no keys, straight over an unfiltered scan. */
function isPlainCount(node: AggregateNode): node is AggregateNode & { input: ScanNode } {
  return (
    node.keys.length === 0 &&
    node.input.kind === 'scan' &&
    node.input.filter === null &&
    node.aggs.length > 0 &&
    node.aggs.every((a) => a.fn === 'count' && a.args.length === 0 && a.predicate === null)
  );
}

/** Answers a plain count from the source's metadata (`DatasetSource.countRows`) instead of scanning. */
async function* countFromMetadata(
  node: AggregateNode,
  scanNode: ScanNode,
  env: ExecEnv,
  matched: PlanNode,
): BatchStream {
  const source = env.sources.get(scanNode.dataset)!;
  const rows =
    scanNode.endMs <= scanNode.startMs
      ? 0
      : await source.countRows!(scanNode.startMs, scanNode.endMs, env.stats);
  if (matched === scanNode) env.counters.rowsMatched += rows;
  env.counters.numGroups = 1;
  const columns = new Map<string, Column>();
  for (const call of node.aggs)
    columns.set(call.outputs[0].name, { kind: 'long', values: Float64Array.of(rows), nulls: null });
  yield { length: 1, columns };
}
