import * as fs from 'node:fs';
import * as path from 'node:path';
import type { RouteEntry } from './route-table';

/**
 * The API coverage table (docs/api-coverage.md): every operation of the five OpenAPI documents in
 * libs/management-node/openapi (v1, v2, edge ingest, edge query, edge HEC), whether the running app
 * implements it or answers 501 on purpose (with the reason), and the e2e test files that cover it. A test
 * file covers an operation when it contains the operation string exactly as `'GET /v2/rbac/roles/{id}'`
 * (METHOD, one space, the document's base path + its path template, in quotes).
 */

export const ROOT = path.resolve(__dirname, '../..');
export const COVERAGE_DOC = path.join(ROOT, 'docs', 'api-coverage.md');
const OPENAPI_DIR = path.join(ROOT, 'libs', 'management-node', 'openapi');
/** The documents, each with the base path its `servers` URL gives its paths. */
export const OPENAPI_DOCUMENTS = [
  'v1.json',
  'v2.json',
  'v1-edge-ingest.json',
  'v1-edge-query.json',
  'v1-edge-hec.json',
];
const E2E_DIR = path.join(ROOT, 'test', 'e2e');
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options'];

/**
 * Operations Quarry adds to Axiom's API, listed apart (none is in the five documents), each with the
 * page that documents it. Internal routes (`/internal/`, the cluster secret) and probes are not listed.
 */
export const EXTENSIONS: { operation: string; doc: string }[] = [
  { operation: 'GET /v2/monitors/{id}/runs', doc: 'docs/monitors.md' },
  { operation: 'GET /v2/notifiers/{id}/deliveries', doc: 'docs/monitors.md' },
  { operation: 'POST /services/collector/ack', doc: 'docs/otel-and-hec.md' },
];

export interface ExtensionCoverage extends OperationCoverage {
  doc: string;
}

export interface OperationCoverage {
  /** `GET /v2/rbac/roles/{id}` */
  operation: string;
  status: 'implemented' | 'not implemented (501)' | 'missing';
  reason?: string;
  tests: string[];
}

/** `/v2/datasets/{dataset_id}/fields` and `/v2/datasets/:id/fields` → `/v2/datasets/{}/fields`. */
const shapeOf = (p: string) => p.replace(/\{[^}]+\}|:[^/]+/g, '{}');

/** Every operation of the documents, as `METHOD /base/path` (a path's `?query` suffix dropped). */
export function apiOperations(): string[] {
  const ops = new Set<string>();
  for (const file of OPENAPI_DOCUMENTS) {
    const doc = JSON.parse(fs.readFileSync(path.join(OPENAPI_DIR, file), 'utf8')) as {
      servers?: { url: string }[];
      paths: Record<string, Record<string, unknown>>;
    };
    // `https://{axiom-domain}/v1/` → `/v1`; `https://hec.{axiom-domain}/` → ''.
    const base = (doc.servers?.[0]?.url ?? '').replace(/^[a-z]+:\/\/[^/]+/, '').replace(/\/$/, '');
    for (const [route, methods] of Object.entries(doc.paths))
      for (const method of Object.keys(methods))
        if (METHODS.includes(method)) ops.add(`${method.toUpperCase()} ${base}${route.split('?')[0]}`);
  }
  return [...ops];
}

/** e2e test file name → its text. */
export function e2eSources(): Map<string, string> {
  const files = new Map<string, string>();
  // The HTTP suites: test files, and the suites they (and the cluster tests) run against a target.
  for (const dir of [E2E_DIR, path.join(E2E_DIR, '..', 'suites')]) {
    for (const name of fs.readdirSync(dir).sort())
      if (name.endsWith('.test.ts') || name.endsWith('.suite.ts'))
        files.set(name, fs.readFileSync(path.join(dir, name), 'utf8'));
  }
  return files;
}

export function coverageOf(
  operations: string[],
  routes: RouteEntry[],
  sources: Map<string, string>,
): OperationCoverage[] {
  const byShape = new Map(routes.map((r) => [`${r.method} ${shapeOf(r.path)}`, r]));
  return operations.map((operation) => {
    const [method, opPath] = operation.split(' ');
    const route = byShape.get(`${method} ${shapeOf(opPath)}`);
    const tests = [...sources]
      .filter(([, text]) => ["'", '"', '`'].some((q) => text.includes(`${q}${operation}${q}`)))
      .map(([name]) => name);
    if (!route) return { operation, status: 'missing', tests };
    if (route.notImplemented)
      return { operation, status: 'not implemented (501)', reason: route.notImplemented, tests };
    return { operation, status: 'implemented', tests };
  });
}

/** The extensions, as `coverageOf` sees operations (implemented or missing, and their tests). */
export function extensionsOf(routes: RouteEntry[], sources: Map<string, string>): ExtensionCoverage[] {
  const rows = coverageOf(
    EXTENSIONS.map((e) => e.operation),
    routes,
    sources,
  );
  return rows.map((row, i) => ({ ...row, doc: EXTENSIONS[i].doc }));
}

export function renderCoverage(rows: OperationCoverage[], extensions: ExtensionCoverage[] = []): string {
  const count = (status: OperationCoverage['status']) => rows.filter((r) => r.status === status).length;
  const untested = rows.filter((r) => r.tests.length === 0).length;
  const lines = [
    '# API coverage (generated)',
    '',
    `Every operation of the OpenAPI documents in \`libs/management-node/openapi\` (${OPENAPI_DOCUMENTS.map((d) => `\`${d}\``).join(', ')})`,
    "against the running app's route table. Regenerate with `UPDATE_DOCS=1 npx jest test/e2e/api-coverage.test.ts`;",
    'the test fails when this file is stale. A test file covers an operation when it contains the operation',
    "string in quotes, e.g. `'GET /v2/rbac/roles/{id}'`.",
    '',
    `Operations: ${rows.length}. Implemented: ${count('implemented')}. Answered 501 on purpose: ${count(
      'not implemented (501)',
    )}. Missing: ${count('missing')}. Without a covering test: ${untested}.`,
    '',
  ];
  const table: string[][] = [];
  for (const row of [...rows].sort((a, b) => a.operation.localeCompare(b.operation))) {
    const status = row.reason ? `${row.status}: ${row.reason}` : row.status;
    const tests = row.tests.length ? row.tests.map((t) => `\`${t}\``).join(', ') : '—';
    table.push([`\`${row.operation}\``, status, tests]);
  }
  lines.push(...alignedTable(['Operation', 'Status', 'Tests'], table));
  if (extensions.length > 0) {
    lines.push(
      '',
      '## Quarry extensions',
      '',
      "Operations Quarry serves that are in none of the documents above (Axiom's clients never call them).",
      '',
    );
    const rowsOfExtensions = [...extensions]
      .sort((a, b) => a.operation.localeCompare(b.operation))
      .map((row) => [
        `\`${row.operation}\``,
        row.status,
        row.doc,
        row.tests.length ? row.tests.map((t) => `\`${t}\``).join(', ') : '—',
      ]);
    lines.push(...alignedTable(['Operation', 'Status', 'Documented in', 'Tests'], rowsOfExtensions));
  }
  return lines.join('\n') + '\n';
}

/** A Markdown table with padded columns, as Prettier formats it (so `format:check` accepts the file). */
function alignedTable(header: string[], body: string[][]): string[] {
  const widths = header.map((h, c) => Math.max(h.length, 3, ...body.map((r) => r[c].length)));
  const line = (cells: string[]) => `| ${cells.map((cell, c) => cell.padEnd(widths[c])).join(' | ')} |`;
  return [line(header), `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`, ...body.map(line)];
}
