import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  AGGREGATE_SIGNATURES,
  INTERNAL_FUNCTIONS,
  SCALAR_SIGNATURES,
  WINDOW_SIGNATURES,
} from '@quarry/query-plan';
// The console is a browser app, not a package tests import by name; this check reads its word lists.
// eslint-disable-next-line no-restricted-imports
import { AGGREGATIONS, FUNCTIONS, SCALAR_FUNCTIONS } from '../../apps/console/src/apl/apl-words';

/**
 * The console highlights and completes APL from its own copy of the server's function names (it never
 * imports server code): `apps/console/src/apl/apl-function-names.ts` is generated from the planner's
 * signature tables and must not drift from them. `UPDATE_GOLDEN=1` rewrites it.
 */
const FILE = path.join(__dirname, '..', '..', 'apps', 'console', 'src', 'apl', 'apl-function-names.ts');

function generated(): string {
  const names = (...maps: ReadonlyMap<string, unknown>[]) =>
    maps.flatMap((m) => [...m.keys()].filter((n) => !INTERNAL_FUNCTIONS.has(n))).sort();
  const list = (items: string[]) => items.map((n) => `  '${n}',`).join('\n');
  return `// Generated from the planner's signature tables by test/architecture/console-apl-words.test.ts
// (UPDATE_GOLDEN=1 rewrites it); do not edit by hand.

/** Every aggregation the server knows. */
export const SERVER_AGGREGATIONS: readonly string[] = [
${list(names(AGGREGATE_SIGNATURES))}
];

/** Every scalar and window function the server knows (aliases included). */
export const SERVER_SCALAR_FUNCTIONS: readonly string[] = [
${list(names(SCALAR_SIGNATURES, WINDOW_SIGNATURES))}
];
`;
}

describe("the console's APL words", () => {
  it('list every function the server knows (apps/console/src/apl/apl-function-names.ts is current)', () => {
    const expected = generated();
    if (process.env.UPDATE_GOLDEN === '1') fs.writeFileSync(FILE, expected);
    expect(fs.readFileSync(FILE, 'utf8')).toBe(expected);
  });

  it('name no function the server does not know, and offer every one', () => {
    expect(AGGREGATIONS.filter((f) => !AGGREGATE_SIGNATURES.has(f))).toEqual([]);
    // Typed literals (`datetime(…)`) are parsed, not called, but the console colours them as functions.
    const literals = new Set(['datetime', 'dynamic', 'timespan']);
    expect(
      SCALAR_FUNCTIONS.filter(
        (f) => !SCALAR_SIGNATURES.has(f) && !WINDOW_SIGNATURES.has(f) && !literals.has(f),
      ),
    ).toEqual([]);
    const offered = new Set(FUNCTIONS);
    const known = [AGGREGATE_SIGNATURES, SCALAR_SIGNATURES, WINDOW_SIGNATURES].flatMap((m) => [...m.keys()]);
    expect(known.filter((f) => !INTERNAL_FUNCTIONS.has(f) && !offered.has(f))).toEqual([]);
    expect(FUNCTIONS).toEqual(expect.arrayContaining(['geo_point_in_polygon', 'bin_at', 'row_cumsum']));
  });
});
