/**
 * The APL facade: parse → plan (names resolved against dataset schemas) → optimize → execute → table.
 */
import { aplError, parseApl } from '@quarry/apl';
import { QuarryError, isQuarryError, notFound, spanAt, type SourceSpan } from '@quarry/common';
import { emptyScanStats, type Catalog, type DatasetSource, type QueryOutput } from '@quarry/contracts';
import { compileRegex, executePlan, toResultTable } from '@quarry/query-exec';
import { aplTypeOfWire, buildPlan, optimize, printPlan, type Field } from '@quarry/query-plan';
import { datasetsOfQuery } from './referenced-datasets';

export interface RunAplOptions {
  /** Inclusive lower bound on `_time` of every dataset scan (epoch ms). */
  startMs: number;
  /** Exclusive upper bound on `_time` (epoch ms). */
  endMs: number;
  /** The query's `now()` (epoch ms). */
  nowMs: number;
  catalog: Catalog;
  /** Row cap for raw (non-aggregated) results without take/limit/top. Default 1000. */
  defaultLimit?: number;
  signal?: AbortSignal;
}

const SYSTEM_FIELDS: Field[] = [
  { name: '_sysTime', type: 'datetime' },
  { name: '_time', type: 'datetime' },
];

/** Orders dataset fields the way raw rows are returned: `_sysTime`, `_time`, then the rest by name. */
export function orderSchema(fields: Field[]): Field[] {
  const rest = fields
    .filter((f) => f.name !== '_time' && f.name !== '_sysTime')
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return [...SYSTEM_FIELDS, ...rest];
}

/** Why a constant pattern does not compile under RE2 (the engine that runs it), or null. */
function checkRegex(pattern: string): string | null {
  try {
    compileRegex(pattern);
    return null;
  } catch (err) {
    const message = (err as Error)?.message ?? String(err);
    // compileRegex says "invalid regular expression '<p>': <reason>"; keep the reason.
    const i = message.lastIndexOf("': ");
    return i >= 0 ? message.slice(i + 3) : message;
  }
}

/**
 * Normalizes what escapes the engine: a user error always carries a span (errors raised at run time
 * without one, such as a regex that is only known per row, point at the whole query), a stack overflow
 * on a pathological query is `apl_too_complex`, anything else is an internal error.
 */
function normalizeError(err: unknown, text: string, what: string): QuarryError {
  if (isQuarryError(err)) {
    if (err.kind !== 'invalid' || err.span) return err;
    const span = spanAt(text, 0, text.length);
    return new QuarryError('invalid', `${err.message} at ${span.line}:${span.column}`, {
      code: err.code,
      span,
      details: err.details,
      cause: err.cause,
    });
  }
  if (err instanceof RangeError && /call stack/i.test(err.message)) {
    return aplError('apl_too_complex', { limit: 'supported' }, spanAt(text, 0, text.length));
  }
  return new QuarryError('internal', `${what} failed: ${(err as Error)?.message ?? String(err)}`, {
    cause: err,
    code: 'query_internal',
  });
}

export async function runApl(text: string, options: RunAplOptions): Promise<QueryOutput> {
  try {
    return await runAplUnchecked(text, options);
  } catch (err) {
    throw normalizeError(err, text, 'query');
  }
}

async function runAplUnchecked(text: string, options: RunAplOptions): Promise<QueryOutput> {
  const query = parseApl(text);
  const names = datasetsOfQuery(query);
  const sources = new Map<string, DatasetSource>();
  const schemas = new Map<string, Field[]>();
  for (const name of names) {
    const source = await options.catalog.getDataset(name);
    if (!source) continue; // reported with its span by the planner
    sources.set(name, source);
    const schema = await source.schema();
    schemas.set(name, orderSchema(schema.map((f) => ({ name: f.name, type: aplTypeOfWire(f.type) }))));
  }
  const built = buildPlan(query, {
    startMs: options.startMs,
    endMs: options.endMs,
    nowMs: options.nowMs,
    defaultLimit: options.defaultLimit,
    checkRegex,
    datasetSchema: (name: string, span: SourceSpan) => {
      const schema = schemas.get(name);
      if (!schema) throw notFound(`dataset "${name}" not found`, { code: 'dataset_not_found', span });
      return schema;
    },
  });
  const plan = optimize(built.root);
  const stats = emptyScanStats();
  const result = await executePlan(plan, { sources, stats, signal: options.signal });
  const table = toResultTable({ root: plan, batch: result.batch, sources: built.datasets });
  return {
    tables: [table],
    datasetNames: built.datasets,
    aggregated: built.aggregated,
    stats: { ...stats, rowsMatched: result.rowsMatched, numGroups: result.numGroups },
  };
}

/** Parses and statically checks a query (no schemas: unknown fields are accepted). Throws `invalid`. */
export function validateApl(text: string): void {
  try {
    const query = parseApl(text);
    buildPlan(query, {
      startMs: 0,
      endMs: 1,
      nowMs: 0,
      lenientFields: true,
      checkRegex,
      datasetSchema: () => SYSTEM_FIELDS.map((f) => ({ ...f })),
    });
  } catch (err) {
    throw normalizeError(err, text, 'validation');
  }
}

/** Dataset names the query reads (for access checks before running it). Throws `invalid` on syntax errors. */
export function referencedDatasets(text: string): string[] {
  try {
    return datasetsOfQuery(parseApl(text));
  } catch (err) {
    throw normalizeError(err, text, 'parse');
  }
}

/** The optimized plan as text (for debugging and `EXPLAIN`-like endpoints). */
export async function explainApl(text: string, options: RunAplOptions): Promise<string> {
  const query = parseApl(text);
  const schemas = new Map<string, Field[]>();
  for (const name of datasetsOfQuery(query)) {
    const source = await options.catalog.getDataset(name);
    if (source)
      schemas.set(
        name,
        orderSchema((await source.schema()).map((f) => ({ name: f.name, type: aplTypeOfWire(f.type) }))),
      );
  }
  const built = buildPlan(query, {
    ...options,
    datasetSchema: (name, span) => {
      const s = schemas.get(name);
      if (!s) throw notFound(`dataset "${name}" not found`, { code: 'dataset_not_found', span });
      return s;
    },
  });
  return printPlan(optimize(built.root));
}
