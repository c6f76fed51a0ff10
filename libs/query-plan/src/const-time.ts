/** Evaluates constant datetime/timespan expressions (`datetime(...) + 6h`, `now() - 1d`) at plan time. */
import type { PExpr } from './expr';

export function constantTime(e: PExpr): number | null {
  if (e.kind === 'lit') {
    if (
      (e.type === 'datetime' || e.type === 'timespan' || e.type === 'long' || e.type === 'real') &&
      typeof e.value === 'number'
    )
      return e.value;
    return null;
  }
  if (e.kind !== 'call') return null;
  if (e.fn === 'neg') {
    const v = constantTime(e.args[0]);
    return v === null ? null : -v;
  }
  if ((e.fn === '+' || e.fn === '-') && (e.type === 'datetime' || e.type === 'timespan')) {
    const a = constantTime(e.args[0]);
    const b = constantTime(e.args[1]);
    if (a === null || b === null) return null;
    return e.fn === '+' ? a + b : a - b;
  }
  return null;
}
