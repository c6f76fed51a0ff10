/**
 * The APL facade: parse → plan (names resolved against dataset schemas) → optimize → execute → table.
 */
import { aplError, type Query } from '@quarry/apl';
import { QuarryError, invalid, isQuarryError, notFound, spanAt, type SourceSpan } from '@quarry/common';
import {
  emptyScanStats,
  valueAt,
  type Catalog,
  type ColumnBatch,
  type DatasetSource,
  type FieldSchema,
  type QueryOutput,
} from '@quarry/contracts';
import {
  DEFAULT_QUERY_LIMITS,
  compileRegex,
  executePlan,
  toResultTable,
  type AggregateOffload,
  type QueryLimits,
} from '@quarry/query-exec';
import {
  aplTypeOfWire,
  buildPlan,
  materializedTable,
  optimize,
  printPlan,
  type Field,
  type PlanContext,
  type PlanNode,
} from '@quarry/query-plan';
import { parseAplCached } from './parse-cache';
import { datasetsOfQuery, hasDatasetPattern } from './referenced-datasets';
import { virtualFieldResolver, type VirtualFieldLookup } from './virtual-fields';

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
  /** Virtual fields per dataset (see docs/apl.md "Virtual fields"). */
  virtualFields?: VirtualFieldLookup;
  /**
   * The datasets name patterns (`union logs*`, `search in (web-*)`, leading `search`) expand against,
   * e.g. only those the caller may read. Default: `catalog.listDatasets()`.
   */
  datasetNames?: readonly string[];
  /** Memory limits (rows held by sort/join/result, groups per summarize); defaults in @quarry/query-exec. */
  limits?: Partial<QueryLimits>;
  /** Splits large summarizes across worker threads (see `AggregateOffload` in @quarry/query-exec). */
  offload?: AggregateOffload;
  /** Return the optimized plan as text with the result (`QueryOutput.plan`). */
  explain?: boolean;
  /**
   * Told each dataset's stored fields as the query was bound with them (callers that answer them, such
   * as `fieldsMetaMap`, need not ask the catalog again).
   */
  onDatasetSchema?: (dataset: string, fields: FieldSchema[]) => void;
}

/** Options of `validateApl`. */
export interface ValidateAplOptions {
  virtualFields?: VirtualFieldLookup;
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
  const query = parseAplCached(text);
  const allNames = await datasetNamesFor(query, options);
  const sources = new Map<string, DatasetSource>();
  const schemas = new Map<string, Field[]>();
  for (const name of datasetsOfQuery(query, allNames)) {
    const source = await options.catalog.getDataset(name);
    if (!source) continue; // reported with its span by the planner
    sources.set(name, source);
    const schema = await source.schema();
    options.onDatasetSchema?.(name, schema);
    schemas.set(name, orderSchema(schema.map((f) => ({ name: f.name, type: aplTypeOfWire(f.type) }))));
  }
  const stats = emptyScanStats();
  const virtualFields = virtualFieldResolver(options.virtualFields);
  // `x in (T | ...)` and `toscalar(T)`: the binder asks for each subquery's values with T as bound where
  // it appears (inside a user-defined function, with that call's arguments). A plan not run yet gets an
  // empty list; it runs and the query is bound again, until every subquery is known (inner ones first:
  // one more binding per level of nesting).
  const subqueryValues = new Map<string, unknown[]>();
  let missing = new Map<string, PlanNode>();
  // `let m = materialize(T)` used more than once: T runs once, and the query is bound again with its
  // rows in place of T. Those rows are held until the query ends, so they count against the query's
  // held-rows limit (`maxHeldRows`) like a sort's: every later run gets what is left of it.
  const materialized = new Map<string, PlanNode>();
  const maxHeldRows = options.limits?.maxHeldRows ?? DEFAULT_QUERY_LIMITS.maxHeldRows;
  let heldByMaterialize = 0;
  const limits = (): Partial<QueryLimits> => ({
    ...options.limits,
    maxHeldRows: maxHeldRows - heldByMaterialize,
  });
  const context = (defaultLimit: number | undefined): PlanContext => ({
    startMs: options.startMs,
    endMs: options.endMs,
    nowMs: options.nowMs,
    defaultLimit,
    checkRegex,
    virtualFields,
    datasetNames: allNames,
    materialized: (plan) => materialized.get(JSON.stringify(plan)),
    subqueryValues: (_t, subPlan) => {
      const key = JSON.stringify(subPlan);
      const known = subqueryValues.get(key);
      if (known === undefined) missing.set(key, subPlan);
      return known;
    },
    datasetSchema: (name: string, span: SourceSpan) => {
      const schema = schemas.get(name);
      if (!schema) throw notFound(`dataset "${name}" not found`, { code: 'dataset_not_found', span });
      return schema;
    },
  });
  // A subquery whose value the binding needs as a constant (`range x from 1 to toscalar(T)`) fails the
  // first binding: it is retried once the subqueries asked for so far have run.
  const bind = () => {
    try {
      return buildPlan(query, context(options.defaultLimit));
    } catch (err) {
      if (missing.size === 0) throw err;
      return undefined;
    }
  };
  const run = (plan: PlanNode) =>
    executePlan(plan, {
      sources,
      stats,
      signal: options.signal,
      limits: limits(),
      offload: options.offload,
    });
  // Kusto's materialize page: exceeding the cache limit fails the query. Here the limit is the query's
  // held-rows limit, shared with its sorts, joins and result, so a cache never holds more than a sort
  // could; a run that fails on what the caches left of it says so.
  const runHolding = async (plan: PlanNode, what: string) => {
    try {
      return await run(plan);
    } catch (err) {
      if (!isQuarryError(err) || err.code !== 'query_limit_exceeded' || heldByMaterialize === 0) throw err;
      throw invalid(
        `${what} went over the query's held-rows limit of ${maxHeldRows.toLocaleString('en')} rows, ` +
          `${heldByMaterialize.toLocaleString('en')} of them held by materialize() for the whole query; ` +
          'narrow the time range, filter or summarize inside materialize(), or use the table once',
        { code: 'query_limit_exceeded', cause: err },
      );
    }
  };
  let built = bind();
  for (;;) {
    if (missing.size > 0) {
      const toRun = missing;
      missing = new Map();
      for (const [key, raw] of toRun) {
        const subPlan = optimize(raw);
        subqueryValues.set(key, firstColumnValues(subPlan, (await run(subPlan)).batch));
      }
      built = bind();
      continue;
    }
    const reused = (built?.reusedMaterialized ?? []).filter((p) => !materialized.has(JSON.stringify(p)));
    if (reused.length === 0) break;
    for (const raw of reused) {
      const key = JSON.stringify(raw);
      const { batch } = await runHolding(optimize(raw), 'materialize()');
      // Its run counted these rows as its result; from now on they are held by the cache.
      heldByMaterialize += batch.length;
      materialized.set(key, materializedTable(raw, key, batch));
    }
    built = bind();
  }
  if (built === undefined) throw new Error('unreachable: a binding failed without asking for a subquery');
  const plan = optimize(built.root);
  const result = await runHolding(plan, 'the query');
  const table = toResultTable({ root: plan, batch: result.batch, sources: built.datasets });
  return {
    tables: [table],
    datasetNames: built.datasets,
    aggregated: built.aggregated,
    stats: { ...stats, rowsMatched: result.rowsMatched, numGroups: result.numGroups },
    ...(options.explain ? { plan: printPlan(plan) } : {}),
  };
}

/** The distinct non-null values of a result's first column (the list of `x in (subquery)`). */
function firstColumnValues(root: PlanNode, batch: ColumnBatch): unknown[] {
  const name = root.schema[0]?.name;
  const column = name === undefined ? undefined : batch.columns.get(name);
  if (!column) return [];
  const out = new Set<unknown>();
  for (let i = 0; i < batch.length; i++) {
    const v = valueAt(column, i);
    if (v !== null && v !== undefined) out.add(v);
  }
  return [...out];
}

/** The dataset list patterns expand against; only fetched when the query has a pattern. */
async function datasetNamesFor(query: Query, options: RunAplOptions): Promise<readonly string[] | undefined> {
  if (options.datasetNames) return options.datasetNames;
  if (!hasDatasetPattern(query)) return undefined;
  return (await options.catalog.listDatasets?.()) ?? [];
}

/** Parses and statically checks a query (no schemas: unknown fields are accepted). Throws `invalid`. */
export function validateApl(text: string, options: ValidateAplOptions = {}): void {
  try {
    const query = parseAplCached(text);
    buildPlan(query, {
      startMs: 0,
      endMs: 1,
      nowMs: 0,
      lenientFields: true,
      checkRegex,
      virtualFields: virtualFieldResolver(options.virtualFields),
      datasetSchema: () => SYSTEM_FIELDS.map((f) => ({ ...f })),
    });
  } catch (err) {
    throw normalizeError(err, text, 'validation');
  }
}

/**
 * Dataset names the query reads (for access checks before running it). Name patterns (`union logs*`)
 * expand against `datasetNames` (pass the same list as `RunAplOptions.datasetNames`); without it a pattern
 * is returned as is. Throws `invalid` on syntax errors.
 */
export function referencedDatasets(text: string, datasetNames?: readonly string[]): string[] {
  try {
    return datasetsOfQuery(parseAplCached(text), datasetNames);
  } catch (err) {
    throw normalizeError(err, text, 'parse');
  }
}

/** The optimized plan as text (for debugging and `EXPLAIN`-like endpoints). */
export async function explainApl(text: string, options: RunAplOptions): Promise<string> {
  const query = parseAplCached(text);
  const schemas = new Map<string, Field[]>();
  const allNames = await datasetNamesFor(query, options);
  for (const name of datasetsOfQuery(query, allNames)) {
    const source = await options.catalog.getDataset(name);
    if (source)
      schemas.set(
        name,
        orderSchema((await source.schema()).map((f) => ({ name: f.name, type: aplTypeOfWire(f.type) }))),
      );
  }
  const built = buildPlan(query, {
    ...options,
    checkRegex,
    virtualFields: virtualFieldResolver(options.virtualFields),
    datasetNames: allNames,
    datasetSchema: (name, span) => {
      const s = schemas.get(name);
      if (!s) throw notFound(`dataset "${name}" not found`, { code: 'dataset_not_found', span });
      return s;
    },
  });
  return printPlan(optimize(built.root));
}
