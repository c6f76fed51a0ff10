/**
 * Events built by a protocol adapter (HEC, OTLP) as the NDJSON body the ingest service reads: one JSON
 * object per line. Going through the same body as `/v1/ingest` keeps normalization, limits, durability
 * and region checks in one place.
 */
export function eventsToNdjson(events: readonly Record<string, unknown>[]): Buffer {
  const lines = new Array<string>(events.length);
  for (let i = 0; i < events.length; i++) lines[i] = JSON.stringify(events[i]);
  return Buffer.from(lines.join('\n'), 'utf8');
}

export const NDJSON = 'application/x-ndjson';

/**
 * The 0-based event of an ingest failure (`line 3: ...` is event 2: every event is one line of the body
 * `eventsToNdjson` wrote), or undefined when the message names no line.
 */
export function eventNumberOfFailure(error: string): number | undefined {
  const match = /^line (\d+):/.exec(error);
  return match ? Number(match[1]) - 1 : undefined;
}
