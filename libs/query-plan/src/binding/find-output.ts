/**
 * The output schema of Kusto's `find` (its page, "Output schema"): which tables take part, which columns
 * come out as themselves and which are packed into the `pack_` property bag.
 */
import { aplError, type FindProjection } from '@quarry/apl';
import { hasField } from '../nodes/plan-node';
import type { AplType, Field } from '../types';

/** The property bag of the columns `find` does not name (the page's examples call it `pack_`). */
export const FIND_PACK_COLUMN = 'pack_';

export interface FindOutput {
  /** The columns in output order after the source column, each with its output type. */
  columns: { name: string; type: AplType; cast: boolean }[];
  /** The columns packed into `pack_` (none: no `pack_` column). */
  packed: string[];
}

/**
 * Which tables `find` searches: those with at least one column the predicate reads ("Source tables that
 * don't contain any column used by the predicate evaluation will be filtered out"). A predicate that
 * reads every column (a bare term, `* has`) or none keeps them all; so does one no table has a column of.
 */
export function findTablesKept(
  schemas: readonly Field[][],
  predicateColumns: ReadonlySet<string>,
  readsEveryColumn: boolean,
): boolean[] {
  if (readsEveryColumn || predicateColumns.size === 0) return schemas.map(() => true);
  const kept = schemas.map((schema) => [...predicateColumns].some((c) => hasField(schema, c)));
  return kept.some(Boolean) ? kept : schemas.map(() => true);
}

/**
 * The output columns of `find` over tables of `schemas` (their union is `unionSchema`, the source column
 * left out):
 * - `project-smart`: the predicate's columns and those every table has, in the union's order; the rest
 *   packed;
 * - `project Col[:type], …`: the listed columns (a type casts the output, not the predicate's view of
 *   it), and with `pack_all()` every other column packed. A column no table has needs a type: it is then
 *   all null. Where schemas are unknown (`lenient`: a query checked before it runs) such a column is
 *   dynamic.
 */
export function findOutput(
  projection: FindProjection,
  schemas: readonly Field[][],
  unionSchema: readonly Field[],
  predicateColumns: ReadonlySet<string>,
  lenient = false,
): FindOutput {
  if (projection.kind === 'smart') {
    const shown = (f: Field) => predicateColumns.has(f.name) || schemas.every((s) => hasField(s, f.name));
    return {
      columns: unionSchema.filter(shown).map((f) => ({ name: f.name, type: f.type, cast: false })),
      packed: unionSchema.filter((f) => !shown(f)).map((f) => f.name),
    };
  }
  const columns = projection.columns.map((c) => {
    const known = unionSchema.find((f) => f.name === c.name);
    if (!known && !c.type && lenient) return { name: c.name, type: 'dynamic' as const, cast: false };
    if (!known && !c.type) {
      throw aplError(
        'apl_invalid_argument',
        {
          name: 'find',
          reason: `no table searched has a column '${c.name}': give it a type (${c.name}: string) to project it as null`,
        },
        c.span,
      );
    }
    return {
      name: c.name,
      type: c.type ?? known!.type,
      cast: c.type !== undefined && c.type !== known?.type,
    };
  });
  const listed = new Set(columns.map((c) => c.name));
  return {
    columns,
    packed: projection.packAll ? unionSchema.filter((f) => !listed.has(f.name)).map((f) => f.name) : [],
  };
}
