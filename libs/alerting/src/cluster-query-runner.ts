import { createHash } from 'node:crypto';
import type { ResultTable } from '@quarry/contracts';
import type { MplResult } from '@quarry/mpl';
import { CLUSTER_RPC_VERSION, decodeRpc, encodeRpc, RPC_CONTENT_TYPE } from '@quarry/server';
import type { MonitorQuery, MonitorQueryRunner } from './query-runner';
import type { ResultRows } from './result-rows';
import { rowsOfSeries, rowsOfTable } from './storage-query-runner';

/**
 * The query node route monitor runs go to, and its answer: mirrors
 * libs/query-node/src/monitor-query.controller.ts (neither lib may import the other; the cluster suite
 * `test/cluster/monitors.test.ts` runs both ends).
 */
export const MONITOR_QUERY_PATH = '/internal/v1/monitor-query';
/** The internal RPC's headers (libs/server/src/cluster/query-rpc.ts, which does not export them). */
const RPC_SECRET_HEADER = 'x-quarry-cluster-secret';
const RPC_VERSION_HEADER = 'x-quarry-rpc-version';
interface MonitorQueryResponse {
  node: string;
  table?: ResultTable;
  mpl?: MplResult;
}

/** The live query nodes of this node's region (Membership.live('query')). */
export interface QueryNodes {
  live(): { nodeId: string; advertiseUrl: string }[];
}

/** A query node answered, but the query itself failed (a bad query, a deleted dataset): not retried elsewhere. */
export class MonitorQueryError extends Error {}

/**
 * Runs monitor queries on a query node of this region (cluster): the management node that schedules a
 * monitor reads neither the ingest tail nor the query nodes' shares itself, so it sends the query to a
 * query node, which runs it as it runs a user's — tail included. The node is picked by rendezvous
 * hashing on the query text (the same monitor tends to go to the same node, where its blocks are warm);
 * a node that cannot be reached or answers 5xx is skipped for the next one.
 */
export class ClusterQueryRunner implements MonitorQueryRunner {
  constructor(
    private readonly nodes: QueryNodes,
    private readonly secret: string,
    private readonly timeoutMs: number,
  ) {}

  async run(query: MonitorQuery): Promise<ResultRows> {
    const candidates = rendezvous(this.nodes.live(), query.text);
    if (candidates.length === 0) throw new Error('no live query node in this region to run the query');
    const failures: string[] = [];
    for (const node of candidates) {
      try {
        const answer = await this.call(node.advertiseUrl, query);
        return query.language === 'apl' ? rowsOfTable(answer.table) : rowsOfSeries(answer.mpl!);
      } catch (err) {
        if (err instanceof MonitorQueryError) throw err;
        failures.push(`${node.nodeId}: ${(err as Error).message}`);
      }
    }
    throw new Error(`no query node could run the query (${failures.join('; ')})`);
  }

  private async call(url: string, query: MonitorQuery): Promise<MonitorQueryResponse> {
    const res = await fetch(`${url}${MONITOR_QUERY_PATH}`, {
      method: 'POST',
      headers: {
        'content-type': RPC_CONTENT_TYPE,
        [RPC_SECRET_HEADER]: this.secret,
        [RPC_VERSION_HEADER]: String(CLUSTER_RPC_VERSION),
      },
      body: encodeRpc(query),
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    const body = Buffer.from(await res.arrayBuffer());
    if (res.ok) return decodeRpc<MonitorQueryResponse>(body, "a query node's monitor answer");
    let message = body.toString('utf8');
    try {
      message = String((JSON.parse(message) as { message?: unknown }).message ?? message);
    } catch {
      // not JSON: the text as it came
    }
    const why = `query node answered ${res.status}: ${message}`;
    // 4xx: the query is at fault and would fail on every node (403 = a secret mismatch, same everywhere).
    if (res.status >= 400 && res.status < 500) throw new MonitorQueryError(why);
    throw new Error(why);
  }
}

/** Nodes ordered by highest random weight for `key`: stable for a key, spread over keys. */
function rendezvous<T extends { nodeId: string }>(nodes: T[], key: string): T[] {
  const weight = (n: T) => createHash('sha1').update(`${n.nodeId}\0${key}`).digest().readUInt32BE(0);
  return [...nodes].sort((a, b) => weight(b) - weight(a));
}
