import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadConfig, startQuarry, type QuarryApp } from '@quarry/server';

export const TEST_TOKEN = 'xaat-00000000-test-0000-0000-000000000001';
export const TEST_PAT = 'xapt-00000000-test-0000-0000-000000000002';

/** A fetch Response whose JSON body tests may index freely. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type JsonResponse = Omit<Response, 'json'> & { json(): Promise<any> };

/** `fetch` typed for tests that read JSON bodies. */
export const fetchJson = (url: string, init?: RequestInit): Promise<JsonResponse> => fetch(url, init);

export interface TestServer {
  url: string;
  token: string;
  pat: string;
  orgId: string;
  dataDir: string;
  quarry: QuarryApp;
  /** fetch against the server with the admin API token unless headers say otherwise. */
  request(
    method: string,
    pathAndQuery: string,
    init?: { body?: unknown; headers?: Record<string, string> },
  ): Promise<JsonResponse>;
  close(): Promise<void>;
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
  const quarry = await startQuarry(config);
  const server: TestServer = {
    url: quarry.url,
    token: TEST_TOKEN,
    pat: TEST_PAT,
    orgId: quarry.identity.orgId,
    dataDir: dir,
    quarry,
    request(method, pathAndQuery, init = {}) {
      const headers: Record<string, string> = {
        Authorization: `Bearer ${TEST_TOKEN}`,
        ...(init.headers ?? {}),
      };
      let body: string | Uint8Array | undefined;
      if (init.body instanceof Uint8Array || typeof init.body === 'string')
        body = init.body as string | Uint8Array;
      else if (init.body !== undefined) {
        body = JSON.stringify(init.body);
        headers['Content-Type'] ??= 'application/json';
      }
      return fetch(`${quarry.url}${pathAndQuery}`, { method, headers, body });
    },
    async close() {
      await quarry.close();
      if (!dataDir) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  return server;
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
