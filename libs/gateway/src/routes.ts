/**
 * The gateway's routing table: which role's pool serves a request, decided from the path (and the method
 * where the path alone is ambiguous). First matching rule wins; anything unmatched goes to management,
 * which owns every `/v2` family and the `/v1` dataset, token and user routes
 * (the role libs' `RoleModule`s — `INGEST_ROLE`, `QUERY_ROLE`, `MANAGEMENT_ROLE` — are the server-side twin).
 */
export const POOLS = ['ingest', 'query', 'management'] as const;
export type PoolName = (typeof POOLS)[number];

/**
 * Where a request goes: one of the pools, the gateway itself (its health and metrics endpoints), or
 * nowhere (`internal`: the nodes' own RPC, which no client reaches through the gateway).
 */
export type RouteTarget = PoolName | 'gateway' | 'internal';

export interface RouteRule {
  /** Only these methods match; absent = any method. */
  methods?: readonly string[];
  path: RegExp;
  target: RouteTarget;
  why: string;
}

export const ROUTE_TABLE: readonly RouteRule[] = [
  { path: /^\/(healthz|readyz|metrics)$/, target: 'gateway', why: "the gateway's own probes and metrics" },
  {
    path: /^\/internal(\/|$)/,
    target: 'internal',
    why: 'the nodes talk to one another directly, never through the gateway',
  },
  { path: /^\/v1\/ingest\/[^/]+$/, target: 'ingest', why: 'edge ingest' },
  {
    path: /^\/v1\/(metrics|logs|traces)$/,
    target: 'ingest',
    why: 'OTLP metrics, logs and traces',
  },
  { path: /^\/services\/collector(\/.*)?$/, target: 'ingest', why: 'Splunk HEC' },
  { path: /^\/v1\/query\//, target: 'query', why: 'edge queries: APL, MPL, batch, metrics info' },
  // Under /v1/datasets/ the same prefix serves management (`GET /v1/datasets/_apl` asks for a dataset),
  // so these three rules also name the method.
  { methods: ['POST'], path: /^\/v1\/datasets\/_apl$/, target: 'query', why: 'APL query' },
  { methods: ['POST'], path: /^\/v1\/datasets\/[^/]+\/ingest$/, target: 'ingest', why: 'legacy ingest' },
  {
    methods: ['POST'],
    path: /^\/v1\/datasets\/[^/]+\/query$/,
    target: 'query',
    why: 'legacy structured query',
  },
];

/** The target of a request; `url` may carry a query string, which does not take part in routing. */
export function classifyRoute(method: string, url: string): RouteTarget {
  const queryAt = url.indexOf('?');
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  const upper = method.toUpperCase();
  for (const rule of ROUTE_TABLE) {
    if (rule.methods && !rule.methods.includes(upper)) continue;
    if (rule.path.test(path)) return rule.target;
  }
  return 'management';
}
