/**
 * `take` and `top` read part by part elsewhere (issue 14: per-node top-N, and a take that stops remote
 * work early). The remote side runs the fragment block by block, in the scan's order: per block it keeps
 * the rows a take still needs (stopping once it has them) or that block's top N. The coordinator puts
 * the blocks' rows back in the scan's order, then its own (the tail, which the scan reads last), and runs
 * the same take or top over them. The answer is then the single-node answer row for row: a take keeps
 * the first N rows in scan order, and every one of them is among the first N of its own part; a top
 * breaks ties by arrival, and a block's top rows arrive in the order the block would have given them.
 */
import { emptyScanStats, type ColumnBatch, type DatasetSource, type ScanStats } from '@quarry/contracts';
import type { PlanNode, ScanNode } from '@quarry/query-plan';
import { concatBatches } from './concat';
import { EvalContext } from './eval/context';
import { DEFAULT_QUERY_LIMITS, RowBudget, type QueryLimits } from './limits';
import type { BatchStream, ExecEnv, RowsFragment } from './operators/exec-env';
import { limit } from './operators/streaming';
import { planTimeOrderedTop, timeOrderedTopScan } from './operators/time-ordered-top';
import { topHeap } from './operators/top-heap';

/** Operators that work row by row, batch by batch: a summarize, take or top over a chain of them splits. */
export const ROW_WISE = new Set(['filter', 'extend', 'project', 'mv-expand', 'parse']);

/** How the executor builds a plan node's stream (passed in: the executor imports this module). */
export type BuildStream = (node: PlanNode, env: ExecEnv, matched: PlanNode) => BatchStream;

/**
 * The scan under a take or top worth reading elsewhere, else null: the input must be a row-wise chain
 * over one scan, and a take without a filter reads its first block and stops (nothing to share).
 */
export function distributableRowsScan(node: RowsFragment): ScanNode | null {
  let n: PlanNode = node.input;
  let filtered = false;
  while (ROW_WISE.has(n.kind)) {
    if (n.kind === 'filter') filtered = true;
    n = (n as { input: PlanNode }).input;
  }
  if (n.kind !== 'scan') return null;
  if (node.kind === 'limit') return filtered || n.filter !== null ? n : null;
  return n;
}

/**
 * How a share reads its blocks: one by one, answering each block's rows (exact single-node order), or
 * — a `top N by _time`, what a plain search is — all at once newest first, skipping the blocks that
 * cannot beat its N-th row (time-ordered-top.ts) and answering its own top N. Rows with the very same
 * `_time` at the N-th place may then be another of the tied rows than one node would pick.
 */
export function rowsShareMode(node: RowsFragment): 'blocks' | 'whole' {
  return node.kind === 'top' && timeOrderedTopScan(node) !== null ? 'whole' : 'blocks';
}

/** The take or top of `node` over the stream (a top by `_time` skips what it cannot use). */
function keep(node: RowsFragment, input: BatchStream, env: ExecEnv): BatchStream {
  if (node.kind === 'limit') return limit(input, node.count);
  // Registered before `input` is first read (streams start on their first pull).
  return topHeap(input, node.count, node.keys, env, planTimeOrderedTop(node, env));
}

async function* fromArray(batches: readonly ColumnBatch[]): BatchStream {
  yield* batches;
}

async function collect(stream: BatchStream): Promise<ColumnBatch[]> {
  const out: ColumnBatch[] = [];
  for await (const b of stream) if (b.length > 0) out.push(b);
  return out;
}

/** The coordinator's side: remote blocks' kept rows, then this node's, through the same take or top. */
export async function* offloadedRows(
  node: RowsFragment,
  scanNode: ScanNode,
  env: ExecEnv,
  matched: PlanNode,
  build: BuildStream,
): BatchStream {
  const source = env.sources.get(scanNode.dataset);
  const split = source ? env.offload!.splitRows!(node, scanNode, source, env.signal) : null;
  if (!split) {
    yield* keep(node, build(node.input, env, matched), env);
    return;
  }
  // Settled either way before this generator ends, so a failure here leaves no rejection unhandled.
  const remote = split.remote.then(
    (rows) => ({ rows, error: null }),
    (error: unknown) => ({ rows: null, error }),
  );
  const localEnv: ExecEnv = { ...env, sources: new Map(env.sources).set(scanNode.dataset, split.local) };
  const here = await collect(build(node.input, localEnv, matched));
  const { rows, error } = await remote;
  if (error !== null) throw error;
  for (const stats of rows!.stats) addScanStats(env.stats, stats);
  if (matched === node.input) env.counters.rowsMatched += rows!.rowsMatched;
  yield* keep(node, fromArray([...rows!.segments, ...here]), env);
}

/**
 * The remote side: `node`'s take or top over each part in turn (each part one block in the scan's order;
 * or, `rowsShareMode` 'whole', one part with every block of the share). Returns one entry per part —
 * null where the part kept nothing or was not read because the take was already full.
 */
export async function runRowsFragment(
  node: RowsFragment,
  dataset: string,
  parts: readonly DatasetSource[],
  options: { limits?: Partial<QueryLimits>; signal?: AbortSignal },
  build: BuildStream,
): Promise<{ segments: (ColumnBatch | null)[]; stats: ScanStats; rowsMatched: number }> {
  const env = shareEnv(new Map(), options);
  const names = node.schema.map((f) => f.name);
  const segments: (ColumnBatch | null)[] = [];
  let remaining = node.count;
  for (const part of parts) {
    if (remaining <= 0 || options.signal?.aborted) {
      segments.push(null);
      continue;
    }
    env.sources.set(dataset, part);
    const fragment: RowsFragment = { ...node, count: node.kind === 'limit' ? remaining : node.count };
    const kept = await collect(keep(fragment, build(node.input, env, node.input), env));
    const batch = kept.length > 0 ? concatBatches(kept, names) : null;
    if (batch !== null) env.budget.hold(batch.length, 'the rows kept for the coordinator');
    if (node.kind === 'limit') remaining -= batch?.length ?? 0;
    segments.push(batch);
  }
  return { segments, stats: env.stats, rowsMatched: env.counters.rowsMatched };
}

/** A fresh environment for a share computed apart from its query (another node or thread). */
export function shareEnv(
  sources: Map<string, DatasetSource>,
  options: { limits?: Partial<QueryLimits>; signal?: AbortSignal },
): ExecEnv {
  return {
    sources,
    stats: emptyScanStats(),
    signal: options.signal,
    ctx: new EvalContext(),
    counters: { rowsMatched: 0, numGroups: 0 },
    scanHints: new Map(),
    budget: new RowBudget({ ...DEFAULT_QUERY_LIMITS, ...options.limits }),
  };
}

export function addScanStats(into: ScanStats, more: ScanStats): void {
  into.blocksExamined += more.blocksExamined;
  into.blocksMatched += more.blocksMatched;
  into.blocksCached += more.blocksCached;
  into.rowsExamined += more.rowsExamined;
  if (more.minBlockTime !== null)
    into.minBlockTime =
      into.minBlockTime === null ? more.minBlockTime : Math.min(into.minBlockTime, more.minBlockTime);
  if (more.maxBlockTime !== null)
    into.maxBlockTime =
      into.maxBlockTime === null ? more.maxBlockTime : Math.max(into.maxBlockTime, more.maxBlockTime);
  if (more.nodes) into.nodes = [...(into.nodes ?? []), ...more.nodes];
}
