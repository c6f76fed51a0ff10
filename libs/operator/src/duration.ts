/**
 * Go-style duration strings (`10s`, `5m`, `720h`, `1h30m`, `250ms`), the form CRD fields and operator
 * flags use (k8s.md §1). Returns milliseconds, or `undefined` for text that is not a duration, so callers
 * can turn a bad value into an `InvalidSpec` condition instead of a crash.
 */
import { parseDuration as parseKubeDuration } from '@quarry/k8s-kit';

export function parseDuration(text: string): number | undefined {
  // Zero is a duration to Go (a ttl of "0s" is refused by the CRD, not here); the kit takes positive ones.
  if (/^0+(?:ns|us|µs|ms|s|m|h)?$/.test(text)) return 0;
  if (text !== text.trim()) return undefined;
  const parsed = parseKubeDuration(text);
  return parsed.ok ? Math.round(parsed.ms) : undefined;
}

/** Go's rendering of whole-second durations (`1h0m0s`), for messages. */
export function formatDuration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  if (h > 0) return `${h}h${m}m${s}s`;
  if (m > 0) return `${m}m${s}s`;
  return `${s}s`;
}
