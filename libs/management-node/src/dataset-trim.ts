import { invalid, parseGoDurationMs } from '@quarry/common';
import type { BlockRecord } from '@quarry/contracts';

/**
 * Parses a Go duration as clients send it for trim (`1h`, `1h0m0s`, `90m`, `1.5h`); throws `invalid`
 * naming `where`. Negative and zero durations are refused: trimming everything is dataset deletion.
 */
export function parseGoDuration(text: string, where = 'maxDuration'): number {
  const total = parseGoDurationMs(text);
  if (total === null || !(total > 0)) {
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
