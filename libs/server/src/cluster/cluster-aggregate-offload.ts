import { Logger } from '@nestjs/common';
import { unavailable } from '@quarry/common';
import type { BlockRecord, DatasetSource } from '@quarry/contracts';
import type { AggregateOffload, QueryLimits, RemotePartial } from '@quarry/query-exec';
import type { AggregateNode, ScanNode } from '@quarry/query-plan';
import { dealBlocks, snapshotInWindow } from '../query/worker-aggregate-offload';
import { partsOf } from '../storage/part-scan';
import { PartsSource, StoredDatasetSource } from '../storage/storage-catalog';
import type { Membership } from './membership';
import { ownerOf, rankOf } from './partition-ownership';
import { QueryRpcClient, ShareFailure, type AggregateShareResponse } from './query-rpc';

/**
 * Who computes a share, in order: its owner, then the next members by rendezvous rank — at most
 * MAX_ATTEMPTS, the last of which is always this node (it can read every block itself, and is never
 * unreachable from here), so a share fails only when this node cannot compute it either.
 */
export function candidatesFor(
  owner: string,
  key: string,
  members: readonly string[],
  self: string,
): string[] {
  const ranked = [owner, ...rankOf(key, members).filter((id) => id !== owner)].slice(0, MAX_ATTEMPTS);
  if (ranked.includes(self)) return ranked;
  return [...ranked.slice(0, MAX_ATTEMPTS - 1), self];
}

/** The share's partial states, the first carrying which node computed it (`status.nodes`). */
function tagged(
  partials: RemotePartial[],
  node: string,
  blocks: readonly BlockRecord[],
  elapsedMs: number,
  failedOn: string[],
): RemotePartial[] {
  if (partials.length === 0) return partials;
  let blocksExamined = 0;
  let rowsExamined = 0;
  for (const p of partials) {
    blocksExamined += p.stats.blocksExamined;
    rowsExamined += p.stats.rowsExamined;
  }
  const [first, ...rest] = partials;
  const stats = {
    ...first.stats,
    nodes: [
      {
        node,
        blocksExamined,
        rowsExamined,
        blockBytes: blocks.reduce((n, b) => n + b.sizeBytes, 0),
        elapsedMs,
        ...(failedOn.length > 0 ? { failedOn: [...failedOn] } : {}),
      },
    ],
  };
  return [{ ...first, stats }, ...rest];
}

/** Computes the partial states of a summarize over some blocks of a dataset, here; `signal` stops it. */
export type ShareRunner = (
  node: AggregateNode,
  dataset: string,
  blocks: BlockRecord[],
  signal?: AbortSignal,
) => Promise<RemotePartial[]>;

/** Attempts per share: its owner, then the next members by rendezvous rank (this node among them). */
const MAX_ATTEMPTS = 3;

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
  private readonly logger = new Logger('distributed');
  /** Summarizes split across nodes since start, and shares re-run elsewhere (for /metrics). */
  readonly totals = { splits: 0, remoteShares: 0, retries: 0 };

  constructor(
    private readonly membership: Membership,
    private readonly rpc: QueryRpcClient,
    /** Runs a share on this node (its worker threads, or the event loop without them). */
    private readonly runHere: ShareRunner,
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
    if (!(source instanceof StoredDatasetSource)) return null;
    const members = this.membership
      .live('query')
      .map((m) => ({ id: m.nodeId, url: m.advertiseUrl }))
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const self = this.membership.nodeId;
    if (!members.some((m) => m.id === self)) members.push({ id: self, url: '' });
    const { inWindow, rows, tail } = snapshotInWindow(source, scan);
    if (members.length < 2 || inWindow.length < 2 || rows < this.minRows)
      return this.local?.split(node, scan, source, signal) ?? null;

    this.totals.splits++;
    const ids = members.map((m) => m.id);
    // Each block to its rendezvous owner, unless that node already has more than its share of rows.
    const shares = dealBlocks(inWindow, ids.length, (block) => ids.indexOf(ownerOf(block.id, ids)!));
    const runs = shares.flatMap((share, i) =>
      share.length === 0
        ? []
        : [
            this.runShare(
              node,
              scan.dataset,
              share,
              candidatesFor(ids[i], share[0].id, ids, self),
              members,
              signal,
            ),
          ],
    );
    const remote = Promise.all(runs).then((parts) => parts.flat());
    return { remote, local: new PartsSource(source, partsOf([], tail)) };
  }

  /** One share, on `candidates` in turn (the owner first) until one answers. */
  private async runShare(
    node: AggregateNode,
    dataset: string,
    blocks: BlockRecord[],
    candidates: string[],
    members: { id: string; url: string }[],
    signal?: AbortSignal,
  ): Promise<RemotePartial[]> {
    const failures: string[] = [];
    const failedOn: string[] = [];
    for (const [attempt, id] of candidates.entries()) {
      if (attempt > 0) this.totals.retries++;
      const started = Date.now();
      try {
        let partials: RemotePartial[];
        if (id === this.membership.nodeId) partials = await this.runHere(node, dataset, blocks, signal);
        else {
          this.totals.remoteShares++;
          const url = members.find((m) => m.id === id)!.url;
          const answer: AggregateShareResponse = await this.rpc.aggregate(
            url,
            // Each attempt gets the whole RPC timeout: a retry after a node timed out still has time.
            { node, dataset, blocks, limits: this.limits, deadlineMs: Date.now() + this.timeoutMs },
            signal,
          );
          partials = answer.partials;
        }
        return tagged(partials, id, blocks, Date.now() - started, failedOn);
      } catch (err) {
        if (err instanceof ShareFailure && !err.retryable) throw err.error;
        if (!(err instanceof ShareFailure)) throw err; // this node's own failure: the query's
        failures.push(err.message);
        failedOn.push(id);
        this.logger.warn(`a share of ${blocks.length} blocks failed on ${id}: ${err.message}`);
      }
    }
    throw unavailable(
      `part of the query could not be computed on any query node (${failures.join('; ')}); retry shortly`,
      { code: 'cluster_share_failed', retryAfterSeconds: 2 },
    );
  }
}
