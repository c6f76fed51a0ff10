/** Go's duration units (`time.ParseDuration`), in milliseconds. */
const UNIT_MS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};
const PART = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/y;

export type DurationParse = { ok: true; ms: number } | { ok: false; message: string };

/**
 * Parses a positive Go-style duration (`30s`, `5m`, `1h30m`, `1.5h`, `250ms`), as operator settings such
 * as `QUARRY_OPERATOR_RESYNC` are written. Returns the problem as a value so a config loader can list
 * every bad variable at once; `name` is the setting the message names.
 */
export function parseDuration(text: string, name = 'duration'): DurationParse {
  const trimmed = text.trim();
  let total = 0;
  let parts = 0;
  PART.lastIndex = 0;
  while (PART.lastIndex < trimmed.length) {
    const at = PART.lastIndex;
    const match = PART.exec(trimmed);
    if (!match || match.index !== at) {
      parts = 0;
      break;
    }
    total += Number(match[1]) * UNIT_MS[match[2]];
    parts += 1;
  }
  if (parts === 0 || !(total > 0)) {
    return {
      ok: false,
      message: `${name}: must be a positive duration like "30s", "5m" or "1h30m", got ${JSON.stringify(text)}`,
    };
  }
  return { ok: true, ms: total };
}
