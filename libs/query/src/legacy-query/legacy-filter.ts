import { datetimeLiteral, fieldRef, stringLiteral, valueLiteral } from './apl-text';
import type { LegacyFilter } from './legacy-query';
import { timeMsOf } from './row-id';

/** Fields whose values are datetimes: a string compared with them is read as a time. */
const TIME_FIELDS = new Set(['_time', '_sysTime']);

/**
 * A legacy filter tree as an APL predicate. `caseSensitive: false` (the default, as Go's zero value sends
 * it) picks APL's case-insensitive operators (`=~`, `contains`, `startswith`…); `true` the `_cs` ones.
 * A leaf that also has children is ANDed with them (the Go client's own tests send such filters).
 */
export function filterToApl(filter: LegacyFilter): string {
  switch (filter.op) {
    case 'and':
      return joined(filter.children, 'and', 'true');
    case 'or':
      return joined(filter.children, 'or', 'false');
    case 'not':
      return `not(${joined(filter.children, 'and', 'true')})`;
    default: {
      const leaf = leafToApl(filter);
      return filter.children.length === 0 ? leaf : `${leaf} and ${joined(filter.children, 'and', 'true')}`;
    }
  }
}

function joined(children: LegacyFilter[], op: 'and' | 'or', empty: string): string {
  if (children.length === 0) return empty;
  if (children.length === 1) return filterToApl(children[0]);
  return children.map((c) => `(${filterToApl(c)})`).join(` ${op} `);
}

function leafToApl(f: LegacyFilter): string {
  const field = fieldRef(f.field);
  const text = stringLiteral(String(f.value));
  const cs = f.caseSensitive ? '_cs' : '';
  switch (f.op) {
    case '==':
      if (f.value === null) return `isnull(${field})`;
      if (typeof f.value === 'string' && !f.caseSensitive && !TIME_FIELDS.has(f.field)) {
        return `${field} =~ ${text}`;
      }
      return `${field} == ${operand(f)}`;
    case '!=':
      if (f.value === null) return `isnotnull(${field})`;
      if (typeof f.value === 'string' && !f.caseSensitive && !TIME_FIELDS.has(f.field)) {
        return `${field} !~ ${text}`;
      }
      return `${field} != ${operand(f)}`;
    case 'exists':
      return `isnotnull(${field})`;
    case 'not-exists':
      return `isnull(${field})`;
    case '>':
    case '>=':
    case '<':
    case '<=':
      return `${field} ${f.op} ${operand(f)}`;
    case 'starts-with':
      return `${field} startswith${cs} ${text}`;
    case 'not-starts-with':
      return `${field} !startswith${cs} ${text}`;
    case 'ends-with':
      return `${field} endswith${cs} ${text}`;
    case 'not-ends-with':
      return `${field} !endswith${cs} ${text}`;
    case 'contains':
      return `${field} contains${cs} ${text}`;
    case 'not-contains':
      return `${field} !contains${cs} ${text}`;
    case 'regexp':
      return `${field} matches regex ${text}`;
    case 'not-regexp':
      return `not(${field} matches regex ${text})`;
    default:
      // and/or/not are handled by filterToApl.
      throw new Error(`unreachable filter op ${f.op}`);
  }
}

/** The right-hand side of a comparison: a time field compares with a datetime, anything else as sent. */
function operand(f: LegacyFilter): string {
  if (TIME_FIELDS.has(f.field) && typeof f.value === 'string') return datetimeLiteral(timeMsOf(f.value));
  return valueLiteral(f.value);
}
