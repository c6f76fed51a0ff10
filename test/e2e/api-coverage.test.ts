import * as fs from 'node:fs';
import {
  COVERAGE_DOC,
  coverageOf,
  e2eSources,
  extensionsOf,
  renderCoverage,
  apiOperations,
  type ExtensionCoverage,
  type OperationCoverage,
} from '../support/api-coverage';
import { routeTable } from '../support/route-table';
import { startTestServer, type TestServer } from '../support/test-server';

/**
 * docs/api-coverage.md is generated from the OpenAPI documents, the live route table and the e2e sources. This test
 * regenerates it in memory: stale → fail (`UPDATE_DOCS=1` rewrites it), and every operation must be
 * implemented or answered 501 with a reason.
 */
describe('API coverage (docs/api-coverage.md)', () => {
  let server: TestServer;
  let rows: OperationCoverage[];
  let extensions: ExtensionCoverage[];

  beforeAll(async () => {
    server = await startTestServer();
    const routes = routeTable(server.quarry.app);
    rows = coverageOf(apiOperations(), routes, e2eSources());
    extensions = extensionsOf(routes, e2eSources());
  });
  afterAll(async () => {
    await server?.close();
  });

  it('lists every operation of the five OpenAPI documents', () => {
    expect(rows.length).toBe(apiOperations().length);
    expect(rows.length).toBeGreaterThan(100);
  });

  it('implements every operation or answers it 501 with a reason', () => {
    expect(rows.filter((r) => r.status === 'missing').map((r) => r.operation)).toEqual([]);
    for (const row of rows.filter((r) => r.status === 'not implemented (501)'))
      expect(row.reason?.length ?? 0).toBeGreaterThan(10);
  });

  it('answers the 501 operations with 501 for real', async () => {
    for (const row of rows.filter((r) => r.status === 'not implemented (501)')) {
      const [method, path] = row.operation.split(' ');
      const res = await server.request(method, path, { body: {} });
      expect({ operation: row.operation, status: res.status }).toEqual({
        operation: row.operation,
        status: 501,
      });
    }
  });

  it('serves every listed Quarry extension, each covered by a test', () => {
    expect(extensions.filter((e) => e.status !== 'implemented' || e.tests.length === 0)).toEqual([]);
  });

  it('matches the committed document', () => {
    const expected = renderCoverage(rows, extensions);
    if (process.env.UPDATE_DOCS === '1') fs.writeFileSync(COVERAGE_DOC, expected);
    const committed = fs.existsSync(COVERAGE_DOC) ? fs.readFileSync(COVERAGE_DOC, 'utf8') : '';
    expect(committed).toBe(expected);
  });
});
