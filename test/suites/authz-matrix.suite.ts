import { randomUUID } from 'node:crypto';
import { sha256Hex } from '@quarry/common';
import { allDatasetCapabilities, allOrgCapabilities } from '@quarry/server';
import { exportGauge } from '../support/otlp-json';
import { routeTable, type AccessRuleMeta, type RouteEntry } from '../support/route-table';
import { startTestServer, type TargetOpener, type TestServer, type TestTarget } from '../support/test-server';

/**
 * The authorization matrix: every route of the app (read from its @Access metadata) × {no token, unknown
 * token, expired token, PAT where PATs are refused, token without the capability, token with it}.
 * Expected: 401, 401, 401, 403, 403, and neither 401 nor 403 with the capability — asserted twice, for a
 * token holding only that capability (the route asks for nothing more) and for the admin token. Where
 * PATs are accepted, the admin's PAT (with `X-Axiom-Org-Id`) passes too. Data-plane entries send
 * complete requests, so with the capability they must succeed (`ok`), not merely pass the guard.
 *
 * The table below is the data: one entry per route. A route added to the app without an entry fails the
 * "every route has an entry" test, and an entry whose route disappeared fails too.
 */

/** A capability a route checks: `org` area|action, or a dataset capability on the dataset it touches. */
type Need = { org: [string, string] } | { dataset: [string, string] };

interface MatrixEntry {
  /** Path parameter values; `$name` refers to a fixture created in `beforeAll`. */
  params?: Record<string, string>;
  /** JSON body (default `{}`); checks made in the handler need a body that passes validation. */
  body?: unknown;
  /**
   * What the route checks when its @Access rule does not say (checks in the handler: APL queries,
   * virtual fields, starred queries). `none`: any valid token may call it.
   */
  needs?: Need | 'none';
  /** Request headers (the metrics dataset of an OTLP export travels in one). */
  headers?: Record<string, string>;
  /** The exact status with the capability, where the entry's request is a complete, valid one. */
  ok?: number;
  /**
   * A cluster-internal route (`/internal/`): it takes the cluster secret, never a user credential, so
   * every caller here — no token, the admin token, a PAT — is refused: 403 from a node, 404 from a
   * cluster's gateway, which does not route `/internal/` at all.
   */
  internal?: true;
}

const DS = 'matrix-ds';
const METRICS_DS = 'matrixmetrics';
const APL = { apl: `['${DS}'] | count` };
const MPL = { mpl: `${METRICS_DS}:load | align to 5m using avg` };
const LEGACY_QUERY = { resolution: 'auto' };
const HEC_EVENT = { event: 'matrix', index: DS };
const METRICS_HEADERS = { 'x-axiom-metrics-dataset': METRICS_DS };
const VFIELD = { dataset: DS, name: 'matrix_vf', expression: '1 + 1' };
const STARRED = { name: 'matrix', kind: 'apl', who: '', dataset: DS, metadata: {}, query: APL };
const query: Need = { dataset: ['query', 'read'] };
const ingest: Need = { dataset: ['ingest', 'create'] };
const vfields = (action: string): Need => ({ dataset: ['virtualFields', action] });
const starred = (action: string): Need => ({ dataset: ['starredQueries', action] });

const MATRIX: Record<string, MatrixEntry> = {
  'GET /healthz': {},
  'GET /readyz': {},
  'GET /metrics': {},
  'POST /internal/v1/aggregate': { internal: true },
  'POST /internal/v1/rows': { internal: true },
  'POST /internal/v1/mpl': { internal: true },
  'POST /internal/v1/monitor-query': { internal: true },
  // Datasets (v1 and v2) and their sub-resources.
  'GET /v1/datasets': {},
  'POST /v1/datasets': {},
  'GET /v1/datasets/:id': { params: { id: 'nope' } },
  'PUT /v1/datasets/:id': { params: { id: 'nope' } },
  'DELETE /v1/datasets/:id': { params: { id: 'nope' } },
  'POST /v1/datasets/:id/trim': { params: { id: 'nope' } },
  'GET /v2/datasets': {},
  'POST /v2/datasets': {},
  'GET /v2/datasets/:id': { params: { id: 'nope' } },
  'PUT /v2/datasets/:id': { params: { id: 'nope' } },
  'DELETE /v2/datasets/:id': { params: { id: 'nope' } },
  'POST /v2/datasets/:id/trim': { params: { id: 'nope' } },
  'POST /v2/datasets/:id/vacuum': { params: { id: 'nope' } },
  'GET /v2/datasets/:id/fields': { params: { id: 'nope' } },
  'GET /v2/datasets/:id/fields/:field': { params: { id: 'nope', field: 'f' } },
  'PUT /v2/datasets/:id/fields/:field': { params: { id: 'nope', field: 'f' } },
  'GET /v2/datasets/:id/mapfields': { params: { id: 'nope' } },
  'PUT /v2/datasets/:id/mapfields': { params: { id: 'nope' } },
  'POST /v2/datasets/:id/mapfields': { params: { id: 'nope' } },
  'DELETE /v2/datasets/:id/mapfields/:name': { params: { id: 'nope', name: 'm' } },
  // Data plane: ingest, APL, OTLP metrics, MPL and metrics info. Each request is complete, so with the
  // capability it must succeed, not merely pass the guard.
  'POST /v1/datasets/:dataset/ingest': { params: { dataset: DS }, body: [], ok: 200 },
  'POST /v1/ingest/:dataset': { params: { dataset: DS }, body: [], ok: 200 },
  'POST /v1/datasets/_apl': { body: APL, needs: query, ok: 200 },
  'POST /v1/query/_apl': { body: APL, needs: query, ok: 200 },
  'POST /v1/metrics': { headers: METRICS_HEADERS, needs: ingest, ok: 200 },
  'POST /v1/traces': { headers: { 'x-axiom-dataset': DS }, needs: ingest, ok: 200 },
  'POST /v1/logs': { headers: { 'x-axiom-dataset': DS }, needs: ingest, ok: 200 },
  'POST /v1/datasets/:dataset/query': { params: { dataset: DS }, body: LEGACY_QUERY, ok: 200 },
  'POST /v1/query/batch': { body: [{ queryId: 'q', aplRequest: APL }], needs: query, ok: 200 },
  // Splunk HEC (its health checks need no token).
  'POST /services/collector/event': { body: HEC_EVENT, needs: ingest, ok: 200 },
  'POST /services/collector': { body: HEC_EVENT, needs: ingest, ok: 200 },
  'POST /services/collector/event/1.0': { body: HEC_EVENT, needs: ingest, ok: 200 },
  'POST /services/collector/raw': { needs: ingest, ok: 200 },
  'POST /services/collector/raw/1.0': { needs: ingest, ok: 200 },
  'POST /services/collector/ack': {
    body: { acks: [0] },
    headers: { 'x-splunk-request-channel': '0aeeac95-ac74-4aa9-b30d-6c4c0ac581ba' },
    needs: 'none',
    ok: 200,
  },
  'GET /services/collector/health': {},
  'GET /services/collector/health/1.0': {},
  'POST /v1/query/_metrics': { body: MPL, needs: query, ok: 200 },
  'POST /v1/query/_mpl': { body: MPL, needs: query, ok: 200 },
  'OPTIONS /v1/query/_metrics': {},
  'OPTIONS /v1/query/_mpl': {},
  'GET /v1/query/metrics/info/datasets/:dataset/metrics': { params: { dataset: METRICS_DS }, ok: 200 },
  'POST /v1/query/metrics/info/datasets/:dataset/metrics': {
    params: { dataset: METRICS_DS },
    body: { value: 'x' },
    ok: 200,
  },
  'GET /v1/query/metrics/info/datasets/:dataset/metrics/:metric/tags': {
    params: { dataset: METRICS_DS, metric: 'load' },
    ok: 200,
  },
  'GET /v1/query/metrics/info/datasets/:dataset/metrics/:metric/tags/:tag/values': {
    params: { dataset: METRICS_DS, metric: 'load', tag: 'host' },
    ok: 200,
  },
  'GET /v1/query/metrics/info/datasets/:dataset/tags': { params: { dataset: METRICS_DS }, ok: 200 },
  'GET /v1/query/metrics/info/datasets/:dataset/tags/:tag/values': {
    params: { dataset: METRICS_DS, tag: 'host' },
    ok: 200,
  },
  // Identity.
  'GET /v1/cluster': {},
  'POST /v1/admin/backup': {},
  'GET /v1/user': {},
  'GET /v2/user': {},
  'PUT /v2/user': {},
  'GET /v2/users': {},
  'POST /v2/users': {},
  'GET /v2/users/:id': { params: { id: 'nope' } },
  'DELETE /v2/users/:id': { params: { id: 'nope' } },
  'PUT /v2/users/:id/role': { params: { id: 'nope' } },
  'GET /v2/orgs': {},
  'POST /v2/orgs': {},
  'POST /v2/orgs/provision': {},
  'GET /v2/orgs/:id': { params: { id: 'nope' } },
  'PUT /v2/orgs/:id': { params: { id: 'nope' } },
  'GET /v2/tokens': {},
  'POST /v2/tokens': {},
  'GET /v2/tokens/:id': { params: { id: 'nope' } },
  'DELETE /v2/tokens/:id': { params: { id: 'nope' } },
  'POST /v2/tokens/:id/regenerate': { params: { id: 'nope' } },
  'GET /v2/rbac/roles': {},
  'POST /v2/rbac/roles': {},
  'GET /v2/rbac/roles/:id': { params: { id: 'nope' } },
  'PUT /v2/rbac/roles/:id': { params: { id: 'nope' } },
  'DELETE /v2/rbac/roles/:id': { params: { id: 'nope' } },
  'GET /v2/rbac/groups': {},
  'POST /v2/rbac/groups': {},
  'GET /v2/rbac/groups/:id': { params: { id: 'nope' } },
  'PUT /v2/rbac/groups/:id': { params: { id: 'nope' } },
  'DELETE /v2/rbac/groups/:id': { params: { id: 'nope' } },
  // Resources.
  'GET /v2/dashboards': {},
  'POST /v2/dashboards': {},
  'GET /v2/dashboards/uid/:uid': { params: { uid: 'nope' } },
  'PUT /v2/dashboards/uid/:uid': { params: { uid: 'nope' } },
  'DELETE /v2/dashboards/uid/:uid': { params: { uid: 'nope' } },
  'PATCH /v2/dashboards/uid/:uid/charts/:chartId': { params: { uid: 'nope', chartId: 'c' } },
  'GET /v2/views': {},
  'POST /v2/views': {},
  'GET /v2/views/:id': { params: { id: 'nope' } },
  'PUT /v2/views/:id': { params: { id: 'nope' } },
  'DELETE /v2/views/:id': { params: { id: 'nope' } },
  'GET /v2/annotations': {},
  'POST /v2/annotations': {},
  'GET /v2/annotations/:id': { params: { id: 'nope' } },
  'PUT /v2/annotations/:id': { params: { id: 'nope' } },
  'DELETE /v2/annotations/:id': { params: { id: 'nope' } },
  'GET /v2/monitors': {},
  'POST /v2/monitors': {},
  'GET /v2/monitors/:id': { params: { id: 'nope' } },
  'PUT /v2/monitors/:id': { params: { id: 'nope' } },
  'DELETE /v2/monitors/:id': { params: { id: 'nope' } },
  'GET /v2/monitors/:id/history': { params: { id: 'nope' } },
  'GET /v2/monitors/:id/runs': { params: { id: 'nope' } },
  'GET /v2/notifiers': {},
  'POST /v2/notifiers': {},
  'GET /v2/notifiers/:id': { params: { id: 'nope' } },
  'PUT /v2/notifiers/:id': { params: { id: 'nope' } },
  'DELETE /v2/notifiers/:id': { params: { id: 'nope' } },
  'GET /v2/notifiers/:id/deliveries': { params: { id: 'nope' } },
  'GET /v2/vfields': { params: {}, needs: vfields('read') },
  'POST /v2/vfields': { body: { ...VFIELD, name: 'matrix_vf2' }, needs: vfields('create') },
  'GET /v2/vfields/:id': { params: { id: '$vfield' }, needs: vfields('read') },
  'PUT /v2/vfields/:id': { params: { id: '$vfield' }, body: VFIELD, needs: vfields('update') },
  'DELETE /v2/vfields/:id': { params: { id: '$vfield' }, needs: vfields('delete') },
  'GET /v2/apl-starred-queries': { needs: 'none' },
  'POST /v2/apl-starred-queries': { body: STARRED, needs: starred('create') },
  'GET /v2/apl-starred-queries/:id': { params: { id: '$starred' }, needs: starred('read') },
  'PUT /v2/apl-starred-queries/:id': { params: { id: '$starred' }, body: STARRED, needs: starred('update') },
  'DELETE /v2/apl-starred-queries/:id': { params: { id: '$starred' }, needs: starred('delete') },
};

/** Query strings some list routes need to reach their capability check. */
const WINDOW = `?start=2000-01-01T00:00:00Z&end=${encodeURIComponent(new Date(Date.now() + 3_600_000).toISOString())}`;
const QUERY: Record<string, string> = {
  'GET /v2/vfields': `?dataset=${DS}`,
  'POST /services/collector/raw': `?index=${DS}`,
  'POST /services/collector/raw/1.0': `?index=${DS}`,
  'GET /v1/query/metrics/info/datasets/:dataset/metrics/:metric/tags/:tag/values': WINDOW,
};

/** What the route needs: its entry's `needs`, else its @Access rule. */
function needOf(route: RouteEntry, entry: MatrixEntry): Need | 'none' {
  if (entry.needs) return entry.needs;
  const rule = route.rule as AccessRuleMeta;
  if (rule.org) return { org: rule.org };
  if (rule.dataset) return { dataset: [rule.dataset.capability, rule.dataset.action] };
  return 'none';
}

/** All capabilities except `need` (on every dataset, for dataset capabilities). */
function capabilitiesWithout(need: Need) {
  const org = allOrgCapabilities() as Record<string, string[]>;
  const datasets = allDatasetCapabilities() as Record<string, Record<string, string[]>>;
  if ('org' in need) org[need.org[0]] = org[need.org[0]].filter((a) => a !== need.org[1]);
  else datasets['*'][need.dataset[0]] = datasets['*'][need.dataset[0]].filter((a) => a !== need.dataset[1]);
  return { orgCapabilities: org, datasetCapabilities: datasets };
}

/** Only `need` (on every dataset, for dataset capabilities): proves the route asks for nothing more. */
function capabilitiesOnly(need: Need) {
  if ('org' in need) return { orgCapabilities: { [need.org[0]]: [need.org[1]] }, datasetCapabilities: {} };
  return { orgCapabilities: {}, datasetCapabilities: { '*': { [need.dataset[0]]: [need.dataset[1]] } } };
}

/**
 * The app's routes with their access rules. A cluster serves the same routes from its role processes,
 * so its table is read from a standalone app (started here for that alone).
 */
async function routesOf(target: TestTarget): Promise<RouteEntry[]> {
  if (target.kind === 'standalone') return routeTable((target as TestServer).quarry.app);
  const reference = await startTestServer();
  try {
    return routeTable(reference.quarry.app);
  } finally {
    await reference.close();
  }
}

export function authzMatrixSuite(open: TargetOpener): void {
  describe('authorization matrix', () => {
    let server: TestTarget;
    let routes: RouteEntry[];
    const fixtures: Record<string, string> = {};
    let expiredToken: string;
    const scopedTokens = new Map<string, string>();

    async function apiToken(caps: object, expiresAt: string | null = null): Promise<string> {
      const secret = `xaat-${randomUUID()}`;
      await server.metastore.tokens.create({
        kind: 'api',
        name: `matrix ${randomUUID()}`,
        secretHash: sha256Hex(secret),
        userId: server.userId,
        expiresAt,
        ...caps,
      });
      return secret;
    }

    beforeAll(async () => {
      server = await open();
      routes = await routesOf(server);
      expect((await server.request('POST', '/v2/datasets', { body: { name: DS } })).status).toBe(200);
      const metricsDataset = { name: METRICS_DS, kind: 'otel:metrics:v1' };
      expect((await server.request('POST', '/v2/datasets', { body: metricsDataset })).status).toBe(200);
      // One point of `load{host}`, so the metrics info routes find the metric and tag they are asked about.
      const point = { timeMs: Date.now(), value: 1, tags: { host: 'a' } };
      expect(await exportGauge(server, METRICS_DS, { name: 'load' }, [point])).toBe(200);
      const vfield = await server.request('POST', '/v2/vfields', { body: VFIELD });
      expect(vfield.status).toBe(200);
      fixtures.vfield = (await vfield.json()).id;
      const star = await server.request('POST', '/v2/apl-starred-queries', { body: STARRED });
      expect(star.status).toBe(200);
      fixtures.starred = (await star.json()).id;
      expiredToken = await apiToken(
        { orgCapabilities: allOrgCapabilities(), datasetCapabilities: allDatasetCapabilities() },
        new Date(Date.now() - 60_000).toISOString(),
      );
    });
    afterAll(async () => {
      await server?.close();
    });

    it('has an entry for every route and a route for every entry', () => {
      const keys = routes.map((r) => r.key);
      expect(keys.filter((k) => !(k in MATRIX))).toEqual([]);
      expect(Object.keys(MATRIX).filter((k) => !keys.includes(k))).toEqual([]);
    });

    it('finds every route declaring an access rule', () => {
      expect(routes.filter((r) => !r.rule).map((r) => r.key)).toEqual([]);
    });

    async function call(route: RouteEntry, headers: Record<string, string>): Promise<number> {
      const entry = MATRIX[route.key] ?? {};
      let path = route.path;
      for (const [name, value] of Object.entries(entry.params ?? {})) {
        const resolved = value.startsWith('$') ? fixtures[value.slice(1)] : value;
        path = path.replace(`:${name}`, encodeURIComponent(resolved));
      }
      path += QUERY[route.key] ?? '';
      const res = await fetch(`${server.url}${path}`, {
        method: route.method,
        headers: { 'Content-Type': 'application/json', ...entry.headers, ...headers },
        body: route.method === 'GET' ? undefined : JSON.stringify(entry.body ?? {}),
      });
      await res.arrayBuffer();
      return res.status;
    }

    /** An API token with exactly these capabilities, one per distinct set. */
    async function scopedToken(caps: object): Promise<string> {
      const key = JSON.stringify(caps);
      if (!scopedTokens.has(key)) scopedTokens.set(key, await apiToken(caps));
      return scopedTokens.get(key)!;
    }

    it('answers every route × caller with the expected status', async () => {
      const failures: string[] = [];
      let checks = 0;
      const expectStatus = (
        route: RouteEntry,
        caller: string,
        status: number,
        ok: (s: number) => boolean,
      ) => {
        checks++;
        if (!ok(status)) failures.push(`${route.key} [${caller}] → ${status}`);
      };
      const is = (expected: number) => (s: number) => s === expected;
      const allowed = (s: number) => s !== 401 && s !== 403;
      const bearer = (secret: string) => ({ Authorization: `Bearer ${secret}` });

      // Deletes last: a delete with the capability removes its fixture, which later calls still need.
      const ordered = [
        ...routes.filter((r) => r.method !== 'DELETE'),
        ...routes.filter((r) => r.method === 'DELETE'),
      ];
      for (const route of ordered) {
        if (!(route.key in MATRIX)) continue;
        const rule = route.rule as AccessRuleMeta;
        if (MATRIX[route.key].internal) {
          const pat = { ...bearer(server.pat), 'X-Axiom-Org-Id': server.orgId };
          const refused = is(server.kind === 'standalone' ? 403 : 404);
          expectStatus(route, 'internal, no secret', await call(route, {}), refused);
          expectStatus(route, 'internal, admin token', await call(route, bearer(server.token)), refused);
          expectStatus(route, 'internal, PAT', await call(route, pat), refused);
          continue;
        }
        if (rule.public) {
          expectStatus(route, 'public, no token', await call(route, {}), allowed);
          continue;
        }
        expectStatus(route, 'no token', await call(route, {}), is(401));
        expectStatus(route, 'unknown token', await call(route, bearer(`xaat-${randomUUID()}`)), is(401));
        expectStatus(route, 'expired token', await call(route, bearer(expiredToken)), is(401));
        if (rule.tokens === 'api') {
          const pat = { ...bearer(server.pat), 'X-Axiom-Org-Id': server.orgId };
          expectStatus(route, 'PAT refused', await call(route, pat), is(403));
        }
        const need = needOf(route, MATRIX[route.key]);
        const ok = MATRIX[route.key].ok;
        if (need !== 'none') {
          const without = await scopedToken(capabilitiesWithout(need));
          expectStatus(route, `without ${JSON.stringify(need)}`, await call(route, bearer(without)), is(403));
          const only = await scopedToken(capabilitiesOnly(need));
          expectStatus(
            route,
            `only ${JSON.stringify(need)}`,
            await call(route, bearer(only)),
            ok ? is(ok) : allowed,
          );
        }
        expectStatus(
          route,
          'with capability',
          await call(route, bearer(server.token)),
          ok ? is(ok) : allowed,
        );
        if (rule.tokens === 'any') {
          const pat = { ...bearer(server.pat), 'X-Axiom-Org-Id': server.orgId };
          expectStatus(route, 'PAT accepted', await call(route, pat), ok ? is(ok) : allowed);
        }
      }
      expect(failures).toEqual([]);
      // Every non-public route was called at least as no/unknown/expired token and with the capability.
      expect(checks).toBeGreaterThanOrEqual(routes.filter((r) => !r.rule?.public).length * 4);
    });
  });
}
