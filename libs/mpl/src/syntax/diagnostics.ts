/**
 * MPL diagnostics: every user mistake in a query becomes a `QuarryError` of kind `invalid` (HTTP 400)
 * with a stable code, the source span and a message that says what and where (`... at line:col`).
 */
import { QuarryError, type SourceSpan } from '@quarry/common';

export type MplDiagnosticCode =
  | 'mpl_syntax'
  | 'mpl_unknown_function'
  | 'mpl_invalid_groups'
  | 'mpl_param'
  | 'mpl_histogram_mode'
  | 'mpl_not_supported'
  | 'mpl_invalid_duration'
  | 'mpl_invalid_value'
  | 'mpl_invalid_regex'
  | 'mpl_limit_exceeded';

export interface MplDiagnostic {
  code: MplDiagnosticCode;
  message: string;
  span?: SourceSpan;
}

/** Line/column (1-based) of an offset in `text`. */
export function spanAt(text: string, start: number, end = start + 1): SourceSpan {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < start && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { start, end: Math.max(end, start), line, column: start - lineStart + 1 };
}

export function where(span: SourceSpan | undefined): string {
  return span ? ` at ${span.line}:${span.column}` : '';
}

/** Builds the error; the message gets the position suffix when a span is known. */
export function mplError(code: MplDiagnosticCode, message: string, span?: SourceSpan): QuarryError {
  return new QuarryError('invalid', message + where(span), { code, span });
}

export function diagnosticOf(err: QuarryError): MplDiagnostic {
  return { code: err.code as MplDiagnosticCode, message: err.message, span: err.span };
}

/** Levenshtein distance, for did-you-mean suggestions on short names. */
function distance(a: string, b: string): number {
  const prev = new Array<number>(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0];
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j];
      prev[j] = Math.min(prev[j] + 1, prev[j - 1] + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return prev[b.length];
}

/** ` (did you mean "x"?)` for the closest candidate within a small edit distance, else ''. */
export function didYouMean(name: string, candidates: readonly string[]): string {
  let best = '';
  let bestDistance = Infinity;
  for (const c of candidates) {
    const d = distance(name.toLowerCase(), c.toLowerCase());
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  const allowed = Math.max(2, Math.floor(name.length / 3));
  return bestDistance <= allowed ? ` (did you mean "${best}"?)` : '';
}
