/**
 * Row ids of legacy results (`matches[]._rowId`, `status.minCursor`/`maxCursor`, the `cursor` request
 * member). Quarry keeps no per-row id in storage, so the id is derived from the row itself:
 * `<_time µs>-<_sysTime µs>-<hash of the other fields>`, the times in fixed-width base 36. The same row
 * gets the same id in every answer, and ids sort like `_time` (which is what a cursor needs).
 */
const WIDTH = 11; // 36^11 µs is about 4,200 years past 1970

export function rowIdOf(timeMs: number, sysTimeMs: number, data: Record<string, unknown>): string {
  return `${base36(timeMs)}-${base36(sysTimeMs)}-${fnv1a(stableJson(data))}`;
}

/** The `_time` (epoch ms, to the µs) a row id names, or null when the text is no row id of ours. */
export function timeOfRowId(id: string): number | null {
  const m = /^([0-9a-z]{11})-[0-9a-z]{11}-[0-9a-f]{8}$/.exec(id);
  return m ? parseInt(m[1], 36) / 1000 : null;
}

/** An RFC 3339 time as epoch ms with its fraction kept to the µs (Date.parse stops at the ms). */
export function timeMsOf(value: unknown): number {
  if (typeof value !== 'string') return NaN;
  const fraction = /\.(\d+)/.exec(value);
  const whole = Date.parse(fraction ? value.replace(fraction[0], '') : value);
  if (!fraction) return whole;
  return whole + Math.round(Number(`0.${fraction[1]}`) * 1e6) / 1000;
}

function base36(ms: number): string {
  const n = Number.isFinite(ms) && ms > 0 ? Math.round(ms * 1000) : 0;
  return n.toString(36).padStart(WIDTH, '0');
}

/** JSON with object keys sorted, so equal rows hash equally whatever their column order. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    return `{${Object.keys(obj)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson(obj[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

function fnv1a(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}
