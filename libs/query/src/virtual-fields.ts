/**
 * Virtual fields: named expressions stored per dataset that a query reads like columns. The facade parses
 * their text here; the binder (query-plan) adds them over the dataset's scan.
 */
import { parseAplExpression, parseApl } from '@quarry/apl';
import { isQuarryError } from '@quarry/common';
import { buildPlan, type VirtualFieldDefinition } from '@quarry/query-plan';

/** A virtual field as stored: its name and its APL expression text. */
export interface VirtualField {
  name: string;
  expression: string;
}

/** Synchronous lookup of a dataset's virtual fields (empty when it has none). */
export type VirtualFieldLookup = (dataset: string) => ReadonlyArray<VirtualField>;

/** Wraps a lookup so that each dataset's expressions are parsed once per query. */
export function virtualFieldResolver(
  lookup: VirtualFieldLookup | undefined,
): ((dataset: string) => VirtualFieldDefinition[]) | undefined {
  if (!lookup) return undefined;
  const cache = new Map<string, VirtualFieldDefinition[]>();
  return (dataset) => {
    let defs = cache.get(dataset);
    if (!defs) {
      defs = lookup(dataset).map(parseVirtualField);
      cache.set(dataset, defs);
    }
    return defs;
  };
}

function parseVirtualField(v: VirtualField): VirtualFieldDefinition {
  try {
    return { name: v.name, expr: parseAplExpression(v.expression) };
  } catch (err) {
    if (isQuarryError(err) && err.kind === 'invalid') return { name: v.name, error: err.message };
    throw err;
  }
}

/**
 * Checks a virtual field definition before it is stored: the expression must parse and bind (unknown
 * functions, arity and types are checked; fields are not, since the dataset's schema may grow).
 * Throws `invalid` (`apl_virtual_field_invalid`).
 */
export function validateVirtualField(dataset: string, field: VirtualField): void {
  buildPlan(parseApl(`['${dataset.replace(/'/g, "\\'")}']`), {
    startMs: 0,
    endMs: 1,
    nowMs: 0,
    datasetSchema: () => [
      { name: '_sysTime', type: 'datetime' },
      { name: '_time', type: 'datetime' },
    ],
    virtualFields: virtualFieldResolver(() => [field]),
  });
}
