import { invalid } from '@quarry/common';
import { findJsonErrorOffset } from './json-error-position';
import type { IngestLimits } from './limits';

/**
 * The records of a JSON or NDJSON body, before normalization. `values[i]` is the parsed JSON (or undefined
 * when `errors[i]` says why it did not parse); `where(i)` names it for failure messages.
 */
export interface ParsedRecords {
  values: unknown[];
  errors: (string | null)[];
  where: (i: number) => string;
}

/** Parses a JSON array body (`[...]`); a body that is not valid JSON fails as a whole, with its position. */
export function parseJsonArray(text: string, limits: IngestLimits): ParsedRecords {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw invalidJsonAt(text, err as Error);
  }
  if (!Array.isArray(parsed)) {
    throw invalid('JSON body must be an array of events or NDJSON (one object per line)', {
      code: 'ingest_body_malformed',
    });
  }
  checkEventCount(parsed.length, limits);
  return { values: parsed, errors: new Array(parsed.length).fill(null), where: (i) => `event ${i + 1}` };
}

/**
 * Parses NDJSON: one JSON object per non-empty line. A bad line is a per-event failure; the other lines are
 * still ingested. A body where no line is valid JSON is not NDJSON at all and fails as a whole.
 */
export function parseNdjson(text: string, limits: IngestLimits): ParsedRecords {
  const lines = text.split('\n');
  // Count first, so an oversized batch is refused before any parsing work.
  let count = 0;
  for (let i = 0; i < lines.length; i++) if (!isBlank(lines[i])) count++;
  checkEventCount(count, limits);
  const values: unknown[] = new Array(count);
  const errors: (string | null)[] = new Array(count).fill(null);
  const lineNumbers = new Int32Array(count);
  let parsedAny = count === 0;
  let firstError = '';
  for (let i = 0, r = 0; i < lines.length; i++) {
    const line = lines[i];
    if (isBlank(line)) continue;
    lineNumbers[r] = i + 1;
    try {
      values[r] = JSON.parse(line);
      parsedAny = true;
    } catch (err) {
      errors[r] = `invalid JSON: ${shortMessage((err as Error).message)}`;
      if (firstError === '') firstError = `line ${i + 1}: ${errors[r]}`;
    }
    r++;
  }
  if (!parsedAny) {
    throw invalid(`body is neither a JSON array nor NDJSON: no line is valid JSON (${firstError})`, {
      code: 'ingest_body_malformed',
    });
  }
  return { values, errors, where: (i) => `line ${lineNumbers[i]}` };
}

export function checkEventCount(count: number, limits: IngestLimits): void {
  if (count > limits.maxEvents) {
    throw invalid(
      `request has ${count} events; the limit is ${limits.maxEvents} per request, split the batch`,
      {
        code: 'ingest_too_many_events',
        details: { events: count, limit: limits.maxEvents },
      },
    );
  }
}

function isBlank(line: string): boolean {
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c !== 0x20 && c !== 0x0d && c !== 0x09) return false;
  }
  return true;
}

const POSITION_RE = /at position (\d+)/;

/** `invalid JSON at byte 1234 (line 3, column 7): ...` from a JSON.parse error. */
export function invalidJsonAt(text: string, err: Error) {
  // V8 reports a char index for some errors only; otherwise find it with a scan (error path only).
  const m = POSITION_RE.exec(err.message);
  const pos = m ? Number(m[1]) : findJsonErrorOffset(text);
  const message = shortMessage(err.message);
  if (pos < 0) return invalid(`invalid JSON: ${message}`, { code: 'ingest_body_malformed' });
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < pos && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  const byte = Buffer.byteLength(text.slice(0, pos), 'utf8');
  const found =
    pos >= text.length
      ? 'unexpected end of input'
      : `unexpected ${JSON.stringify(text.slice(pos, pos + 16))}`;
  return invalid(`invalid JSON at byte ${byte} (line ${line}, column ${pos - lineStart + 1}): ${found}`, {
    code: 'ingest_body_malformed',
    details: { byte, line, parser: message },
  });
}

/** V8's message without the quoted copy of the input it sometimes appends. */
export function shortMessage(message: string): string {
  return message
    .replace(/\s*in JSON at position \d+.*$/s, '')
    .replace(/, ".*" is not valid JSON$/s, '')
    .slice(0, 200);
}
