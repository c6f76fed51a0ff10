import type { BlockSummary, Column, ColumnBatch, ColumnSummary, FieldSchema } from '@quarry/contracts';
import { childrenOf, type PlanNode } from '@quarry/query-plan';

/**
 * Fields a dataset kind declares with a type its stored values do not carry: an OpenTelemetry trace
 * dataset's `duration` is stored as a number of nanoseconds (what the OTLP converter writes, and what
 * every block written before holds) but is a timespan to queries and to `GET /v2/datasets/{id}/fields`,
 * as in Axiom's otel:traces:v1 datasets. The type is applied when reading (schema, scan, block
 * statistics), so no block is rewritten.
 */
export const KIND_FIELD_TYPES: Readonly<Record<string, Readonly<Record<string, 'timespan'>>>> = {
  'otel:traces:v1': { duration: 'timespan' },
};

const NUMERIC_WIRE_TYPES = new Set(['integer', 'float']);

/** A number of nanoseconds as a timespan value (milliseconds, the engine's unit). */
export const NANOS_PER_MS = 1_000_000;

/**
 * `fields` with the types the dataset kind declares: a declared timespan field whose stored type is a
 * number (`integer`, `float`, or both) is listed as `timespan`; any other stored type (a string, a mix of
 * numbers and strings) stays as stored, and its values are read as they are.
 */
export function withKindFieldTypes<T extends FieldSchema>(
  fields: readonly T[],
  kind: string | undefined,
): T[] {
  const declared = kind === undefined ? undefined : KIND_FIELD_TYPES[kind];
  if (!declared) return [...fields];
  return fields.map((field) => {
    const type = declared[field.name];
    if (type === undefined) return field;
    const parts = field.type.split('|');
    return parts.every((p) => NUMERIC_WIRE_TYPES.has(p)) ? { ...field, type } : field;
  });
}

/** The fields of `fields` typed `timespan` that the dataset kind declares so (their numbers are nanoseconds). */
export function nanosTimespanFields(fields: readonly FieldSchema[], kind: string | undefined): Set<string> {
  const declared = kind === undefined ? undefined : KIND_FIELD_TYPES[kind];
  const out = new Set<string>();
  if (!declared) return out;
  for (const field of fields)
    if (declared[field.name] === 'timespan' && field.type === 'timespan') out.add(field.name);
  return out;
}

/**
 * The same for a scan bound elsewhere (a query worker's or another node's share, which only has the
 * plan): the fields the plan's scans of `dataset` type as timespan. Stored columns never have the kind
 * `timespan` (ingest builds none), so a number read for such a field is a kind-declared nanosecond count.
 */
export function nanosTimespanFieldsOfPlan(node: PlanNode, dataset: string): Set<string> {
  const out = new Set<string>();
  const visit = (n: PlanNode) => {
    if (n.kind === 'scan') {
      if (n.dataset === dataset) for (const f of n.schema) if (f.type === 'timespan') out.add(f.name);
      return;
    }
    childrenOf(n).forEach(visit);
  };
  visit(node);
  return out;
}

/** A stored number column of nanoseconds as a timespan column; any other column as it is. */
export function timespanFromNanos(column: Column): Column {
  if (column.kind !== 'long' && column.kind !== 'real') return column;
  const values = new Float64Array(column.values.length);
  for (let i = 0; i < values.length; i++) values[i] = column.values[i] / NANOS_PER_MS;
  return { kind: 'timespan', values, nulls: column.nulls };
}

/** `batch` with the `fields` columns read as timespans (the map is copied; other columns are shared). */
export function retypeBatch(batch: ColumnBatch, fields: ReadonlySet<string>): ColumnBatch {
  if (fields.size === 0) return batch;
  let columns: Map<string, Column> | null = null;
  for (const name of fields) {
    const column = batch.columns.get(name);
    if (!column || (column.kind !== 'long' && column.kind !== 'real')) continue;
    columns ??= new Map(batch.columns);
    columns.set(name, timespanFromNanos(column));
  }
  return columns ? { length: batch.length, columns } : batch;
}

/** Block statistics as the retyped columns see them (pruning compares them with timespan literals). */
export function retypeSummary(summary: BlockSummary, fields: ReadonlySet<string>): BlockSummary {
  if (fields.size === 0) return summary;
  return {
    rowCount: summary.rowCount,
    column(name: string): ColumnSummary | undefined {
      const column = summary.column(name);
      if (!column || !fields.has(name) || (column.kind !== 'long' && column.kind !== 'real')) return column;
      return {
        ...column,
        kind: 'timespan',
        min: typeof column.min === 'number' ? column.min / NANOS_PER_MS : column.min,
        max: typeof column.max === 'number' ? column.max / NANOS_PER_MS : column.max,
      };
    },
  };
}
