/**
 * A TypeScript port of test/conformance/apl/compare.mjs (columns by name, rows as multisets unless
 * ordered, RFC 3339 instants compared as instants, numbers within a relative tolerance).
 */
import type { ResultTable } from '@quarry/contracts';

const TS_RE = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/;

function tsNanos(s: string): bigint | null {
  const m = TS_RE.exec(s);
  if (!m) return null;
  const [, y, mo, d, h, mi, se, frac = '', zone] = m;
  let ms = Date.UTC(+y, +mo - 1, +d, +h, +mi, +se);
  if (zone !== 'Z') {
    const sign = zone[0] === '-' ? -1 : 1;
    const [zh, zm] = zone.slice(1).split(':').map(Number);
    ms -= sign * (zh * 60 + zm) * 60000;
  }
  return BigInt(ms) * 1000000n + BigInt((frac + '000000000').slice(0, 9));
}

export function valuesEqual(e: unknown, a: unknown, tol = 1e-9): boolean {
  if (e === undefined) e = null;
  if (a === undefined) a = null;
  if (e === null || a === null) return e === a;
  if (typeof e === 'number') {
    if (typeof a !== 'number') return false;
    const scale = Math.max(Math.abs(e), 1e-300);
    return Math.abs(e - a) <= Math.max(tol * scale, 1e-9 * Math.max(1, Math.abs(e)));
  }
  if (typeof e === 'string') {
    if (typeof a !== 'string') return false;
    if (e === a) return true;
    const te = tsNanos(e);
    const ta = te === null ? null : tsNanos(a);
    return te !== null && ta !== null && te === ta;
  }
  if (typeof e === 'boolean') return e === a;
  if (Array.isArray(e))
    return Array.isArray(a) && a.length === e.length && e.every((x, i) => valuesEqual(x, a[i], tol));
  if (typeof e === 'object') {
    if (typeof a !== 'object' || Array.isArray(a)) return false;
    const ke = Object.keys(e as object).sort();
    const ka = Object.keys(a as object).sort();
    return (
      ke.length === ka.length &&
      ke.every(
        (k, i) =>
          k === ka[i] &&
          valuesEqual((e as Record<string, unknown>)[k], (a as Record<string, unknown>)[k], tol),
      )
    );
  }
  return false;
}

export interface SimpleResult {
  columns: string[];
  rows: unknown[][];
}

export function tabularToResult(table: ResultTable): SimpleResult {
  const columns = table.fields.map((f) => f.name);
  const cols = table.columns;
  const n = cols.length ? Math.max(...cols.map((c) => (c ? c.length : 0))) : 0;
  const rows: unknown[][] = [];
  for (let i = 0; i < n; i++) rows.push(columns.map((_, j) => (cols[j] ? cols[j][i] : null)));
  return { columns, rows };
}

export interface Expectation {
  columns: string[];
  rows: unknown[][];
  ordered?: boolean;
  columnsOrdered?: boolean;
}

export function compareResult(
  expect: Expectation,
  actual: SimpleResult,
  tol = 1e-9,
): { ok: boolean; reason?: string } {
  const ec = expect.columns;
  const ac = actual.columns;
  if (expect.columnsOrdered) {
    if (ec.length !== ac.length || ec.some((c, i) => c !== ac[i]))
      return {
        ok: false,
        reason: `columns ${JSON.stringify(ac)} != expected ${JSON.stringify(ec)} (ordered)`,
      };
  } else {
    const se = [...ec].sort();
    const sa = [...ac].sort();
    if (se.length !== sa.length || se.some((c, i) => c !== sa[i]))
      return { ok: false, reason: `columns ${JSON.stringify(ac)} != expected ${JSON.stringify(ec)}` };
  }
  const idx = ec.map((c) => ac.indexOf(c));
  const arows = actual.rows.map((r) => idx.map((j) => (r[j] === undefined ? null : r[j])));
  const erows = expect.rows;
  if (arows.length !== erows.length)
    return { ok: false, reason: `row count ${arows.length} != expected ${erows.length}` };
  const rowEq = (er: unknown[], ar: unknown[]) => er.every((v, k) => valuesEqual(v, ar[k], tol));
  if (expect.ordered) {
    for (let i = 0; i < erows.length; i++) {
      if (!rowEq(erows[i], arows[i]))
        return {
          ok: false,
          reason: `row ${i}: got ${JSON.stringify(arows[i])}, expected ${JSON.stringify(erows[i])}`,
        };
    }
    return { ok: true };
  }
  const used = new Array(arows.length).fill(false);
  for (const er of erows) {
    let found = -1;
    for (let i = 0; i < arows.length; i++) {
      if (!used[i] && rowEq(er, arows[i])) {
        found = i;
        break;
      }
    }
    if (found < 0) return { ok: false, reason: `expected row not found: ${JSON.stringify(er)}` };
    used[found] = true;
  }
  return { ok: true };
}
