/**
 * Turns a logical plan into a pipeline of batch streams (pull-based async iterators) and runs it.
 */
import type { ColumnBatch, DatasetSource, ScanStats } from '@quarry/contracts';
import { joinRowSource, type PlanNode } from '@quarry/query-plan';
import { QuarryError } from '@quarry/common';
import { concatBatches } from './concat';
import { EvalContext } from './eval/context';
import { aggregate } from './operators/aggregate';
import type { BatchStream, ExecEnv } from './operators/exec-env';
import { join } from './operators/join';
import { makeSeries } from './operators/make-series';
import { mvExpand } from './operators/mv-expand';
import { sort } from './operators/ordering';
import { DEFAULT_QUERY_LIMITS, RowBudget, type QueryLimits } from './limits';
import { planTimeOrderedTop } from './operators/time-ordered-top';
import { topHeap } from './operators/top-heap';
import { parse } from './operators/parse';
import { extend, filter, limit, project, scan, union, values } from './operators/streaming';

export interface ExecuteOptions {
  sources: Map<string, DatasetSource>;
  stats: ScanStats;
  signal?: AbortSignal;
  limits?: Partial<QueryLimits>;
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
    case 'aggregate':
      return aggregate(input(), node, env);
    case 'sort':
      return sort(input(), node.keys, env);
    case 'limit':
      return limit(input(), node.count);
    case 'top': {
      const bound = planTimeOrderedTop(node, env);
      return topHeap(input(), node.count, node.keys, env, bound);
    }
    case 'mv-expand':
      return mvExpand(input(), node, env);
    case 'parse':
      return parse(input(), node, env);
    case 'join':
      return join(build(node.left, env, matched), build(node.right, env, matched), node, env);
    case 'make-series':
      return makeSeries(input(), node, env);
    case 'union':
      return union(
        node.inputs.map((i) => build(i, env, matched)),
        node,
      );
  }
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
