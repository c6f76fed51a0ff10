import { invalid } from '@quarry/common';
import type { BlockRecord } from '@quarry/contracts';

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

/**
 * Parses a Go duration as clients send it for trim (`1h`, `1h0m0s`, `90m`, `1.5h`); throws `invalid`
 * naming `where`. Negative and zero durations are refused: trimming everything is dataset deletion.
 */
export function parseGoDuration(text: string, where = 'maxDuration'): number {
  let total = 0;
  PART.lastIndex = 0;
  let parts = 0;
  while (PART.lastIndex < text.length) {
    const at = PART.lastIndex;
    const match = PART.exec(text);
    if (!match || match.index !== at) {
      parts = 0;
      break;
    }
    total += Number(match[1]) * UNIT_MS[match[2]];
    parts++;
  }
  if (parts === 0 || !(total > 0)) {
    throw invalid(
      `${where}: must be a positive duration like "1h", "30m" or "1h30m0s", got ${JSON.stringify(text)}`,
      {
        code: 'duration_invalid',
      },
    );
  }
  return total;
}

/**
 * Blocks a trim removes: those whose newest event is older than `cutoffMs`. A block that straddles the
 * cutoff is kept whole (its newer events must stay), so a trim removes at most what it was asked to.
 */
export function blocksToTrim(blocks: readonly BlockRecord[], cutoffMs: number): BlockRecord[] {
  return blocks.filter((block) => block.maxTime < cutoffMs);
}
