/**
 * Recursive-descent parser for APL (the layers live in `parser/`: token-cursor → lookahead →
 * expression-parser → operator-parser → query-parser). Produces the syntax tree of `ast.ts`; every failure is an `aplError`
 * with a code and a span (HTTP 400). Precedence (high → low): postfix (`.`, `[]`, calls), unary, `* / %`,
 * `+ -`, comparisons and string operators (non-associative), `and`, `or`.
 */
import type { Expr, Query } from './ast';
import { QueryParser } from './parser/query-parser';

export {
  MAX_NESTING,
  MAX_OPERATOR_CHAIN,
  STRING_OPERATORS,
  TABULAR_OPERATORS,
  typeFromName,
} from './parser/grammar';

export function parseApl(text: string): Query {
  return new QueryParser(text).parseQuery();
}

/** Parses a lone scalar expression (a virtual field's definition); spans are relative to `text`. */
export function parseAplExpression(text: string): Expr {
  return new QueryParser(text).parseStandaloneExpr();
}
