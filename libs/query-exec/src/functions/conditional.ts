import type { ScalarImpl } from './scalar-impl';
import { isNullish } from './scalar-impl';

function isEmptyValue(v: unknown): boolean {
  return isNullish(v) || v === '';
}

export const CONDITIONAL_FUNCTIONS: Record<string, ScalarImpl> = {
  iff: ([p, a, b]) => (p === true ? a : b),
  case: (args) => {
    const last = args.length - 1;
    for (let i = 0; i < last; i += 2) if (args[i] === true) return args[i + 1];
    return args[last];
  },
  coalesce: (args) => {
    for (const a of args) if (!isEmptyValue(a)) return a;
    return null;
  },
  not: ([v]) => (typeof v === 'boolean' ? !v : null),
  isnull: ([v]) => isNullish(v),
  isnotnull: ([v]) => !isNullish(v),
  isempty: ([v]) => isEmptyValue(v),
  isnotempty: ([v]) => !isEmptyValue(v),
};
