import type { FastifyReply, FastifyRequest } from 'fastify';
import { invalid, unavailable } from '@quarry/common';
import { rawBodyOf } from '@quarry/nest-kit';
import type { RegionalDataset, Regions } from '@quarry/server';

/** Set on a query one region forwarded to another: the receiver answers it or refuses, never forwards. */
export const FORWARDED_FROM_HEADER = 'x-quarry-forwarded-from';

/** Where a query's datasets live: here, or one other region. */
export type QueryRoute = { kind: 'local' } | { kind: 'remote'; region: string; dataset: RegionalDataset };

/**
 * The region a query must run in: every dataset it reads must live in one region (each region's data
 * stays in its own storage; joining across regions would ship one region's rows to the other). Datasets
 * the catalog does not know are left to the query itself (a 404 that names them).
 */
export function routeQuery(regions: Regions, datasets: readonly RegionalDataset[]): QueryRoute {
  const byRegion = new Map<string, RegionalDataset[]>();
  for (const d of datasets) {
    const region = regions.regionOf(d);
    byRegion.set(region, [...(byRegion.get(region) ?? []), d]);
  }
  if (byRegion.size > 1) {
    const where = [...byRegion]
      .map(([region, ds]) => `${ds.map((d) => `"${d.name}"`).join(', ')} in ${region}`)
      .join('; ');
    throw invalid(`a query reads datasets of one region only; this one reads ${where}`, {
      code: 'query_spans_regions',
    });
  }
  const [only] = byRegion;
  if (only === undefined || only[0] === regions.here) return { kind: 'local' };
  return { kind: 'remote', region: only[0], dataset: only[1][0] };
}

/** Request headers a forwarded query keeps: the caller's credentials and what the body is. */
const FORWARDED_HEADERS = ['authorization', 'x-axiom-org-id', 'content-type', 'accept', 'user-agent'];
/** Response headers passed back to the caller. */
const RETURNED_HEADERS = ['retry-after', 'x-axiom-trace-id', 'x-axiom-history-query-id'];

/**
 * Sends the query to the region that stores its datasets (the main API's `/v1/datasets/_apl` answers
 * for every region, as Axiom's does) and answers with that region's answer — status, body and the
 * headers that matter — as if it were this node's. The caller's token goes along: the installation's
 * one metastore makes it valid in every region.
 */
export async function forwardQuery(
  regions: Regions,
  region: string,
  dataset: RegionalDataset,
  request: FastifyRequest,
  reply: FastifyReply,
  signal: AbortSignal,
): Promise<unknown> {
  const url = regions.urlOf(region);
  if (request.headers[FORWARDED_FROM_HEADER] !== undefined || url === undefined) {
    // Forwarded once already (the regions disagree about where the dataset lives), or nowhere to send it.
    throw regions.misdirectedError(dataset, 'the query');
  }
  const headers: Record<string, string> = { [FORWARDED_FROM_HEADER]: regions.here };
  for (const name of FORWARDED_HEADERS) {
    const value = request.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  let res: Response;
  try {
    res = await fetch(`${url}${request.url}`, {
      method: 'POST',
      headers,
      body: rawBodyOf(request),
      signal,
    });
  } catch (err) {
    throw unavailable(
      `region "${region}" (${url}), where dataset "${dataset.name}" lives, is unreachable: ${(err as Error).message}`,
      { code: 'region_unreachable', retryAfterSeconds: 5 },
    );
  }
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw unavailable(`region "${region}" (${url}) answered ${res.status} without a JSON body`, {
      code: 'region_unreachable',
      retryAfterSeconds: 5,
    });
  }
  void reply.status(res.status);
  for (const name of RETURNED_HEADERS) {
    const value = res.headers.get(name);
    if (value !== null) void reply.header(name, value);
  }
  return body;
}
