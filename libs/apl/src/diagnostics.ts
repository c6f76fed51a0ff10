/**
 * Diagnostics are data: a typed code, parameters and a source span. The human message is produced from one
 * table so that wording stays consistent and tests can assert codes instead of strings.
 */
import { QuarryError, type SourceSpan } from '@quarry/common';

export type DiagnosticCode =
  | 'apl_unexpected_character'
  | 'apl_unterminated_string'
  | 'apl_invalid_number'
  | 'apl_invalid_timespan_unit'
  | 'apl_invalid_datetime'
  | 'apl_invalid_dynamic'
  | 'apl_expected_token'
  | 'apl_unexpected_token'
  | 'apl_unknown_operator'
  | 'apl_empty_query'
  | 'apl_unknown_function'
  | 'apl_unknown_aggregate'
  | 'apl_wrong_arity'
  | 'apl_type_mismatch'
  | 'apl_unknown_field'
  | 'apl_aggregate_not_allowed'
  | 'apl_expected_aggregate'
  | 'apl_invalid_argument'
  | 'apl_unknown_table'
  | 'apl_unsupported';

export type DiagnosticParams = Record<string, string | number | undefined>;

const MESSAGES: Record<DiagnosticCode, (p: DiagnosticParams) => string> = {
  apl_unexpected_character: (p) => `unexpected character '${p.char}'`,
  apl_unterminated_string: () => 'unterminated string literal',
  apl_invalid_number: (p) => `invalid number '${p.text}'`,
  apl_invalid_timespan_unit: (p) => `invalid timespan unit '${p.unit}'`,
  apl_invalid_datetime: (p) => `invalid datetime literal '${p.text}'`,
  apl_invalid_dynamic: (p) => `invalid dynamic literal: ${p.reason}`,
  apl_expected_token: (p) => `expected ${p.expected} but found ${p.found}`,
  apl_unexpected_token: (p) => `unexpected ${p.found}`,
  apl_unknown_operator: (p) => `unknown operator '${p.name}'${suggest(p)}`,
  apl_empty_query: () => 'the query is empty',
  apl_unknown_function: (p) => `unknown function '${p.name}'${suggest(p)}`,
  apl_unknown_aggregate: (p) => `unknown aggregation function '${p.name}'${suggest(p)}`,
  apl_wrong_arity: (p) => `function '${p.name}' expects ${p.expected} argument(s) but got ${p.got}`,
  apl_type_mismatch: (p) => `${p.what}: expected ${p.expected} but got ${p.got}`,
  apl_unknown_field: (p) => `unknown field '${p.name}'${suggest(p)}`,
  apl_aggregate_not_allowed: (p) => `aggregation function '${p.name}' is only allowed in summarize`,
  apl_expected_aggregate: () => 'summarize expects aggregation functions before "by"',
  apl_invalid_argument: (p) => `invalid argument for '${p.name}': ${p.reason}`,
  apl_unknown_table: (p) => `unknown table '${p.name}'`,
  apl_unsupported: (p) => `${p.what} is not supported`,
};

function suggest(p: DiagnosticParams): string {
  return p.suggestion ? ` (did you mean '${p.suggestion}'?)` : '';
}

export function formatDiagnostic(code: DiagnosticCode, params: DiagnosticParams, span?: SourceSpan): string {
  const text = MESSAGES[code](params);
  return span ? `${text} at ${span.line}:${span.column}` : text;
}

/** Builds the error every APL diagnostic is thrown as: kind `invalid` (HTTP 400), the code and the span. */
export function aplError(code: DiagnosticCode, params: DiagnosticParams, span?: SourceSpan): QuarryError {
  return new QuarryError('invalid', formatDiagnostic(code, params, span), {
    code,
    span,
    details: { ...params },
  });
}

/** The closest candidate by edit distance, when it is close enough to be a plausible typo. */
export function closestName(name: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDist = Infinity;
  for (const c of candidates) {
    const d = editDistance(name.toLowerCase(), c.toLowerCase());
    if (d < bestDist) {
      bestDist = d;
      best = c;
    }
  }
  const limit = Math.max(1, Math.floor(name.length / 3));
  return bestDist <= limit ? best : undefined;
}

function editDistance(a: string, b: string): number {
  const prev = new Array(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0];
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = prev[j];
      prev[j] = Math.min(prev[j] + 1, prev[j - 1] + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = tmp;
    }
  }
  return prev[b.length];
}
