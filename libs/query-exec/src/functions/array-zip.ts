import type { ScalarImpl } from './scalar-impl';

/**
 * `zip(a1, a2, …)` (Kusto's zip-function page): an array whose i-th element holds the i-th element of
 * every input array, as long as the longest input; a shorter array contributes null. Any argument that is
 * not an array makes the result null.
 */
export function zipArrays(arrays: readonly unknown[][]): unknown[][] {
  let length = 0;
  for (const a of arrays) length = Math.max(length, a.length);
  const out: unknown[][] = [];
  for (let i = 0; i < length; i++) out.push(arrays.map((a) => (i < a.length ? (a[i] ?? null) : null)));
  return out;
}

export const ZIP_FUNCTIONS: Record<string, ScalarImpl> = {
  zip: (args) => {
    if (!args.every((a) => Array.isArray(a))) return null;
    return zipArrays(args as unknown[][]);
  },
};
