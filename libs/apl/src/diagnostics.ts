/**
 * Diagnostics are data: a typed code, parameters and a source span. The human message is produced from one
 * table so that wording stays consistent and tests can assert codes instead of strings. The same table
 * (meaning + example) generates docs/apl-errors.md; a test checks the document lists every code.
 *
 * Message shape: `<problem> at <line>:<column>[; did you mean '<suggestion>'?]`.
 */
import { QuarryError, type SourceSpan } from '@quarry/common';

export type DiagnosticParams = Record<string, string | number | undefined>;

interface DiagnosticSpec {
  /** Parse (lexer/parser) or semantic (binder: names, types, arity) or runtime (execution on user input). */
  phase: 'syntax' | 'semantic' | 'runtime';
  meaning: string;
  /** A query that raises it (documentation and tests). */
  example: string;
  message: (p: DiagnosticParams) => string;
}

const table = {
  apl_empty_query: {
    phase: 'syntax',
    meaning: 'The query text has no tabular expression (empty, only comments, or only `let` statements).',
    example: '// nothing here',
    message: () => 'the query is empty',
  },
  apl_unexpected_character: {
    phase: 'syntax',
    meaning: 'A character that cannot start any token (`#`, `^`, a non-ASCII letter), or a bad `\\u` escape.',
    example: 'ds | where a # 1',
    message: (p) => `unexpected character '${p.char}'`,
  },
  apl_unterminated_string: {
    phase: 'syntax',
    meaning:
      'A string literal without its closing quote on the same line (or a ``` string without its closing ```).',
    example: 'ds | where a == "abc',
    message: () => 'unterminated string literal',
  },
  apl_invalid_number: {
    phase: 'syntax',
    meaning: 'A numeric literal that is not a finite number (`1e999`, `1e305d`).',
    example: 'print x = 1e999',
    message: (p) => `invalid number '${p.text}'`,
  },
  apl_invalid_timespan_unit: {
    phase: 'syntax',
    meaning: 'A number followed by letters that are not a timespan unit (`d`, `h`, `m`, `s`, `ms`, ...).',
    example: 'ds | where _time > ago(1x)',
    message: (p) => `invalid timespan unit '${p.unit}'`,
  },
  apl_invalid_datetime: {
    phase: 'syntax',
    meaning: 'The text inside `datetime(...)` is not an ISO 8601 / RFC 3339 date or time.',
    example: 'ds | where _time > datetime(yesterday)',
    message: (p) => `invalid datetime literal '${p.text}'`,
  },
  apl_invalid_dynamic: {
    phase: 'syntax',
    meaning: 'The value inside `dynamic(...)` is not a JSON-like literal.',
    example: 'print d = dynamic([1, x])',
    message: (p) => `invalid dynamic literal: ${p.reason}`,
  },
  apl_expected_token: {
    phase: 'syntax',
    meaning:
      'The parser needed a specific token or construct (a closing parenthesis, `by` after `sort`, an ' +
      'expression after an operator) and found something else. Misspelled keywords get a suggestion.',
    example: 'ds | sort bye status',
    message: (p) => `expected ${p.expected} but found ${p.found}`,
  },
  apl_unexpected_token: {
    phase: 'syntax',
    meaning:
      'A token left over after a complete expression or query (a misspelled word operator, a missing `|`).',
    example: 'ds | where method contians "GET"',
    message: (p) => `unexpected ${p.found}`,
  },
  apl_unknown_operator: {
    phase: 'syntax',
    meaning: 'The name after `|` is not a tabular operator (operators are lower-case and case-sensitive).',
    example: 'ds | summarise count()',
    message: (p) => `unknown operator '${p.name}'`,
  },
  apl_too_complex: {
    phase: 'syntax',
    meaning: 'The query nests expressions or subqueries deeper than the engine allows.',
    example: `print x = ${'('.repeat(250)}1${')'.repeat(250)}`,
    message: (p) => `the query is too deeply nested (more than ${p.limit} levels)`,
  },
  apl_unknown_function: {
    phase: 'semantic',
    meaning: 'A call to a scalar or aggregation function that does not exist.',
    example: 'ds | summarize coutn() by status',
    message: (p) => `unknown function '${p.name}'`,
  },
  apl_wrong_arity: {
    phase: 'semantic',
    meaning: 'A function called with too few or too many arguments.',
    example: 'ds | extend n = strlen(a, b)',
    message: (p) => `function '${p.name}' expects ${p.expected} argument(s) but got ${p.got}`,
  },
  apl_type_mismatch: {
    phase: 'semantic',
    meaning:
      'An operand, argument or predicate of the wrong type that the planner can see before running: `where` ' +
      'on a non-boolean, `"a" + 1`, a function argument (`round(method)`, `ago("1h")`, `iff(1, a, b)`, ' +
      '`sum(method)`), a datetime or timespan compared with another type (`_time > "2024-05-01"`), a ' +
      '`datatable` value that does not fit its column. The message names the argument.',
    example: 'ds | where strlen(method)',
    message: (p) => `${p.what}: expected ${p.expected} but got ${p.got}`,
  },
  apl_unknown_field: {
    phase: 'semantic',
    meaning:
      'A column that does not exist at that point of the pipeline. Field names are case-sensitive; the ' +
      'suggestion comes from the columns in scope.',
    example: 'ds | where Method == "GET"',
    message: (p) => `unknown field '${p.name}'`,
  },
  apl_aggregate_not_allowed: {
    phase: 'semantic',
    meaning: 'An aggregation function outside `summarize` / `make-series`.',
    example: 'ds | where count() > 5',
    message: (p) => `aggregation function '${p.name}' is only allowed in summarize`,
  },
  apl_expected_aggregate: {
    phase: 'semantic',
    meaning: '`summarize` with a non-aggregate expression before `by`, or with nothing to compute.',
    example: 'ds | summarize strlen(method) by status',
    message: () => 'summarize expects aggregation functions before "by"',
  },
  apl_invalid_argument: {
    phase: 'semantic',
    meaning:
      'An argument with the right type but an unusable value: a non-constant or negative `take` count, a ' +
      'non-positive `make-series` step, an unknown join kind, a non-literal list element of `in`.',
    example: 'ds | take -1',
    message: (p) => `invalid argument for '${p.name}': ${p.reason}`,
  },
  apl_invalid_regex: {
    phase: 'semantic',
    meaning:
      'A regular expression (RE2 syntax) that does not compile: `matches regex`, `extract`, ' +
      '`replace_regex`, `parse kind=regex`. Constant patterns are checked before execution.',
    example: 'ds | where method matches regex "("',
    message: (p) => `invalid regular expression '${p.pattern}': ${p.reason}`,
  },
  apl_virtual_field_invalid: {
    phase: 'semantic',
    meaning:
      "A virtual field of a dataset the query reads does not parse or bind (unknown function, wrong arity, a reference to another virtual field). The position is the dataset's name in the query; the reason carries the position inside the virtual field's expression.",
    example: '',
    message: (p) => `virtual field '${p.name}' of dataset '${p.dataset}' is invalid: ${p.reason}`,
  },
  apl_unsupported: {
    phase: 'semantic',
    meaning:
      'A construct the language defines that Quarry deliberately does not run: `externaldata` (no fetching of ' +
      'external URLs), `redact replaceHash=true` (hash undocumented), `spotlight`.',
    example: 'externaldata (a:string) ["https://example.com/a.csv"]',
    message: (p) => `${p.what} is not supported`,
  },
} satisfies Record<string, DiagnosticSpec>;

export type DiagnosticCode = keyof typeof table;

/** Every diagnostic code with its phase, meaning and an example query (for docs/apl-errors.md). */
export const DIAGNOSTICS: ReadonlyArray<{ code: DiagnosticCode } & Omit<DiagnosticSpec, 'message'>> = (
  Object.entries(table) as [DiagnosticCode, DiagnosticSpec][]
).map(([code, spec]) => ({ code, phase: spec.phase, meaning: spec.meaning, example: spec.example }));

export function isDiagnosticCode(code: string): code is DiagnosticCode {
  return Object.prototype.hasOwnProperty.call(table, code);
}

/** `<problem> at <line>:<column>` plus `; did you mean '<suggestion>'?` when params carry a suggestion. */
export function formatDiagnostic(code: DiagnosticCode, params: DiagnosticParams, span?: SourceSpan): string {
  let text = (table[code] as DiagnosticSpec).message(params);
  if (span) text += ` at ${span.line}:${span.column}`;
  if (params.suggestion) text += `; did you mean '${params.suggestion}'?`;
  return text;
}

/** Builds the error every APL diagnostic is thrown as: kind `invalid` (HTTP 400), the code and the span. */
export function aplError(code: DiagnosticCode, params: DiagnosticParams, span?: SourceSpan): QuarryError {
  const details: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(params)) if (v !== undefined) details[k] = v;
  return new QuarryError('invalid', formatDiagnostic(code, params, span), { code, span, details });
}

export { closestName, damerauLevenshtein } from './suggest';
