import type { BlockRecord, ColumnBatch, DatasetSource } from '@quarry/contracts';
import type {
  AggregateOffload,
  QueryLimits,
  RemotePartial,
  RemoteRows,
  RowsFragment,
} from '@quarry/query-exec';
import type { AggregateNode, ScanNode } from '@quarry/query-plan';
import { dealBlocks, snapshotInWindow } from '../query/worker-aggregate-offload';
import { partsOf } from '../storage/part-scan';
import { PartsSource, StoredDatasetSource } from '../storage/storage-catalog';
import { ownerOf } from './partition-ownership';
import type { QueryRpcClient, RowsShare } from './query-rpc';
import { candidatesFor, nodeStats, type ShareDispatch, type ShareMember } from './share-dispatch';

/** Computes the partial states of a summarize over some blocks of a dataset, here; `signal` stops it. */
export type ShareRunner = (
  node: AggregateNode,
  dataset: string,
  blocks: BlockRecord[],
  signal?: AbortSignal,
) => Promise<RemotePartial[]>;

/** The rows a take or top keeps of each of some blocks of a dataset, here (row-fragments.ts). */
export type RowsShareRunner = (
  node: RowsFragment,
  dataset: string,
  blocks: BlockRecord[],
  signal?: AbortSignal,
) => Promise<RowsShare>;

/**
 * Splits a large summarize over the live query nodes of the cluster (issue 14): the node that received
 * the query is its coordinator; it deals the blocks of its snapshot to the members by rendezvous hashing
 * on block id (a block is read by the same node query after query, so its columns stay warm in one
 * cache) — except that a node already holding 1.25× its share of rows passes blocks to the least loaded
 * one, so one node never does most of the work — runs its own share on its worker threads, sends each other member its share over the internal
 * RPC, reads the tail itself, and merges every partial state — the same states its threads already
 * merge. A share whose node fails, times out, is on another RPC version or answers garbage runs again on
 * the next member by rank (this node included), at most three times; if none can, the query answers 503
 * — never a smaller answer. Below `minRows` (tiny queries) nothing leaves this node.
 */
export class ClusterAggregateOffload implements AggregateOffload {
  constructor(
    private readonly dispatch: ShareDispatch,
    private readonly rpc: QueryRpcClient,
    /** Runs a share on this node (its worker threads, or the event loop without them). */
    private readonly runHere: ShareRunner,
    /** Runs a take's or top's share on this node. */
    private readonly runRowsHere: RowsShareRunner,
    /** Splits what stays on this node across its threads (small queries); absent: nothing to split. */
    readonly local: AggregateOffload | undefined,
    private readonly minRows: number,
    private readonly limits: Partial<QueryLimits>,
    private readonly timeoutMs: number,
  ) {}

  split(
    node: AggregateNode,
    scan: ScanNode,
    source: DatasetSource,
    signal?: AbortSignal,
  ): { remote: Promise<RemotePartial[]>; local: DatasetSource } | null {
    const deal = this.deal(scan, source);
    if (deal === null) return this.local?.split(node, scan, source, signal) ?? null;
    this.dispatch.totals.splits++;
    const runs = deal.shares.map(async ({ blocks, candidates }) => {
      const done = await this.dispatch.run(candidates, deal.members, `${blocks.length} blocks`, (id, url) =>
        id === this.dispatch.self
          ? this.runHere(node, scan.dataset, blocks, signal)
          : this.rpc
              .aggregate(url, { node, dataset: scan.dataset, blocks, ...this.budget() }, signal)
              .then((answer) => answer.partials),
      );
      const [first, ...rest] = done.value;
      if (first === undefined) return [];
      const scanned = done.value.map((p) => p.stats);
      const stats = {
        ...first.stats,
        nodes: [nodeStats(done.node, blocks, scanned, done.elapsedMs, done.failedOn)],
      };
      return [{ ...first, stats }, ...rest];
    });
    const remote = Promise.all(runs).then((parts) => parts.flat());
    return { remote, local: deal.local };
  }

  /**
   * A take or top over a filtered scan, split the same way: each share answers, per block in the scan's
   * order, the rows it keeps; they are put back in the scan's order for the coordinator's take or top.
   */
  splitRows(
    node: RowsFragment,
    scan: ScanNode,
    source: DatasetSource,
    signal?: AbortSignal,
  ): { remote: Promise<RemoteRows>; local: DatasetSource } | null {
    const deal = this.deal(scan, source);
    if (deal === null) return null;
    this.dispatch.totals.splits++;
    const position = new Map(deal.inWindow.map((b, i) => [b, i]));
    const runs = deal.shares.map(async ({ blocks, candidates }) => {
      const ordered = [...blocks].sort((a, b) => position.get(a)! - position.get(b)!);
      const done = await this.dispatch.run(candidates, deal.members, `${ordered.length} blocks`, (id, url) =>
        id === this.dispatch.self
          ? this.runRowsHere(node, scan.dataset, ordered, signal)
          : this.rpc.rows(url, { node, dataset: scan.dataset, blocks: ordered, ...this.budget() }, signal),
      );
      const stats = done.value.stats;
      const nodes = [nodeStats(done.node, ordered, [stats], done.elapsedMs, done.failedOn)];
      return { ordered, share: done.value, stats: { ...stats, nodes } };
    });
    const remote = Promise.all(runs).then((shares) => {
      const byPosition: (ColumnBatch | null)[] = new Array(deal.inWindow.length).fill(null);
      let rowsMatched = 0;
      for (const { ordered, share } of shares) {
        // Per block, or (a top by _time) one segment for the share, placed at its first block.
        ordered.forEach((block, i) => (byPosition[position.get(block)!] = share.segments[i] ?? null));
        rowsMatched += share.rowsMatched;
      }
      return {
        segments: byPosition.filter((b): b is ColumnBatch => b !== null && b.length > 0),
        stats: shares.map((s) => s.stats),
        rowsMatched,
      };
    });
    return { remote, local: deal.local };
  }

  /** Each attempt gets the whole RPC timeout: a retry after a node timed out still has time. */
  private budget(): { limits: Partial<QueryLimits>; deadlineMs: number } {
    return { limits: this.limits, deadlineMs: Date.now() + this.timeoutMs };
  }

  /**
   * The window's blocks dealt to the live query nodes — each to its rendezvous owner, unless that node
   * already has more than its share of rows — and the tail, which stays here; null when the query is
   * too small to split or this node is alone.
   */
  private deal(
    scan: ScanNode,
    source: DatasetSource,
  ): {
    members: ShareMember[];
    inWindow: BlockRecord[];
    shares: { blocks: BlockRecord[]; candidates: string[] }[];
    local: DatasetSource;
  } | null {
    if (!(source instanceof StoredDatasetSource)) return null;
    const members = this.dispatch.members();
    const self = this.dispatch.self;
    const { inWindow, rows, tail } = snapshotInWindow(source, scan);
    if (members.length < 2 || inWindow.length < 2 || rows < this.minRows) return null;
    const ids = members.map((m) => m.id);
    const dealt = dealBlocks(inWindow, ids.length, (block) => ids.indexOf(ownerOf(block.id, ids)!));
    const shares = dealt.flatMap((blocks, i) =>
      blocks.length === 0 ? [] : [{ blocks, candidates: candidatesFor(ids[i], blocks[0].id, ids, self) }],
    );
    return { members, inWindow, shares, local: new PartsSource(source, partsOf([], tail)) };
  }
}
