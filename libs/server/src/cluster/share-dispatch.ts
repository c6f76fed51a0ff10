import { Logger } from '@nestjs/common';
import { unavailable } from '@quarry/common';
import type { BlockRecord, NodeScanStats, ScanStats } from '@quarry/contracts';
import type { Membership } from './membership';
import { rankOf } from './partition-ownership';
import { ShareFailure } from './query-rpc';

/** A live query node: its id and where its internal RPC answers. */
export interface ShareMember {
  id: string;
  url: string;
}

/** Attempts per share: its owner, then the next members by rendezvous rank (this node among them). */
const MAX_ATTEMPTS = 3;

/**
 * Who computes a share, in order: its owner, then the next members by rendezvous rank — at most
 * MAX_ATTEMPTS, the last of which is always this node (it can read everything itself, and is never
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

/** What one node did for a share (`status.nodes`). */
export function nodeStats(
  node: string,
  blocks: readonly BlockRecord[],
  scanned: readonly ScanStats[],
  elapsedMs: number,
  failedOn: string[],
): NodeScanStats {
  let blocksExamined = 0;
  let rowsExamined = 0;
  for (const s of scanned) {
    blocksExamined += s.blocksExamined;
    rowsExamined += s.rowsExamined;
  }
  return {
    node,
    blocksExamined,
    rowsExamined,
    blockBytes: blocks.reduce((n, b) => n + b.sizeBytes, 0),
    elapsedMs,
    ...(failedOn.length > 0 ? { failedOn: [...failedOn] } : {}),
  };
}

/**
 * Sends the shares of a query to the live query nodes and runs each again elsewhere when its node fails
 * (docs/architecture.md, "Distributed queries"): what every split — summarize, take/top, MPL series —
 * shares. A share whose node fails, times out, is on another RPC version or answers garbage runs on the
 * next member by rank (this node included), at most three times; if none can, the query answers 503 —
 * never a smaller answer.
 */
export class ShareDispatch {
  private readonly logger = new Logger('distributed');
  /** Queries split across nodes since start, and shares sent away or re-run elsewhere (for /metrics). */
  readonly totals = { splits: 0, remoteShares: 0, retries: 0 };

  constructor(private readonly membership: Membership) {}

  get self(): string {
    return this.membership.nodeId;
  }

  /** The live query nodes, this one included, in id order. */
  members(): ShareMember[] {
    const members = this.membership
      .live('query')
      .map((m) => ({ id: m.nodeId, url: m.advertiseUrl }))
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    if (!members.some((m) => m.id === this.self)) members.push({ id: this.self, url: '' });
    return members;
  }

  /**
   * One share, on `candidates` in turn (the owner first) until one answers; `run` gets the node's id
   * and RPC URL ('' for this node).
   */
  async run<T>(
    candidates: string[],
    members: readonly ShareMember[],
    what: string,
    run: (id: string, url: string) => Promise<T>,
  ): Promise<{ value: T; node: string; elapsedMs: number; failedOn: string[] }> {
    const failures: string[] = [];
    const failedOn: string[] = [];
    for (const [attempt, id] of candidates.entries()) {
      if (attempt > 0) this.totals.retries++;
      const here = id === this.self;
      if (!here) this.totals.remoteShares++;
      const started = Date.now();
      try {
        const value = await run(id, here ? '' : members.find((m) => m.id === id)!.url);
        return { value, node: id, elapsedMs: Date.now() - started, failedOn };
      } catch (err) {
        if (err instanceof ShareFailure && !err.retryable) throw err.error;
        if (!(err instanceof ShareFailure)) throw err; // this node's own failure: the query's
        failures.push(err.message);
        failedOn.push(id);
        this.logger.warn(`a share (${what}) failed on ${id}: ${err.message}`);
      }
    }
    throw unavailable(
      `part of the query could not be computed on any query node (${failures.join('; ')}); retry shortly`,
      { code: 'cluster_share_failed', retryAfterSeconds: 2 },
    );
  }
}
