import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Metastore } from '@quarry/metastore';
import { INGEST_ROLE } from '@quarry/ingest-node';
import { MANAGEMENT_ROLE } from '@quarry/management-node';
import { QUERY_ROLE } from '@quarry/query-node';
import { loadConfig, startQuarry, type QuarryApp, type RoleModules } from '@quarry/server';

/** Every role's HTTP surface, as the standalone app hands them over. */
export const ALL_ROLES: RoleModules = { ingest: INGEST_ROLE, query: QUERY_ROLE, management: MANAGEMENT_ROLE };

export const TEST_TOKEN = 'xaat-00000000-test-0000-0000-000000000001';
export const TEST_PAT = 'xapt-00000000-test-0000-0000-000000000002';

/** A fetch Response whose JSON body tests may index freely. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type JsonResponse = Omit<Response, 'json'> & { json(): Promise<any> };

/** `fetch` typed for tests that read JSON bodies. */
export const fetchJson = (url: string, init?: RequestInit): Promise<JsonResponse> => fetch(url, init);

/**
 * What a suite may rely on of the server it runs against, in either shape: the standalone server in
 * this process, or a whole cluster behind its gateway (`cluster-target.ts`). Suites written against this
 * interface run unchanged on both.
 */
export interface TestTarget {
  kind: 'standalone' | 'cluster';
  url: string;
  token: string;
  pat: string;
  orgId: string;
  /** The owner user (the bootstrap tokens' user). */
  userId: string;
  dataDir: string;
  /** The metastore the server uses (the cluster's PostgreSQL, for the cluster). */
  metastore: Metastore;
  /** fetch against the server with the admin API token unless headers say otherwise. */
  request(
    method: string,
    pathAndQuery: string,
    init?: { body?: unknown; headers?: Record<string, string> },
  ): Promise<JsonResponse>;
  /** Resolves once every event and metric point acknowledged so far is compacted into blocks. */
  compact(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * How a suite gets its target: starts one (the standalone server, with `env` on top of the test
 * defaults) or hands over a shared cluster (whose `close` then does nothing; env cannot change it).
 */
export type TargetOpener = (env?: Record<string, string>) => Promise<TestTarget>;

/** The standalone server, in this process: suites may also reach into its internals. */
export interface TestServer extends TestTarget {
  kind: 'standalone';
  quarry: QuarryApp;
}

/** Starts the standalone server in this process on a random port with real embedded storage in a temp dir. */
export async function startTestServer(
  env: Record<string, string> = {},
  dataDir?: string,
): Promise<TestServer> {
  const dir = dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-e2e-'));
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    QUARRY_DATA_DIR: dir,
    QUARRY_BOOTSTRAP_TOKEN: TEST_TOKEN,
    QUARRY_BOOTSTRAP_PAT: TEST_PAT,
    QUARRY_LOG_LEVEL: 'error',
    QUARRY_COMPACT_INTERVAL_MS: '100',
    ...env,
  });
  const quarry = await startQuarry(config, ALL_ROLES);
  const server: TestServer = {
    kind: 'standalone',
    url: quarry.url,
    token: TEST_TOKEN,
    pat: TEST_PAT,
    orgId: quarry.identity.orgId,
    userId: quarry.identity.userId,
    dataDir: dir,
    quarry,
    metastore: quarry.storage.metastore,
    async compact() {
      await quarry.storage.compactor!.flush();
      await quarry.storage.metrics.flush();
    },
    request: requestWith(quarry.url, TEST_TOKEN),
    async close() {
      await quarry.close();
      if (!dataDir) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  return server;
}

/** `TestTarget.request` against `baseUrl`: the admin token unless headers say otherwise, JSON bodies encoded. */
export function requestWith(baseUrl: string, token: string): TestTarget['request'] {
  return (method, pathAndQuery, init = {}) => {
    const headers: Record<string, string> = { Authorization: `Bearer ${token}`, ...(init.headers ?? {}) };
    let body: string | Uint8Array | undefined;
    if (init.body instanceof Uint8Array || typeof init.body === 'string')
      body = init.body as string | Uint8Array;
    else if (init.body !== undefined) {
      body = JSON.stringify(init.body);
      headers['Content-Type'] ??= 'application/json';
    }
    return fetch(`${baseUrl}${pathAndQuery}`, { method, headers, body });
  };
}

/** Converts a tabular table to row objects (like the JS client's `events()`). */
export function rowsOf(table: {
  fields: { name: string }[];
  columns: unknown[][];
}): Record<string, unknown>[] {
  const n = table.columns.length ? table.columns[0].length : 0;
  const rows: Record<string, unknown>[] = [];
  for (let r = 0; r < n; r++) {
    const row: Record<string, unknown> = {};
    table.fields.forEach((f, c) => (row[f.name] = table.columns[c][r]));
    rows.push(row);
  }
  return rows;
}
