import { notFound } from '@quarry/common';
import type { MplFramePart, MplOffload, MplTagMap } from '@quarry/mpl';
import { ownerOf } from './partition-ownership';
import type { MplShareRequest, QueryRpcClient } from './query-rpc';
import { candidatesFor, type ShareDispatch } from './share-dispatch';

/** What every share of one MPL query carries: the query as the coordinator received it. */
export type MplQueryRequest = Omit<MplShareRequest, 'part' | 'members' | 'owner' | 'deadlineMs'>;

/** Computes a share of an MPL query on this node (the internal RPC's handler, and the coordinator's own). */
export type MplShareRunner = (request: MplShareRequest, signal?: AbortSignal) => Promise<MplFramePart>;

/**
 * The series a node reads of a query split over series: those whose rendezvous owner among `members`
 * is `owner` — by metric and tags, so a series is read by the same node query after query (its points
 * stay warm in one node's cache) and a node joining or leaving moves only its own series.
 */
export function seriesOwnedBy(
  owner: string,
  members: readonly string[],
): (metric: string, tags: MplTagMap) => boolean {
  return (metric, tags) => ownerOf(seriesKey(metric, tags), members) === owner;
}

function seriesKey(metric: string, tags: MplTagMap): string {
  const names = Object.keys(tags).sort();
  return `${metric}\u0000${JSON.stringify(names.map((n) => [n, tags[n]?.value ?? null]))}`;
}

/**
 * Splits an MPL query's simple queries over series across the live query nodes (issue 14): each node
 * reads the series it owns and runs the series-local pipes up to the last `align` (libs/mpl/src/exec/
 * series-split.ts); this node merges and runs the rest. One per query. A share whose node fails runs on
 * the next member by rank — still over the failed owner's series — and the query answers 503 when none
 * can (`ShareDispatch`). Metrics with fewer than `minSeries` series stay here.
 */
export class ClusterMplOffload implements MplOffload {
  constructor(
    private readonly dispatch: ShareDispatch,
    private readonly rpc: QueryRpcClient,
    private readonly runHere: MplShareRunner,
    private readonly query: MplQueryRequest,
    /** The number of series of a metric of a dataset (by name) on this node. */
    private readonly seriesCount: (dataset: string, metric: string) => number,
    private readonly minSeries: number,
    private readonly timeoutMs: number,
  ) {}

  split(
    part: number,
    source: { dataset: string; metric: string },
    signal?: AbortSignal,
  ): Promise<MplFramePart[]> | null {
    const members = this.dispatch.members();
    if (members.length < 2 || this.seriesCount(source.dataset, source.metric) < this.minSeries) return null;
    this.dispatch.totals.splits++;
    const ids = members.map((m) => m.id);
    const self = this.dispatch.self;
    const shares = ids.map(async (owner) => {
      const done = await this.dispatch.run(
        candidatesFor(owner, `mpl:${owner}`, ids, self),
        members,
        `MPL series of ${owner}`,
        (id, url) => {
          const request: MplShareRequest = {
            ...this.query,
            part,
            members: ids,
            owner,
            deadlineMs: Date.now() + this.timeoutMs,
          };
          return id === self
            ? this.runHere(request, signal)
            : this.rpc.mpl(url, request, signal).then((a) => a.part);
        },
      );
      return done.value;
    });
    return Promise.all(shares);
  }
}

/** Resolves a dataset name of a share by the ids the coordinator resolved (and authorized). */
export function datasetIdsOf(request: MplQueryRequest): (name: string) => string {
  return (name) => {
    const id = request.datasetIds[name];
    if (id === undefined) throw notFound(`dataset "${name}" not found`, { code: 'dataset_not_found' });
    return id;
  };
}
