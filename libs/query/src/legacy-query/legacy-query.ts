import { invalid, parseGoDurationMs } from '@quarry/common';

/**
 * The legacy structured query of `POST /v1/datasets/{dataset}/query` (api.md §4.2, v1.json
 * `QueryRequestWithOptions`), validated. Times are resolved by the caller; this is the rest.
 */
export interface LegacyQuery {
  /** `auto`, or a bucket width in milliseconds. */
  resolution: 'auto' | number;
  aggregations: LegacyAggregation[];
  groupBy: string[];
  /** Absent: every row. */
  filter?: LegacyFilter;
  order: { field: string; desc: boolean }[];
  /** Absent: the default limit (1000). */
  limit?: number;
  virtualFields: { alias: string; expr: string }[];
  project: { field: string; alias?: string }[];
  cursor?: string;
  includeCursor: boolean;
}

export const AGGREGATION_OPS = [
  'count',
  'distinct',
  'sum',
  'avg',
  'min',
  'max',
  'topk',
  'percentiles',
  'histogram',
  'stdev',
  'variance',
  'argmin',
  'argmax',
  'makeset',
  'makelist',
  'rate',
  'countif',
  'distinctif',
  'makesetif',
] as const;
export type AggregationOp = (typeof AGGREGATION_OPS)[number];

export interface LegacyAggregation {
  op: AggregationOp;
  field: string;
  alias?: string;
  argument?: unknown;
}

/** Filter ops with their spelling variants folded (`eq` and `==` are both `==`). */
export const FILTER_OPS = {
  and: 'and',
  or: 'or',
  not: 'not',
  '==': '==',
  eq: '==',
  '!=': '!=',
  ne: '!=',
  exists: 'exists',
  'not-exists': 'not-exists',
  '>': '>',
  gt: '>',
  '>=': '>=',
  gte: '>=',
  '<': '<',
  lt: '<',
  '<=': '<=',
  lte: '<=',
  'starts-with': 'starts-with',
  'not-starts-with': 'not-starts-with',
  'ends-with': 'ends-with',
  'not-ends-with': 'not-ends-with',
  contains: 'contains',
  'not-contains': 'not-contains',
  regexp: 'regexp',
  'not-regexp': 'not-regexp',
} as const;
export type FilterOp = (typeof FILTER_OPS)[keyof typeof FILTER_OPS];

export interface LegacyFilter {
  op: FilterOp;
  field: string;
  value: string | number | boolean | null;
  caseSensitive: boolean;
  children: LegacyFilter[];
}

export const DEFAULT_LEGACY_LIMIT = 1000;
export const MAX_LEGACY_LIMIT = 50_000;

type Json = Record<string, unknown>;

/** A 400 that says which member of the body is wrong (`aggregations[1].op`) and how. */
function bad(path: string, problem: string): never {
  throw invalid(`legacy query: ${path} ${problem}`, { code: 'legacy_query_invalid', details: { path } });
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** An optional array member: absent and `null` (Go's unset slices) are empty. */
function arrayOf(body: Json, key: string): unknown[] {
  const value = body[key];
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) bad(key, `must be an array, not ${typeName(value)}`);
  return value;
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function requiredString(value: unknown, path: string): string {
  if (typeof value !== 'string' || value === '') bad(path, 'is required and must be a non-empty string');
  return value;
}

function optionalString(value: unknown, path: string): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') bad(path, `must be a string, not ${typeName(value)}`);
  return value;
}

/**
 * Validates everything but the time bounds. Unknown members are ignored (as Axiom does with
 * `queryOptions`); `continuationToken` is accepted and has no effect: Quarry's answers are never partial.
 */
export function parseLegacyQuery(body: unknown): LegacyQuery {
  if (!isObject(body)) bad('body', 'must be a JSON object');
  const limit = parseLimit(body.limit);
  const includeCursor = body.includeCursor ?? false;
  if (typeof includeCursor !== 'boolean') bad('includeCursor', 'must be a boolean');
  return {
    resolution: parseResolution(body.resolution),
    aggregations: arrayOf(body, 'aggregations').map((a, i) => parseAggregation(a, `aggregations[${i}]`)),
    groupBy: arrayOf(body, 'groupBy').map((g, i) => requiredString(g, `groupBy[${i}]`)),
    filter: parseTopFilter(body.filter),
    order: arrayOf(body, 'order').map((o, i) => {
      if (!isObject(o)) bad(`order[${i}]`, 'must be an object {field, desc}');
      const desc = o.desc ?? false;
      if (typeof desc !== 'boolean') bad(`order[${i}].desc`, 'must be a boolean');
      return { field: requiredString(o.field, `order[${i}].field`), desc };
    }),
    limit,
    virtualFields: arrayOf(body, 'virtualFields').map((v, i) => {
      if (!isObject(v)) bad(`virtualFields[${i}]`, 'must be an object {alias, expr}');
      return {
        alias: requiredString(v.alias, `virtualFields[${i}].alias`),
        // Go's client names the member `expression` in its struct but sends `expr`; accept both.
        expr: requiredString(v.expr ?? v.expression, `virtualFields[${i}].expr`),
      };
    }),
    project: arrayOf(body, 'project').map((p, i) => {
      if (!isObject(p)) bad(`project[${i}]`, 'must be an object {field, alias}');
      return {
        field: requiredString(p.field, `project[${i}].field`),
        alias: optionalString(p.alias, `project[${i}].alias`),
      };
    }),
    cursor: optionalString(body.cursor, 'cursor'),
    includeCursor,
  };
}

function parseLimit(value: unknown): number | undefined {
  // Go sends 0 for "unset".
  if (value === undefined || value === null || value === 0) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_LEGACY_LIMIT) {
    bad(
      'limit',
      `must be an integer from 0 to ${MAX_LEGACY_LIMIT} (0 = the default ${DEFAULT_LEGACY_LIMIT})`,
    );
  }
  return value;
}

/**
 * `auto` (also empty, as Go sends for 0), a Go duration (`1m0s`, `30s`, `1h30m`) or a number of seconds
 * (`"60"`, `60`: the spec says "in seconds").
 */
export function parseResolution(value: unknown): 'auto' | number {
  if (value === undefined || value === null || value === '' || value === 'auto' || value === 0) return 'auto';
  if (typeof value === 'number' && value > 0) return value * 1000;
  if (typeof value === 'string') {
    if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 1000;
    const ms = parseGoDurationMs(value);
    if (ms !== null && ms >= 1) return Math.round(ms);
  }
  return bad(
    'resolution',
    `${JSON.stringify(value)} is not "auto", a duration like "1m0s" or a number of seconds (at least 1ms)`,
  );
}

function parseAggregation(value: unknown, path: string): LegacyAggregation {
  if (!isObject(value)) bad(path, 'must be an object {op, field, alias, argument}');
  const op = value.op;
  if (typeof op !== 'string' || !(AGGREGATION_OPS as readonly string[]).includes(op)) {
    bad(`${path}.op`, `${JSON.stringify(op)} is not one of ${AGGREGATION_OPS.join(', ')}`);
  }
  // `count` and `countif` need no field; clients send "*" or "".
  const field =
    op === 'count' || op === 'countif'
      ? (optionalString(value.field, `${path}.field`) ?? '*')
      : requiredString(value.field, `${path}.field`);
  return {
    op: op as AggregationOp,
    field,
    alias: optionalString(value.alias, `${path}.alias`),
    argument: value.argument ?? undefined,
  };
}

/** The top-level filter: absent, `null`, `{}` or op `""` (Go always sends one) mean "every row". */
function parseTopFilter(value: unknown): LegacyFilter | undefined {
  if (value === undefined || value === null) return undefined;
  if (isObject(value) && (value.op === undefined || value.op === '') && !hasChildren(value)) return undefined;
  return parseFilter(value, 'filter');
}

const hasChildren = (f: Json) => Array.isArray(f.children) && f.children.length > 0;

export function parseFilter(value: unknown, path: string): LegacyFilter {
  if (!isObject(value)) bad(path, 'must be a filter object {op, field, value, caseSensitive, children}');
  const op = FILTER_OPS[value.op as keyof typeof FILTER_OPS];
  if (typeof value.op !== 'string' || op === undefined) {
    bad(`${path}.op`, `${JSON.stringify(value.op)} is not one of ${Object.keys(FILTER_OPS).join(', ')}`);
  }
  const children = (value.children ?? []) as unknown;
  if (!Array.isArray(children)) bad(`${path}.children`, 'must be an array of filters');
  const caseSensitive = value.caseSensitive ?? false;
  if (typeof caseSensitive !== 'boolean') bad(`${path}.caseSensitive`, 'must be a boolean');
  const isBoolean = op === 'and' || op === 'or' || op === 'not';
  const field = isBoolean ? '' : requiredString(value.field, `${path}.field`);
  const raw = value.value ?? null;
  if (raw !== null && !['string', 'number', 'boolean'].includes(typeof raw)) {
    bad(`${path}.value`, `must be a string, number, boolean or null, not ${typeName(raw)}`);
  }
  const filter: LegacyFilter = {
    op,
    field,
    value: raw as LegacyFilter['value'],
    caseSensitive,
    children: children.map((c, i) => parseFilter(c, `${path}.children[${i}]`)),
  };
  checkValue(filter, path);
  return filter;
}

function checkValue(f: LegacyFilter, path: string): void {
  if ((f.field === '_time' || f.field === '_sysTime') && typeof f.value === 'string') {
    if (Number.isNaN(Date.parse(f.value))) bad(`${path}.value`, `"${f.value}" is not an RFC 3339 time`);
  }
  switch (f.op) {
    case '>':
    case '>=':
    case '<':
    case '<=':
      if (typeof f.value !== 'number' && typeof f.value !== 'string') {
        bad(`${path}.value`, `must be a number (or a time string) for op "${f.op}"`);
      }
      return;
    case 'starts-with':
    case 'not-starts-with':
    case 'ends-with':
    case 'not-ends-with':
    case 'contains':
    case 'not-contains':
    case 'regexp':
    case 'not-regexp':
      if (f.value === null || typeof f.value === 'boolean') {
        bad(`${path}.value`, `must be a string for op "${f.op}"`);
      }
      return;
    default:
      return;
  }
}
