import { formatRfc3339 } from '@quarry/common';

/**
 * Pieces of APL text for the legacy-query translation: every name is bracket-quoted and every value a
 * literal of its JSON type, so no user input is ever read as APL syntax.
 */

/** A string literal: `"..."` with `\` and `"` escaped and control characters as `\uXXXX`. */
export function stringLiteral(value: string): string {
  let out = '"';
  for (const ch of value) {
    const code = ch.charCodeAt(0);
    if (ch === '"' || ch === '\\') out += '\\' + ch;
    else if (code < 0x20) out += '\\u' + code.toString(16).padStart(4, '0');
    else out += ch;
  }
  return out + '"';
}

/** A column reference that works for any name (dotted flattened fields, spaces, quotes): `['a.b']`. */
export function fieldRef(name: string): string {
  return `[${stringLiteral(name)}]`;
}

/** A dataset reference (`['name']`). */
export const datasetRef = fieldRef;

/** A scalar JSON value (string, number, boolean, null) as an APL literal. */
export function valueLiteral(value: string | number | boolean | null): string {
  if (value === null) return 'dynamic(null)';
  if (typeof value === 'string') return stringLiteral(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (Number.isInteger(value)) return String(value);
  // `1e21` and friends: APL reals take the same exponent notation.
  return Number.isFinite(value) ? String(value) : 'real(null)';
}

/** A datetime literal for an instant in epoch milliseconds (fractions kept to the µs). */
export function datetimeLiteral(ms: number): string {
  return `datetime(${formatRfc3339(ms)})`;
}
