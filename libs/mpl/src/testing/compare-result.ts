/**
 * A TypeScript port of test/conformance/mpl/compare.mjs (`compareCase`, non-strict grid): series
 * matched as a multiset keyed by tag map (null tags = absent), each reduced to its resolution and the
 * set of (timestamp, non-null value) pairs; values equal within tolerance.
 */
export interface CaseSeries {
  metric?: string;
  tags?: Record<string, unknown>;
  start: number;
  resolution: number;
  data: (number | null)[];
}

export interface ConformanceCase {
  id: string;
  mpl: string;
  startTime: string;
  endTime: string;
  params?: Record<string, string>;
  tolerance?: number;
  expect: { error?: boolean; match?: 'tags'; series?: CaseSeries[] };
}

const DEFAULT_TOL = 1e-9;

export function numbersClose(e: number, a: number, tol = DEFAULT_TOL): boolean {
  if (e === a) return true;
  const d = Math.abs(e - a);
  return d <= tol * Math.max(Math.abs(e), Math.abs(a)) || d <= 1e-12;
}

function canonTags(tags: Record<string, unknown> | undefined): string {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(tags ?? {}).sort()) {
    const v = tags![k];
    if (v !== null && v !== undefined) out[k] = v;
  }
  return JSON.stringify(out);
}

function valuesOf(s: CaseSeries): Map<number, number> {
  const m = new Map<number, number>();
  s.data.forEach((v, i) => {
    if (v !== null && v !== undefined) m.set(Number(s.start) + i * Number(s.resolution), v);
  });
  return m;
}

function compareOne(key: string, e: CaseSeries, a: CaseSeries, tol: number): string | null {
  if (e.metric !== undefined && a.metric !== e.metric)
    return `${key}: metric ${a.metric} != expected ${e.metric}`;
  if (Number(a.resolution) !== e.resolution)
    return `${key}: resolution ${a.resolution} != expected ${e.resolution}`;
  const ev = valuesOf(e);
  const av = valuesOf(a);
  for (const [t, x] of ev) {
    if (!av.has(t)) return `${key} @${t}: expected ${x}, got no value`;
    if (!numbersClose(x, av.get(t)!, tol)) return `${key} @${t}: expected ${x}, got ${av.get(t)}`;
  }
  for (const [t, y] of av) if (!ev.has(t)) return `${key} @${t}: expected no value, got ${y}`;
  return null;
}

export function compareCase(
  c: ConformanceCase,
  status: number,
  series: CaseSeries[] | undefined,
): { ok: boolean; reason?: string } {
  if (c.expect.error)
    return status === 400 ? { ok: true } : { ok: false, reason: `expected HTTP 400, got ${status}` };
  if (status !== 200 || !series) return { ok: false, reason: `HTTP ${status}` };
  const tol = c.tolerance ?? DEFAULT_TOL;
  const expected = c.expect.series ?? [];
  if (c.expect.match === 'tags') {
    const count = (list: CaseSeries[]) => {
      const m = new Map<string, number>();
      for (const s of list) m.set(canonTags(s.tags), (m.get(canonTags(s.tags)) ?? 0) + 1);
      return m;
    };
    const em = count(expected);
    const am = count(series);
    for (const [k, n] of em)
      if ((am.get(k) ?? 0) !== n)
        return { ok: false, reason: `series ${k}: expected ${n}, got ${am.get(k) ?? 0}` };
    for (const k of am.keys()) if (!em.has(k)) return { ok: false, reason: `unexpected series ${k}` };
    return { ok: true };
  }
  const hasValue = (s: CaseSeries) => s.data.some((v) => v !== null && v !== undefined);
  const group = (list: CaseSeries[]) => {
    const m = new Map<string, CaseSeries[]>();
    for (const s of list.filter(hasValue)) m.set(canonTags(s.tags), [...(m.get(canonTags(s.tags)) ?? []), s]);
    return m;
  };
  const eg = group(expected);
  const ag = group(series);
  for (const [k, list] of ag) {
    if (list.length > 1) return { ok: false, reason: `${list.length} series share the tags ${k}` };
    if (!eg.has(k)) return { ok: false, reason: `unexpected series ${k}` };
  }
  for (const [k, [e]] of eg) {
    if (!ag.has(k)) return { ok: false, reason: `missing series ${k}` };
    const why = compareOne(k, e, ag.get(k)![0], tol);
    if (why) return { ok: false, reason: why };
  }
  return { ok: true };
}
