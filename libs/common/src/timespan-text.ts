/**
 * Kusto's text of a timespan held as milliseconds, `[-][d.]hh:mm:ss[.fffffff]` (`1.00:00:00`,
 * `00:00:01.5000000`). One implementation for the parser (a timespan inside a `dynamic(...)` literal)
 * and the executor (`tostring`, `pack_array(1d)`, result tables), so the two texts cannot drift.
 */
export function formatTimespan(ms: number): string {
  const neg = ms < 0;
  let rest = Math.abs(ms);
  const days = Math.floor(rest / 86_400_000);
  rest -= days * 86_400_000;
  const h = Math.floor(rest / 3_600_000);
  rest -= h * 3_600_000;
  const m = Math.floor(rest / 60_000);
  rest -= m * 60_000;
  const s = Math.floor(rest / 1000);
  rest -= s * 1000;
  const ticks = Math.round(rest * 10_000);
  const pad = (x: number, w = 2) => String(x).padStart(w, '0');
  let text = `${neg ? '-' : ''}${days ? days + '.' : ''}${pad(h)}:${pad(m)}:${pad(s)}`;
  if (ticks) text += '.' + pad(ticks, 7);
  return text;
}
