/**
 * The Query page's state in the URL, as plain URL-encoded parameters so a link reproduces the query:
 * `apl=<query>` and the time range as `t_qr=<quick range>` (`1h`, `15m`, `7d`, as dashboards' `t_qr`)
 * or `t_ts=<ISO start>&t_te=<ISO end>` for an absolute range.
 */
export type TimeRange = { kind: 'quick'; span: string } | { kind: 'absolute'; start: string; end: string };

export interface QueryState {
  apl: string;
  range: TimeRange;
}

/** The quick ranges the time picker offers; the default is the first (at least one hour, as the contract asks). */
export const QUICK_RANGES: readonly { span: string; label: string }[] = [
  { span: '1h', label: 'Last 1 hour' },
  { span: '15m', label: 'Last 15 minutes' },
  { span: '30m', label: 'Last 30 minutes' },
  { span: '6h', label: 'Last 6 hours' },
  { span: '12h', label: 'Last 12 hours' },
  { span: '1d', label: 'Last 1 day' },
  { span: '7d', label: 'Last 7 days' },
  { span: '30d', label: 'Last 30 days' },
  { span: '90d', label: 'Last 90 days' },
];

export const DEFAULT_RANGE: TimeRange = { kind: 'quick', span: '1h' };

const SPAN = /^(\d+)(m|h|d)$/;

export function parseQueryState(search: string): QueryState {
  const params = new URLSearchParams(search);
  const apl = params.get('apl') ?? '';
  const qr = params.get('t_qr');
  const ts = params.get('t_ts');
  const te = params.get('t_te');
  let range: TimeRange = DEFAULT_RANGE;
  if (ts && te && !Number.isNaN(Date.parse(ts)) && !Number.isNaN(Date.parse(te))) {
    range = { kind: 'absolute', start: ts, end: te };
  } else if (qr && SPAN.test(qr)) {
    range = { kind: 'quick', span: qr };
  }
  return { apl, range };
}

/** The search string (with `?`, or empty) for a state; other parameters of `keep` survive. */
export function formatQueryState(state: QueryState, keep = ''): string {
  const params = new URLSearchParams(keep);
  for (const key of ['apl', 't_qr', 't_ts', 't_te']) params.delete(key);
  if (state.apl) params.set('apl', state.apl);
  if (state.range.kind === 'quick') params.set('t_qr', state.range.span);
  else {
    params.set('t_ts', state.range.start);
    params.set('t_te', state.range.end);
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The range as the APL endpoint's startTime/endTime (`now-1h`/`now`, or the absolute instants). */
export function rangeToApi(range: TimeRange): { startTime: string; endTime: string } {
  if (range.kind === 'quick') return { startTime: `now-${range.span}`, endTime: 'now' };
  return { startTime: range.start, endTime: range.end };
}

export function spanMs(span: string): number {
  const m = SPAN.exec(span);
  if (!m) return 3_600_000;
  const n = Number(m[1]);
  return n * (m[2] === 'm' ? 60_000 : m[2] === 'h' ? 3_600_000 : 86_400_000);
}

export function rangeLabel(range: TimeRange): string {
  if (range.kind === 'absolute') return `${range.start} – ${range.end}`;
  return QUICK_RANGES.find((r) => r.span === range.span)?.label ?? `Last ${range.span}`;
}
