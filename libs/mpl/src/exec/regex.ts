/**
 * MPL regexes (`#/…/` literals and `Regex` params) run on RE2: user patterns must never reach a
 * backtracking engine, where `(a+)+$` takes exponential time. RE2's syntax is the one Rust's `regex`
 * (Axiom's engine) was modelled on: inline flags `(?i)`, `(?m)`, `(?s)`, `(?U)` work anywhere; lookaround
 * and backreferences do not exist in either and are rejected with a 400 that points at the construct.
 */
import RE2 from 're2';
import type { SourceSpan } from '@quarry/common';
import { mplError } from '../syntax/diagnostics';

/** Where a pattern came from, for the error message. */
export interface RegexOrigin {
  /** How to name the pattern in a message: the literal `#/…/` or `param $x`. */
  label: string;
  /** Span of the literal or of the param reference. */
  span?: SourceSpan;
  /** For an inline literal: its body as written, starting at `span.start + 2` (after `#/`). */
  raw?: string;
}

/** RE2's message for a construct it lacks → what a user should read instead. */
const UNSUPPORTED: [RegExp, string][] = [
  [/^\(\?<?[=!]/, 'lookaround is not supported'],
  [/^\\[1-9]|^\\k|^\(\?P=/, 'backreferences are not supported'],
  [/^\(\?x/, 'the x (verbose) flag is not supported'],
];

export function compileRegex(pattern: string, origin: RegexOrigin): RE2 {
  try {
    return new RE2(pattern);
  } catch (err) {
    const detail = (err as Error).message;
    // RE2 reports "<reason>: <offending text>"; the text locates the error inside the literal.
    const fragment = /^[^:]*: (.+)$/s.exec(detail)?.[1] ?? '';
    const known = UNSUPPORTED.find(([re]) => re.test(fragment))?.[1];
    const reason = known ? `${known} (${fragment}); MPL regexes use RE2 syntax` : detail;
    throw mplError(
      'mpl_invalid_regex',
      `invalid regex ${origin.label}: ${reason}`,
      fragmentSpan(origin, fragment),
    );
  }
}

/** The span of `fragment` inside an inline literal (literals are one line), else the origin's span. */
function fragmentSpan(origin: RegexOrigin, fragment: string): SourceSpan | undefined {
  const at = fragment && origin.raw !== undefined ? origin.raw.indexOf(fragment) : -1;
  if (!origin.span || at < 0) return origin.span;
  const start = origin.span.start + 2 + at;
  return { start, end: start + fragment.length, line: origin.span.line, column: origin.span.column + 2 + at };
}
