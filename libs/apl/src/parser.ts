/**
 * Recursive-descent parser for APL. Produces the syntax tree of `ast.ts`; every failure is an `aplError`
 * with a code and a span (HTTP 400). Precedence (high → low): postfix (`.`, `[]`, calls), unary, `* / %`,
 * `+ -`, comparisons and string operators (non-associative), `and`, `or`.
 */
import { parseKustoDatetime, type SourceSpan } from '@quarry/common';
import type {
  AplType,
  MvExpandItem,
  Assignment,
  Expr,
  FunctionDefinition,
  FunctionParam,
  JoinCondition,
  NamePattern,
  Operator,
  ParsePart,
  Query,
  SortKey,
  Statement,
  TabularExpr,
  TabularSource,
} from './ast';
import { aplError, closestName } from './diagnostics';
import { Lexer } from './lexer';
import { SourceText } from './source-text';
import { describeToken, type Token } from './tokens';

export const TABULAR_OPERATORS = [
  'where',
  'filter',
  'extend',
  'project',
  'project-away',
  'project-keep',
  'project-reorder',
  'project-rename',
  'summarize',
  'count',
  'take',
  'limit',
  'sort',
  'order',
  'top',
  'distinct',
  'getschema',
  'mv-expand',
  'parse',
  'parse-where',
  'join',
  'lookup',
  'union',
  'search',
  'sample',
  'make-series',
  'extend-valid',
  'parse-kv',
  'redact',
  'serialize',
];

/** Word operators at comparison level that take a single right operand. */
export const STRING_OPERATORS = new Set([
  'contains',
  '!contains',
  'contains_cs',
  '!contains_cs',
  'has',
  '!has',
  'has_cs',
  '!has_cs',
  'startswith',
  '!startswith',
  'startswith_cs',
  '!startswith_cs',
  'endswith',
  '!endswith',
  'endswith_cs',
  '!endswith_cs',
  'hasprefix',
  '!hasprefix',
  'hasprefix_cs',
  '!hasprefix_cs',
  'hassuffix',
  '!hassuffix',
  'hassuffix_cs',
  '!hassuffix_cs',
]);

const LIST_OPERATORS = new Set([
  'in',
  '!in',
  'in~',
  '!in~',
  'has_any',
  'has_all',
  'has_any_cs',
  'has_all_cs',
]);
const COMPARISON_PUNCT = new Set(['==', '!=', '<>', '<', '<=', '>', '>=', '=~', '!~']);

/** Words that may follow an expression; a misspelled one left over after an expression gets a hint. */
const WORDS_AFTER_EXPR = [
  'and',
  'or',
  'by',
  'desc',
  'asc',
  'nulls',
  'on',
  'with',
  'between',
  'matches',
  ...STRING_OPERATORS,
  ...LIST_OPERATORS,
];

/** Deepest nesting of parentheses, subqueries, unary signs and dynamic literals the parser accepts. */
export const MAX_NESTING = 200;
/** Longest chain of binary operators in one expression (the planner and evaluator recurse over it). */
export const MAX_OPERATOR_CHAIN = 1000;

const TYPE_NAMES: Record<string, AplType> = {
  bool: 'bool',
  boolean: 'bool',
  int: 'long',
  long: 'long',
  real: 'real',
  double: 'real',
  decimal: 'real',
  string: 'string',
  datetime: 'datetime',
  date: 'datetime',
  timespan: 'timespan',
  time: 'timespan',
  dynamic: 'dynamic',
  // Kusto's guid: Quarry has no guid type, a guid is its text (`parse-kv ... as (id: guid)`).
  guid: 'string',
};

const TYPE_NAME_LIST = Object.keys(TYPE_NAMES);

export function typeFromName(name: string): AplType | undefined {
  return Object.prototype.hasOwnProperty.call(TYPE_NAMES, name) ? TYPE_NAMES[name] : undefined;
}

export function parseApl(text: string): Query {
  return new Parser(text).parseQuery();
}

/** Parses a lone scalar expression (a virtual field's definition); spans are relative to `text`. */
export function parseAplExpression(text: string): Expr {
  return new Parser(text).parseStandaloneExpr();
}

class Parser {
  private readonly src: SourceText;
  private readonly lexer: Lexer;
  private lookahead: Token[] = [];
  private lastEnd = 0;
  /** Names bound by `let` to tables, so a later `let x = t;` is known to be tabular. */
  private readonly tableLets = new Set<string>();
  private readonly scalarLets = new Set<string>();
  /** User-defined functions (`let f = (x: long) { ... };`) in scope, by name. */
  private readonly functions = new Map<string, FunctionDefinition>();
  private depth = 0;
  /** >0 while parsing a `search` predicate, where `Field:"term"` and prefix `not` are allowed. */
  private searchDepth = 0;
  private lastOption: Token | undefined;
  /** Depth of each binary expression node (left-deep chains are built iteratively). */
  private readonly chainDepth = new WeakMap<Expr, number>();

  constructor(text: string) {
    this.src = new SourceText(text);
    this.lexer = new Lexer(this.src);
  }

  // ---- token plumbing ----

  private peek(k = 0): Token {
    while (this.lookahead.length <= k) this.lookahead.push(this.lexer.next());
    return this.lookahead[k];
  }

  private advance(): Token {
    const t = this.peek();
    this.lookahead.shift();
    this.lastEnd = t.end;
    return t;
  }

  private isPunct(p: string, k = 0): boolean {
    const t = this.peek(k);
    return t.kind === 'punct' && t.text === p;
  }

  private isIdent(name: string, k = 0): boolean {
    const t = this.peek(k);
    return t.kind === 'ident' && t.text === name;
  }

  private acceptPunct(p: string): boolean {
    if (!this.isPunct(p)) return false;
    this.advance();
    return true;
  }

  private acceptIdent(name: string): boolean {
    if (!this.isIdent(name)) return false;
    this.advance();
    return true;
  }

  private expectPunct(p: string): Token {
    if (!this.isPunct(p)) throw this.expected(`'${p}'`, this.peek(), WORDS_AFTER_EXPR);
    return this.advance();
  }

  private expectIdent(name: string): Token {
    if (!this.isIdent(name)) throw this.expected(`'${name}'`, this.peek(), [name]);
    return this.advance();
  }

  /**
   * `expected X but found Y`. When Y is a word, `candidates` (or the words that may follow an expression)
   * give a "did you mean" hint for a misspelled keyword.
   */
  private expected(what: string, t: Token = this.peek(), candidates: readonly string[] = []) {
    const suggestion = t.kind === 'ident' ? closestName(t.text, candidates) : undefined;
    return aplError(
      'apl_expected_token',
      { expected: what, found: describeToken(t), suggestion },
      this.tokSpan(t),
    );
  }

  /** Runs `parse` one nesting level deeper; too deep a query is rejected before the stack overflows. */
  private nested<T>(parse: () => T): T {
    if (this.depth >= MAX_NESTING) {
      throw aplError('apl_too_complex', { limit: MAX_NESTING }, this.tokSpan(this.peek()));
    }
    this.depth++;
    try {
      return parse();
    } finally {
      this.depth--;
    }
  }

  private tokSpan(t: Token): SourceSpan {
    return this.src.span(t.start, Math.max(t.end, t.start + (t.kind === 'eof' ? 0 : 1)));
  }

  private spanFrom(start: number): SourceSpan {
    return this.src.span(start, Math.max(this.lastEnd, start));
  }

  // ---- statements ----

  parseQuery(): Query {
    const statements: Statement[] = [];
    if (this.peek().kind === 'eof') throw aplError('apl_empty_query', {}, this.tokSpan(this.peek()));
    for (;;) {
      if (this.isIdent('let')) {
        statements.push(this.parseLet());
        this.expectPunct(';');
        continue;
      }
      if (this.isIdent('set') && this.peek(1).kind === 'ident') {
        statements.push(this.parseSet());
        this.expectPunct(';');
        continue;
      }
      break;
    }
    if (this.peek().kind === 'eof') throw aplError('apl_empty_query', {}, this.tokSpan(this.peek()));
    const body = this.parseTabular();
    while (this.acceptPunct(';')) {
      /* a trailing `;` is tolerated */
    }
    const t = this.peek();
    if (t.kind !== 'eof') {
      const suggestion = t.kind === 'ident' ? closestName(t.text, WORDS_AFTER_EXPR) : undefined;
      throw aplError('apl_unexpected_token', { found: describeToken(t), suggestion }, this.tokSpan(t));
    }
    return { statements, body, span: this.src.span(0, this.src.text.length) };
  }

  parseStandaloneExpr(): Expr {
    if (this.peek().kind === 'eof') throw aplError('apl_empty_query', {}, this.tokSpan(this.peek()));
    const expr = this.parseExpr();
    const t = this.peek();
    if (t.kind !== 'eof')
      throw aplError('apl_unexpected_token', { found: describeToken(t) }, this.tokSpan(t));
    return expr;
  }

  private parseLet(): Statement {
    const start = this.advance().start;
    let nameTok = this.peek();
    if (this.isPunct('[') && this.peek(1).kind === 'string' && this.isPunct(']', 2)) {
      // `let ['some number'] = 20;` (Kusto): a name that needs quoting.
      const nameStart = nameTok.start;
      const name = this.parseBracketName();
      nameTok = { kind: 'ident', text: name, start: nameStart, end: this.lastEnd };
    } else {
      if (nameTok.kind !== 'ident') throw this.expected('a name');
      this.advance();
    }
    this.expectPunct('=');
    if (this.startsFunctionDefinition()) {
      const definition = this.parseFunctionDefinition(nameTok.text, start);
      this.functions.set(nameTok.text, definition);
      this.tableLets.delete(nameTok.text);
      this.scalarLets.delete(nameTok.text);
      return { kind: 'let-function', definition, span: definition.span };
    }
    if (this.looksTabular()) {
      const query = this.parseTabular();
      this.tableLets.add(nameTok.text);
      return { kind: 'let-tabular', name: nameTok.text, query, span: this.spanFrom(start) };
    }
    const expr = this.parseExpr();
    this.scalarLets.add(nameTok.text);
    return { kind: 'let-scalar', name: nameTok.text, expr, span: this.spanFrom(start) };
  }

  /** `(` `)` `{` or `(` name `:`: the parameter list of a user-defined function. */
  private startsFunctionDefinition(): boolean {
    if (!this.isPunct('(')) return false;
    if (this.isPunct(')', 1)) return this.isPunct('{', 2);
    return this.peek(1).kind === 'ident' && this.isPunct(':', 2);
  }

  /**
   * `(a: long, b: string = "x") { [let ...;]* Expr }`. Parameters are scalars (Kusto's tabular parameters
   * are not supported); a parameter with a default is optional, and only trailing ones may have defaults.
   */
  private parseFunctionDefinition(name: string, start: number): FunctionDefinition {
    this.expectPunct('(');
    const params: FunctionParam[] = [];
    if (!this.isPunct(')')) {
      do {
        const s = this.peek().start;
        const p = this.peek();
        if (p.kind !== 'ident') throw this.expected('a parameter name', p);
        this.advance();
        this.expectPunct(':');
        if (this.isPunct('(')) {
          throw aplError(
            'apl_unsupported',
            { what: `tabular parameter '${p.text}' of a user-defined function` },
            this.spanFrom(s),
          );
        }
        const tt = this.peek();
        const type = tt.kind === 'ident' ? typeFromName(tt.text) : undefined;
        if (!type) throw this.expected('a type name', tt, TYPE_NAME_LIST);
        this.advance();
        let defaultValue: Expr | undefined;
        if (this.acceptPunct('=')) defaultValue = this.parseExpr();
        else if (params.some((q) => q.defaultValue)) {
          throw aplError(
            'apl_invalid_argument',
            { name, reason: `parameter '${p.text}' without a default follows one with a default` },
            this.spanFrom(s),
          );
        }
        params.push({ name: p.text, type, defaultValue, span: this.spanFrom(s) });
      } while (this.acceptPunct(','));
    }
    this.expectPunct(')');
    this.expectPunct('{');
    // The body sees the parameters as scalars; its own lets end with it.
    const savedScalars = new Set(this.scalarLets);
    const savedTables = new Set(this.tableLets);
    const savedFunctions = new Map(this.functions);
    for (const p of params) {
      this.scalarLets.add(p.name);
      this.tableLets.delete(p.name);
      this.functions.delete(p.name);
    }
    try {
      const statements: Statement[] = [];
      while (this.isIdent('let')) {
        statements.push(this.parseLet());
        this.expectPunct(';');
      }
      let result: FunctionDefinition['result'];
      if (this.looksTabular() || this.isTableName()) result = { kind: 'tabular', query: this.parseTabular() };
      else result = { kind: 'scalar', expr: this.parseExpr() };
      while (this.acceptPunct(';')) {
        /* `{ x + 1; }` */
      }
      this.expectPunct('}');
      return { name, params, statements, result, span: this.spanFrom(start) };
    } finally {
      this.scalarLets.clear();
      savedScalars.forEach((n) => this.scalarLets.add(n));
      this.tableLets.clear();
      savedTables.forEach((n) => this.tableLets.add(n));
      this.functions.clear();
      savedFunctions.forEach((v, k) => this.functions.set(k, v));
    }
  }

  /** A lone name that is a dataset or a table (not a scalar or parameter) before `}`: `{ ds }`. */
  private isTableName(): boolean {
    const t = this.peek();
    if (t.kind !== 'ident' || !this.isPunct('}', 1)) return false;
    return !this.scalarLets.has(t.text) && !['true', 'false', 'null'].includes(t.text);
  }

  /** A call of a tabular user-defined function (`f(1)`, or `f` when every parameter has a default). */
  private tabularFunctionAt(): FunctionDefinition | undefined {
    const t = this.peek();
    if (t.kind !== 'ident') return undefined;
    const f = this.functions.get(t.text);
    return f?.result.kind === 'tabular' ? f : undefined;
  }

  /** Decides whether the right side of `let x = ...` is a table (dataset, datatable, print, pipe...). */
  private looksTabular(): boolean {
    const t = this.peek();
    if (this.tabularFunctionAt()) return true;
    if (t.kind === 'ident') {
      if (['datatable', 'print', 'union', 'externaldata'].includes(t.text)) return true;
      if (t.text === 'range' && this.peek(1).kind === 'ident' && this.isIdent('from', 2)) return true;
      if (this.isPunct('|', 1)) return true;
      if (this.startsLeadingSearch()) return true;
      if (this.isPunct(';', 1) || this.peek(1).kind === 'eof') {
        if (this.scalarLets.has(t.text)) return false;
        return true;
      }
      return false;
    }
    if (this.isPunct('[') && this.peek(1).kind === 'string' && this.isPunct(']', 2)) {
      const after = this.peek(3);
      return after.kind === 'punct' && (after.text === '|' || after.text === ';');
    }
    if (this.isPunct('(')) {
      // `(dataset | ...)`: a parenthesised tabular expression.
      const inner = this.peek(1);
      return (
        (inner.kind === 'ident' || this.isPunct('[', 1)) && (this.isPunct('|', 2) || this.isPunct('|', 4))
      );
    }
    return false;
  }

  /**
   * After `in (`: whether a tabular expression follows (`T | ...`, `(T | ...)`, a `let`-bound table,
   * `datatable(...)`) rather than a list of scalars. `|` can never appear in a scalar list.
   */
  private looksTabularInList(): boolean {
    const t = this.peek();
    if (t.kind === 'ident') {
      if (this.isPunct('|', 1)) return true;
      if (this.tableLets.has(t.text) && this.isPunct(')', 1)) return true;
      if (this.tabularFunctionAt()) return true;
      if ((t.text === 'datatable' && this.isPunct('(', 1)) || t.text === 'union') return true;
      if (t.text === 'range' && this.peek(1).kind === 'ident' && this.isIdent('from', 2)) return true;
      return false;
    }
    if (this.isPunct('[') && this.peek(1).kind === 'string' && this.isPunct(']', 2))
      return this.isPunct('|', 3);
    if (this.isPunct('(')) {
      const inner = this.peek(1);
      if (
        inner.kind === 'ident' &&
        (this.isPunct('|', 2) || (this.tableLets.has(inner.text) && this.isPunct(')', 2)))
      )
        return true;
      if (inner.kind === 'ident' && inner.text === 'datatable' && this.isPunct('(', 2)) return true;
      return (
        this.isPunct('[', 1) && this.peek(2).kind === 'string' && this.isPunct(']', 3) && this.isPunct('|', 4)
      );
    }
    return false;
  }

  private parseSet(): Statement {
    const start = this.advance().start;
    const name = this.advance().text;
    let value: Expr | undefined;
    if (this.acceptPunct('=')) value = this.parseExpr();
    return { kind: 'set', name, value, span: this.spanFrom(start) };
  }

  // ---- tabular expressions ----

  private parseTabular(): TabularExpr {
    return this.nested(() => this.parseTabularInner());
  }

  private parseTabularInner(): TabularExpr {
    const start = this.peek().start;
    if (this.startsLeadingSearch()) return this.parseLeadingSearch();
    const source = this.parseSource();
    const operators: Operator[] = [];
    while (this.acceptPunct('|')) operators.push(this.parseOperator());
    return { source, operators, span: this.spanFrom(start) };
  }

  private parseSource(): TabularSource {
    const t = this.peek();
    const start = t.start;
    if (this.isPunct('(')) {
      this.advance();
      const query = this.parseTabular();
      this.expectPunct(')');
      return { kind: 'subquery', query, span: this.spanFrom(start) };
    }
    if (this.isPunct('[')) {
      const name = this.parseBracketName();
      return { kind: 'dataset', name, span: this.spanFrom(start) };
    }
    if (t.kind === 'ident') {
      const fn = this.tabularFunctionAt();
      if (fn) return this.parseFunctionSource(fn);
      if (t.text === 'datatable' && this.isPunct('(', 1)) return this.parseDatatable();
      if (t.text === 'range' && this.peek(1).kind === 'ident' && this.isIdent('from', 2))
        return this.parseRange();
      if (t.text === 'externaldata' && this.isPunct('(', 1)) {
        throw aplError(
          'apl_unsupported',
          { what: 'externaldata (Quarry does not fetch external files; use datatable or ingest the data)' },
          this.tokSpan(t),
        );
      }
      if (t.text === 'print') {
        this.advance();
        const items = this.parseAssignments();
        return { kind: 'print', items, span: this.spanFrom(start) };
      }
      if (t.text === 'union') {
        this.advance();
        const { tables, withSource } = this.parseUnionArgs();
        return { kind: 'union', tables, withSource, span: this.spanFrom(start) };
      }
      this.advance();
      return { kind: 'dataset', name: t.text, span: this.spanFrom(start) };
    }
    if (t.kind === 'string') {
      // `"dataset"` as a source is accepted by Axiom's UI.
      this.advance();
      return { kind: 'dataset', name: t.text, span: this.spanFrom(start) };
    }
    throw this.expected('a dataset or table expression');
  }

  /** `range Column from Start to Stop step Step`. */
  private parseRange(): TabularSource {
    const start = this.advance().start;
    const column = this.advance().text;
    this.expectIdent('from');
    const from = this.parseAdditive();
    this.expectIdent('to');
    const to = this.parseAdditive();
    this.expectIdent('step');
    const step = this.parseAdditive();
    return { kind: 'range', column, from, to, step, span: this.spanFrom(start) };
  }

  /** `f(args)` (or `f` alone) where `f` is a tabular user-defined function: its body, invoked. */
  private parseFunctionSource(definition: FunctionDefinition): TabularSource {
    const start = this.advance().start;
    const args: Expr[] = [];
    if (this.acceptPunct('(')) {
      if (!this.isPunct(')')) {
        do args.push(this.parseExpr());
        while (this.acceptPunct(','));
      }
      this.expectPunct(')');
    }
    const span = this.spanFrom(start);
    const query = definition.result.kind === 'tabular' ? definition.result.query : undefined;
    return { kind: 'subquery', query: query!, invoke: { definition, args, span }, span };
  }

  /** `search ...` as the first word of a query (not a dataset called `search` followed by `|`). */
  private startsLeadingSearch(): boolean {
    if (!this.isIdent('search')) return false;
    const next = this.peek(1);
    return !(next.kind === 'eof' || (next.kind === 'punct' && [';', '|', ')', ','].includes(next.text)));
  }

  /**
   * `search [kind=...] [in (Datasets)] Predicate` starting a query: the union of the named datasets (every
   * dataset without `in`), with the source dataset in column `$table` (Kusto), filtered by the search.
   */
  private parseLeadingSearch(): TabularExpr {
    const start = this.advance().start;
    const caseSensitive = this.parseSearchKind();
    const refs: TabularSource[] = [];
    if (this.isIdent('in') && this.isPunct('(', 1)) {
      this.advance();
      this.advance();
      do refs.push(this.parseDatasetRef());
      while (this.acceptPunct(','));
      this.expectPunct(')');
    } else {
      refs.push({ kind: 'dataset-pattern', pattern: '*', span: this.src.span(start, this.lastEnd) });
    }
    const predicate = this.parseSearchPredicate();
    const tables = refs.map((r) => ({ source: r, operators: [], span: r.span }));
    const source: TabularSource = {
      kind: 'union',
      tables,
      withSource: '$table',
      span: this.spanFrom(start),
    };
    const operators: Operator[] = [{ kind: 'search', caseSensitive, predicate, span: this.spanFrom(start) }];
    while (this.acceptPunct('|')) operators.push(this.parseOperator());
    return { source, operators, span: this.spanFrom(start) };
  }

  private parseSearchPredicate(): Expr {
    this.searchDepth++;
    try {
      return this.parseExpr();
    } finally {
      this.searchDepth--;
    }
  }

  private parseSearchKind(): boolean {
    const searchKind = this.parseKindOption('kind');
    const searchKinds = ['case_sensitive', 'case_insensitive', 'default'];
    if (searchKind !== undefined && !searchKinds.includes(searchKind)) {
      throw this.invalidKind('search', `unknown search kind '${searchKind}'`, searchKind, searchKinds);
    }
    return searchKind === 'case_sensitive';
  }

  /**
   * A dataset named in `union` or `search in (...)`: a name, `['quoted name']`, or a pattern with `*`
   * (`logs*`, `*`, `web-*`, `['web-*']`). Unquoted patterns are the touching tokens of the name.
   */
  private parseDatasetRef(): TabularSource {
    const t = this.peek();
    const start = t.start;
    if (this.isPunct('[') && this.peek(1).kind === 'string') {
      const name = this.parseBracketName();
      const span = this.spanFrom(start);
      return name.includes('*')
        ? { kind: 'dataset-pattern', pattern: name, span }
        : { kind: 'dataset', name, span };
    }
    const keyword =
      t.kind === 'ident' &&
      ((t.text === 'datatable' && this.isPunct('(', 1)) || t.text === 'print' || t.text === 'union');
    const startsName = (t.kind === 'ident' && !keyword) || this.isPunct('*');
    if (!startsName) return this.parseSource();
    let text = '';
    let end = start;
    for (;;) {
      const k = this.peek();
      const glues =
        k.kind === 'ident' || k.kind === 'int' || (k.kind === 'punct' && ['*', '-', '.'].includes(k.text));
      if (!glues || (text !== '' && k.start !== end)) break;
      text += this.src.text.slice(k.start, k.end);
      end = k.end;
      this.advance();
    }
    const span = this.spanFrom(start);
    return text.includes('*')
      ? { kind: 'dataset-pattern', pattern: text, span }
      : { kind: 'dataset', name: text, span };
  }

  private parseBracketName(): string {
    this.expectPunct('[');
    const t = this.peek();
    if (t.kind !== 'string') throw this.expected('a quoted name');
    this.advance();
    this.expectPunct(']');
    return t.text;
  }

  private parseDatatable(): TabularSource {
    const start = this.advance().start;
    this.expectPunct('(');
    const columns: { name: string; type: AplType }[] = [];
    do {
      const name = this.parseColumnName();
      this.expectPunct(':');
      const typeTok = this.peek();
      const type = typeTok.kind === 'ident' ? typeFromName(typeTok.text) : undefined;
      if (!type) throw this.expected('a type name', typeTok, TYPE_NAME_LIST);
      this.advance();
      columns.push({ name, type });
    } while (this.acceptPunct(','));
    this.expectPunct(')');
    this.expectPunct('[');
    const values: Expr[] = [];
    // A trailing comma before `]` is allowed (Kusto's own examples end rows with one).
    while (!this.isPunct(']')) {
      values.push(this.parseExpr());
      if (!this.acceptPunct(',')) break;
    }
    this.expectPunct(']');
    return { kind: 'datatable', columns, values, span: this.spanFrom(start) };
  }

  /**
   * A column name that may be a dotted path: `geo.city`, `['geo']['city']` and `['geo.city']` all name the
   * flattened field `geo.city` (apl.md §2).
   */
  private parseFieldPath(): string {
    let name = this.parseColumnName();
    for (;;) {
      if (this.isPunct('.') && this.peek(1).kind === 'ident') {
        this.advance();
        name += '.' + this.advance().text;
      } else if (this.isPunct('[') && this.peek(1).kind === 'string') {
        name += '.' + this.parseBracketName();
      } else return name;
    }
  }

  private parseColumnName(): string {
    if (this.isPunct('[')) return this.parseBracketName();
    const t = this.peek();
    if (t.kind !== 'ident') throw this.expected('a column name');
    this.advance();
    return t.text;
  }

  /** Reads an operator name, joining hyphenated names such as `project-away` and `mv-expand`. */
  private parseOperatorName(): Token {
    const t = this.peek();
    if (t.kind !== 'ident') {
      if (t.kind === 'eof' || this.isPunct('|')) throw this.expected("an operator after '|'");
      throw this.expected('an operator', t);
    }
    this.advance();
    let name = t.text;
    let end = t.end;
    while (
      this.isPunct('-') &&
      this.peek().start === end &&
      this.peek(1).kind === 'ident' &&
      this.peek(1).start === end + 1
    ) {
      this.advance();
      const part = this.advance();
      name += '-' + part.text;
      end = part.end;
    }
    return { ...t, text: name, end };
  }

  private parseOperator(): Operator {
    const nameTok = this.parseOperatorName();
    const start = nameTok.start;
    const done = <T>(op: T) => ({ ...op, span: this.spanFrom(start) });
    switch (nameTok.text) {
      case 'where':
      case 'filter':
        return done({ kind: 'where' as const, predicate: this.parseExpr() });
      case 'extend':
        return done({ kind: 'extend' as const, items: this.parseAssignments() });
      case 'extend-valid':
        return done({ kind: 'extend' as const, items: this.parseAssignments(), valid: true });
      case 'parse-kv':
        return done(this.parseParseKv());
      case 'redact':
        return done(this.parseRedact());
      case 'project':
        return done({ kind: 'project' as const, items: this.parseAssignments() });
      case 'project-away':
      case 'project-keep':
      case 'project-reorder':
        return done({ kind: nameTok.text, patterns: this.parsePatterns(nameTok.text === 'project-reorder') });
      case 'project-rename': {
        const items: { name: string; from: string; span: SourceSpan }[] = [];
        do {
          const s = this.peek().start;
          const name = this.parseFieldPath();
          this.expectPunct('=');
          const from = this.parseFieldPath();
          items.push({ name, from, span: this.spanFrom(s) });
        } while (this.acceptPunct(','));
        return done({ kind: 'project-rename' as const, items });
      }
      case 'summarize': {
        let aggs: Assignment[] = [];
        if (!this.isIdent('by')) aggs = this.parseAssignments();
        let by: Assignment[] = [];
        if (this.acceptIdent('by')) by = this.parseAssignments();
        return done({ kind: 'summarize' as const, aggs, by });
      }
      case 'count':
        return done({ kind: 'count' as const });
      case 'take':
      case 'limit':
        return done({ kind: 'take' as const, count: this.parseExpr() });
      case 'sort':
      case 'order':
        this.expectIdent('by');
        return done({ kind: 'sort' as const, keys: this.parseSortKeys() });
      case 'top': {
        const count = this.parseAdditive();
        this.expectIdent('by');
        return done({ kind: 'top' as const, count, keys: this.parseSortKeys() });
      }
      case 'distinct': {
        const items: Expr[] = [];
        do items.push(this.parseExpr());
        while (this.acceptPunct(','));
        return done({ kind: 'distinct' as const, items });
      }
      case 'getschema':
        return done({ kind: 'getschema' as const });
      case 'mv-expand':
        return done(this.parseMvExpand());
      case 'parse':
      case 'parse-where':
        return done(this.parseParse(nameTok.text === 'parse-where'));
      case 'join':
      case 'lookup':
        return done(this.parseJoin(nameTok.text));
      case 'union': {
        const { tables, withSource } = this.parseUnionArgs();
        return done({ kind: 'union' as const, tables, withSource });
      }
      case 'search': {
        const caseSensitive = this.parseSearchKind();
        if (this.isIdent('in') && this.isPunct('(', 1)) {
          throw aplError(
            'apl_invalid_argument',
            { name: 'search', reason: "'in (datasets)' is only allowed when search starts the query" },
            this.tokSpan(this.peek()),
          );
        }
        return done({ kind: 'search' as const, caseSensitive, predicate: this.parseSearchPredicate() });
      }
      case 'sample':
        return done({ kind: 'sample' as const, fraction: this.parseExpr() });
      case 'make-series':
        return done(this.parseMakeSeries());
      case 'serialize': {
        const next = this.peek();
        const bare =
          next.kind === 'eof' || (next.kind === 'punct' && ['|', ')', ';', '}'].includes(next.text));
        return done({ kind: 'serialize' as const, items: bare ? [] : this.parseAssignments() });
      }
      default: {
        const suggestion = closestName(nameTok.text, TABULAR_OPERATORS);
        throw aplError(
          'apl_unknown_operator',
          { name: nameTok.text, suggestion },
          this.src.span(nameTok.start, nameTok.end),
        );
      }
    }
  }

  /** `make-series [Name =] Agg [default = V], ... on T [from A] [to B] step S [by Keys]` (or `in range(A, B, S)`). */
  private parseMakeSeries(): Operator {
    const kind = this.parseKindOption('kind');
    if (kind !== undefined && kind !== 'nonempty')
      throw this.invalidKind('make-series', `unknown make-series kind '${kind}'`, kind, ['nonempty']);
    const aggs: { item: Assignment; defaultValue?: Expr }[] = [];
    do {
      const item = this.parseAssignment();
      let defaultValue: Expr | undefined;
      if (this.isIdent('default') && this.isPunct('=', 1)) {
        this.advance();
        this.advance();
        defaultValue = this.parseExpr();
      }
      aggs.push({ item, defaultValue });
    } while (this.acceptPunct(','));
    this.expectIdent('on');
    const on = this.parseAdditive();
    let from: Expr | undefined;
    let to: Expr | undefined;
    let step: Expr | undefined;
    if (this.acceptIdent('in')) {
      this.expectIdent('range');
      this.expectPunct('(');
      from = this.parseExpr();
      this.expectPunct(',');
      to = this.parseExpr();
      this.expectPunct(',');
      step = this.parseExpr();
      this.expectPunct(')');
    } else {
      if (this.acceptIdent('from')) from = this.parseAdditive();
      if (this.acceptIdent('to')) to = this.parseAdditive();
      this.expectIdent('step');
      step = this.parseAdditive();
    }
    let by: Assignment[] = [];
    if (this.acceptIdent('by')) by = this.parseAssignments();
    const nonempty = kind === 'nonempty' ? { nonempty: true } : {};
    return { kind: 'make-series', aggs, on, from, to, step, by, ...nonempty, span: on.span };
  }

  private parseKindOption(option = 'kind'): string | undefined {
    if (!(this.isIdent(option) && this.isPunct('=', 1))) return undefined;
    this.advance();
    this.advance();
    const t = this.peek();
    if (t.kind !== 'ident' && t.kind !== 'string') throw this.expected(`a value for '${option}'`);
    this.advance();
    this.lastOption = t;
    return t.text;
  }

  /** An unknown `kind=` value (the last option read), with a hint from the allowed values. */
  private invalidKind(name: string, reason: string, value: string, allowed: readonly string[]) {
    const t = this.lastOption;
    const span = t ? this.tokSpan(t) : this.src.span(this.lastEnd, this.lastEnd);
    return aplError('apl_invalid_argument', { name, reason, suggestion: closestName(value, allowed) }, span);
  }

  /**
   * `parse-kv Expr as (k1[:type], ...) [with (pair_delimiter=..., kv_delimiter=... [, quote=..., escape=...,
   * greedy=...]) | with (quote=..., escape=...) | with (regex=...)]`.
   */
  private parseParseKv(): Operator {
    const source = this.parseExpr();
    this.expectIdent('as');
    this.expectPunct('(');
    const keys: { name: string; type: AplType; span: SourceSpan }[] = [];
    do {
      const s = this.peek().start;
      const name = this.parseColumnName();
      let type: AplType = 'string';
      if (this.acceptPunct(':')) {
        const tt = this.peek();
        const t = tt.kind === 'ident' ? typeFromName(tt.text) : undefined;
        if (!t) throw this.expected('a type name', tt, TYPE_NAME_LIST);
        this.advance();
        type = t;
      }
      keys.push({ name, type, span: this.spanFrom(s) });
    } while (this.acceptPunct(','));
    this.expectPunct(')');
    const options = this.parseWithOptions('parse-kv', [
      'pair_delimiter',
      'kv_delimiter',
      'quote',
      'escape',
      'greedy',
      'regex',
    ]);
    const text = (name: string) => {
      const v = options.get(name);
      if (v === undefined) return undefined;
      if (typeof v.value !== 'string' || v.value === '')
        throw aplError(
          'apl_invalid_argument',
          { name: 'parse-kv', reason: `${name} must be a non-empty string` },
          v.span,
        );
      return v.value;
    };
    const pairDelimiter = text('pair_delimiter');
    const kvDelimiter = text('kv_delimiter');
    const regex = text('regex');
    // Kusto's three modes: both delimiters, neither (any non-alphanumeric character separates), a regex.
    if ((pairDelimiter === undefined) !== (kvDelimiter === undefined)) {
      throw aplError(
        'apl_invalid_argument',
        { name: 'parse-kv', reason: 'pair_delimiter and kv_delimiter go together' },
        this.spanFrom(source.span.start),
      );
    }
    if (regex !== undefined && (pairDelimiter !== undefined || options.has('greedy'))) {
      throw aplError(
        'apl_invalid_argument',
        { name: 'parse-kv', reason: 'regex= does not combine with delimiters or greedy' },
        this.spanFrom(source.span.start),
      );
    }
    const greedy = options.get('greedy');
    if (greedy !== undefined && typeof greedy.value !== 'boolean')
      throw aplError(
        'apl_invalid_argument',
        { name: 'parse-kv', reason: 'greedy must be true or false' },
        greedy.span,
      );
    return {
      kind: 'parse-kv',
      source,
      keys,
      pairDelimiter,
      kvDelimiter,
      regex,
      quote: text('quote') ?? '',
      escape: text('escape'),
      greedy: greedy?.value === true,
      span: this.spanFrom(source.span.start),
    };
  }

  /** `with (name = literal, ...)` with the allowed option names. */
  private parseWithOptions(
    operator: string,
    allowed: readonly string[],
  ): Map<string, { value: unknown; span: SourceSpan }> {
    const out = new Map<string, { value: unknown; span: SourceSpan }>();
    if (!this.acceptIdent('with')) return out;
    this.expectPunct('(');
    do {
      const nameTok = this.peek();
      if (nameTok.kind !== 'ident') throw this.expected('an option name', nameTok, allowed);
      if (!allowed.includes(nameTok.text)) {
        throw aplError(
          'apl_invalid_argument',
          {
            name: operator,
            reason: `unknown option '${nameTok.text}'`,
            suggestion: closestName(nameTok.text, allowed),
          },
          this.tokSpan(nameTok),
        );
      }
      this.advance();
      this.expectPunct('=');
      const value = this.parseExpr();
      if (value.kind !== 'literal')
        throw aplError(
          'apl_invalid_argument',
          { name: operator, reason: `${nameTok.text} must be a literal` },
          value.span,
        );
      out.set(nameTok.text, { value: value.value, span: value.span });
    } while (this.acceptPunct(','));
    this.expectPunct(')');
    return out;
  }

  /** `redact [replaceToken="*"] [replaceHash=false] [redactGroups=false] Regex, ... [on Col, ...]`. */
  private parseRedact(): Operator {
    const start = this.lastEnd;
    let replaceToken = '*';
    let redactGroups = false;
    for (;;) {
      const t = this.peek();
      if (t.kind !== 'ident' || !this.isPunct('=', 1)) break;
      if (!['replaceToken', 'replaceHash', 'redactGroups'].includes(t.text)) {
        throw aplError(
          'apl_invalid_argument',
          {
            name: 'redact',
            reason: `unknown option '${t.text}'`,
            suggestion: closestName(t.text, ['replaceToken', 'replaceHash', 'redactGroups']),
          },
          this.tokSpan(t),
        );
      }
      this.advance();
      this.advance();
      const v = this.parseExpr();
      if (t.text === 'replaceToken') {
        if (v.kind !== 'literal' || typeof v.value !== 'string' || v.value === '')
          throw aplError(
            'apl_invalid_argument',
            { name: 'redact', reason: 'replaceToken must be a non-empty string' },
            v.span,
          );
        replaceToken = v.value;
      } else {
        if (v.kind !== 'literal' || typeof v.value !== 'boolean')
          throw aplError(
            'apl_invalid_argument',
            { name: 'redact', reason: `${t.text} must be true or false` },
            v.span,
          );
        if (t.text === 'redactGroups') redactGroups = v.value;
        else if (v.value)
          throw aplError(
            'apl_unsupported',
            { what: 'redact replaceHash=true (Axiom does not document the hash it uses)' },
            this.spanFrom(t.start),
          );
      }
    }
    const patterns: { pattern: string; span: SourceSpan }[] = [];
    do {
      const t = this.peek();
      if (t.kind !== 'string') throw this.expected('a regular expression string', t);
      this.advance();
      patterns.push({ pattern: t.text, span: this.tokSpan(t) });
    } while (this.acceptPunct(','));
    let on: { name: string; span: SourceSpan }[] | undefined;
    if (this.acceptIdent('on')) {
      on = [];
      do {
        const s = this.peek().start;
        const name = this.parseColumnName();
        on.push({ name, span: this.spanFrom(s) });
      } while (this.acceptPunct(','));
    }
    return { kind: 'redact', patterns, replaceToken, redactGroups, on, span: this.spanFrom(start) };
  }

  private parseMvExpand(): Operator {
    let itemIndex: string | undefined;
    let bagExpansion: 'bag' | 'array' = 'bag';
    for (;;) {
      const kind = this.parseKindOption('kind') ?? this.parseKindOption('bagexpansion');
      if (kind !== undefined) {
        if (kind !== 'bag' && kind !== 'array')
          throw this.invalidKind('mv-expand', `unknown bag expansion '${kind}'`, kind, ['bag', 'array']);
        bagExpansion = kind;
        continue;
      }
      const idx = this.parseKindOption('with_itemindex');
      if (idx !== undefined) {
        itemIndex = idx;
        continue;
      }
      break;
    }
    const items: MvExpandItem[] = [];
    do {
      const item = this.parseAssignment();
      let toType: AplType | undefined;
      if (this.acceptIdent('to')) {
        this.expectIdent('typeof');
        this.expectPunct('(');
        const tt = this.advance();
        toType = typeFromName(tt.text);
        if (!toType) throw this.expected('a type name', tt, TYPE_NAME_LIST);
        this.expectPunct(')');
      }
      items.push({ expr: item.expr, name: item.name, toType, span: this.spanFrom(item.span.start) });
    } while (this.acceptPunct(','));
    let limit: number | undefined;
    if (this.acceptIdent('limit')) {
      const t = this.advance();
      if (t.kind !== 'int') throw this.expected('an integer', t);
      limit = t.value;
    }
    return { kind: 'mv-expand', items, itemIndex, limit, bagExpansion, span: items[0].span };
  }

  private parseParse(dropUnmatched: boolean): Operator {
    let mode: 'simple' | 'relaxed' | 'regex' = 'simple';
    let flags: string | undefined;
    let flagsAt: Token | undefined;
    for (;;) {
      const k = this.parseKindOption('kind');
      if (k !== undefined) {
        if (k !== 'simple' && k !== 'relaxed' && k !== 'regex')
          throw this.invalidKind('parse', `unknown parse kind '${k}'`, k, ['simple', 'relaxed', 'regex']);
        mode = k;
        continue;
      }
      const f = this.parseKindOption('flags');
      if (f !== undefined) {
        flags = f;
        flagsAt = this.lastOption;
        if (!/^[imsU]+$/.test(f))
          throw aplError(
            'apl_invalid_argument',
            { name: 'parse', reason: `unknown regex flags '${f}' (allowed: i, m, s, U)` },
            this.tokSpan(flagsAt!),
          );
        continue;
      }
      break;
    }
    if (flags !== undefined && mode !== 'regex')
      throw aplError(
        'apl_invalid_argument',
        { name: 'parse', reason: 'flags= needs kind=regex' },
        this.tokSpan(flagsAt!),
      );
    const source = this.parseAdditive();
    this.expectIdent('with');
    const parts: ParsePart[] = [];
    for (;;) {
      const t = this.peek();
      if (t.kind === 'string') {
        this.advance();
        parts.push({ kind: 'const', text: t.text });
      } else if (this.isPunct('*')) {
        this.advance();
        parts.push({ kind: 'skip' });
      } else if (t.kind === 'ident' || this.isPunct('[')) {
        const name = this.parseColumnName();
        let type: AplType = 'string';
        if (this.acceptPunct(':')) {
          const tt = this.advance();
          const resolved = typeFromName(tt.text);
          if (!resolved) throw this.expected('a type name', tt, TYPE_NAME_LIST);
          type = resolved;
        }
        parts.push({ kind: 'capture', name, type });
      } else {
        break;
      }
    }
    if (parts.length === 0) throw this.expected('a parse pattern');
    return { kind: 'parse', mode, flags, source, parts, dropUnmatched, span: source.span };
  }

  private parseJoin(which: string): Operator {
    const joinKind = this.parseKindOption('kind') ?? (which === 'join' ? 'inner' : 'leftouter');
    // `lookup` has only leftouter and inner (Kusto).
    const allowed =
      which === 'lookup'
        ? ['inner', 'leftouter']
        : [
            'inner',
            'innerunique',
            'leftouter',
            'rightouter',
            'fullouter',
            'leftanti',
            'rightanti',
            'leftsemi',
            'rightsemi',
            'anti',
            'semi',
          ];
    if (!allowed.includes(joinKind)) {
      throw this.invalidKind(
        which,
        which === 'lookup'
          ? `lookup supports only kind=inner or kind=leftouter, not '${joinKind}'`
          : `unknown join kind '${joinKind}'`,
        joinKind,
        allowed,
      );
    }
    let right: TabularExpr;
    const start = this.peek().start;
    if (this.isPunct('(')) {
      this.advance();
      right = this.parseTabular();
      this.expectPunct(')');
    } else {
      const source = this.parseSource();
      right = { source, operators: [], span: this.spanFrom(start) };
    }
    this.expectIdent('on');
    const on: JoinCondition[] = [];
    do {
      const s = this.peek().start;
      if (this.isIdent('$left') || this.isIdent('$right')) {
        const a = this.parseSideRef();
        this.expectPunct('==');
        const b = this.parseSideRef();
        const [l, r] = a.side === '$left' ? [a, b] : [b, a];
        on.push({ left: l.name, right: r.name, span: this.spanFrom(s), leftSpan: l.span, rightSpan: r.span });
      } else {
        const name = this.parseFieldPath();
        on.push({ left: name, right: name, span: this.spanFrom(s) });
      }
    } while (this.acceptPunct(','));
    return { kind: which === 'join' ? 'join' : 'lookup', joinKind, right, on, span: this.spanFrom(start) };
  }

  private parseSideRef(): { side: string; name: string; span: SourceSpan } {
    const side = this.advance();
    if (side.text !== '$left' && side.text !== '$right') throw this.expected('$left or $right', side);
    this.expectPunct('.');
    const at = this.peek().start;
    return { side: side.text, name: this.parseFieldPath(), span: this.spanFrom(at) };
  }

  private parseUnionArgs(): { tables: TabularExpr[]; withSource?: string } {
    let withSource: string | undefined;
    for (;;) {
      const ws = this.parseKindOption('withsource');
      if (ws !== undefined) {
        withSource = ws;
        continue;
      }
      if (this.parseKindOption('kind') !== undefined) continue;
      if (this.parseKindOption('isfuzzy') !== undefined) continue;
      break;
    }
    const tables: TabularExpr[] = [];
    do {
      const start = this.peek().start;
      if (this.isPunct('(')) {
        this.advance();
        tables.push(this.parseTabular());
        this.expectPunct(')');
      } else {
        const source = this.parseDatasetRef();
        tables.push({ source, operators: [], span: this.spanFrom(start) });
      }
    } while (this.acceptPunct(','));
    return { tables, withSource };
  }

  private parsePatterns(allowOrder: boolean): NamePattern[] {
    const out: NamePattern[] = [];
    do {
      const s = this.peek().start;
      // The pieces of a pattern touch each other: `resp*`, `*_id`, `a*b`, `['geo.']*`, and dotted paths
      // (`geo.city`, `geo.*`, `['geo']['city']`) name flattened fields. Only a `*` outside quotes is a
      // wildcard: `['a*']` is the column literally named `a*`.
      let pattern = '';
      let wildcard = false;
      for (let first = true; ; first = false) {
        if (!first && this.peek().start !== this.lastEnd) break;
        if (this.isPunct('*')) {
          this.advance();
          pattern += '*';
          wildcard = true;
        } else if (this.isPunct('[') && (first || this.peek(1).kind === 'string')) {
          const name = this.parseBracketName();
          pattern += first || pattern.endsWith('*') || pattern.endsWith('.') ? name : `.${name}`;
        } else if (this.peek().kind === 'ident' || (!first && this.peek().kind === 'int')) {
          pattern += this.advance().text;
        } else if (!first && this.isPunct('.') && this.peek(1).start === this.peek().end) {
          this.advance();
          pattern += '.';
        } else if (first) {
          throw this.expected('a column name');
        } else break;
      }
      let order: NamePattern['order'];
      if (allowOrder) {
        if (this.isIdent('asc') || this.isIdent('desc')) order = this.advance().text as 'asc' | 'desc';
        else if (
          this.isIdent('granny') &&
          this.isPunct('-', 1) &&
          (this.isIdent('asc', 2) || this.isIdent('desc', 2))
        ) {
          this.advance();
          this.advance();
          order = `granny-${this.advance().text}` as 'granny-asc' | 'granny-desc';
        }
      }
      out.push({ pattern, wildcard, order, span: this.spanFrom(s) });
    } while (this.acceptPunct(','));
    return out;
  }

  private parseSortKeys(): SortKey[] {
    const keys: SortKey[] = [];
    do {
      const start = this.peek().start;
      const expr = this.parseExpr();
      let desc = true;
      if (this.acceptIdent('asc')) desc = false;
      else if (this.acceptIdent('desc')) desc = true;
      let nullsFirst: boolean | undefined;
      if (this.acceptIdent('nulls')) {
        if (this.acceptIdent('first')) nullsFirst = true;
        else if (this.acceptIdent('last')) nullsFirst = false;
        else throw this.expected("'first' or 'last'", this.peek(), ['first', 'last']);
      }
      keys.push({ expr, desc, nullsFirst, span: this.spanFrom(start) });
    } while (this.acceptPunct(','));
    return keys;
  }

  private parseAssignments(): Assignment[] {
    const items: Assignment[] = [];
    do items.push(this.parseAssignment());
    while (this.acceptPunct(','));
    return items;
  }

  private parseAssignment(): Assignment {
    const start = this.peek().start;
    const t = this.peek();
    const tupleLength = this.tupleAssignmentLength();
    if (tupleLength > 0) {
      this.advance();
      const names: { name: string; span: SourceSpan }[] = [];
      for (let i = 0; i < tupleLength; i++) {
        const n = this.advance();
        names.push({ name: n.text, span: this.tokSpan(n) });
        this.advance(); // ',' or ')'
      }
      this.expectPunct('=');
      const expr = this.parseExpr();
      return { names, expr, span: this.spanFrom(start) };
    }
    if (t.kind === 'ident' && this.isPunct('=', 1)) {
      this.advance();
      this.advance();
      const expr = this.parseExpr();
      return { name: t.text, nameSpan: this.tokSpan(t), expr, span: this.spanFrom(start) };
    }
    if (this.isPunct('[') && this.peek(1).kind === 'string' && this.isPunct(']', 2) && this.isPunct('=', 3)) {
      const nameSpanStart = t.start;
      const name = this.parseBracketName();
      const nameSpan = this.spanFrom(nameSpanStart);
      this.expectPunct('=');
      const expr = this.parseExpr();
      return { name, nameSpan, expr, span: this.spanFrom(start) };
    }
    const expr = this.parseExpr();
    return { expr, span: this.spanFrom(start) };
  }

  /** The number of names when the next tokens are `(a, b, …) =` (Kusto's tuple assignment), else 0. */
  private tupleAssignmentLength(): number {
    if (!this.isPunct('(')) return 0;
    for (let i = 1; ; i += 2) {
      if (this.peek(i).kind !== 'ident') return 0;
      if (this.isPunct(')', i + 1)) return this.isPunct('=', i + 2) ? (i + 1) / 2 : 0;
      if (!this.isPunct(',', i + 1)) return 0;
    }
  }

  // ---- scalar expressions ----

  parseExpr(): Expr {
    return this.nested(() => this.parseOr());
  }

  private binary(op: string, left: Expr, right: Expr, opTok: Token): Expr {
    const depth = Math.max(this.chainDepth.get(left) ?? 0, this.chainDepth.get(right) ?? 0) + 1;
    if (depth > MAX_OPERATOR_CHAIN) {
      throw aplError('apl_too_complex', { limit: MAX_OPERATOR_CHAIN }, this.tokSpan(opTok));
    }
    const node: Expr = {
      kind: 'binary',
      op,
      left,
      right,
      opSpan: this.tokSpan(opTok),
      span: this.src.span(left.span.start, right.span.end),
    };
    this.chainDepth.set(node, depth);
    return node;
  }

  private parseOr(): Expr {
    let left = this.parseAnd();
    while (this.isIdent('or')) {
      const opTok = this.advance();
      left = this.binary('or', left, this.parseAnd(), opTok);
    }
    return left;
  }

  private parseAnd(): Expr {
    let left = this.parseComparison();
    while (this.isIdent('and')) {
      const opTok = this.advance();
      left = this.binary('and', left, this.parseComparison(), opTok);
    }
    return left;
  }

  private parseComparison(): Expr {
    const left = this.parseAdditive();
    const t = this.peek();
    if (this.searchDepth > 0 && t.kind === 'punct' && t.text === ':' && left.kind === 'name') {
      // `search Field:"term"`: the term applies to one field.
      this.advance();
      return this.binary(':', left, this.parseAdditive(), t);
    }
    if (t.kind === 'punct' && COMPARISON_PUNCT.has(t.text)) {
      this.advance();
      const op = t.text === '<>' ? '!=' : t.text;
      return this.binary(op, left, this.parseAdditive(), t);
    }
    if (t.kind !== 'ident') return left;
    if (STRING_OPERATORS.has(t.text)) {
      this.advance();
      return this.binary(t.text, left, this.parseAdditive(), t);
    }
    if ((t.text === 'matches' || t.text === '!matches') && this.isIdent('regex', 1)) {
      this.advance();
      this.advance();
      return this.binary(
        t.text === 'matches' ? 'matches regex' : '!matches regex',
        left,
        this.parseAdditive(),
        t,
      );
    }
    if (LIST_OPERATORS.has(t.text)) {
      this.advance();
      this.expectPunct('(');
      if (this.looksTabularInList()) {
        const subquery = this.parseTabular();
        this.expectPunct(')');
        return {
          kind: 'in',
          op: t.text,
          left,
          list: [],
          subquery,
          span: this.src.span(left.span.start, this.lastEnd),
        };
      }
      const list: Expr[] = [];
      do list.push(this.parseExpr());
      while (this.acceptPunct(','));
      this.expectPunct(')');
      return { kind: 'in', op: t.text, left, list, span: this.src.span(left.span.start, this.lastEnd) };
    }
    if (t.text === 'between' || t.text === '!between') {
      this.advance();
      this.expectPunct('(');
      const low = this.parseAdditive();
      this.expectPunct('..');
      const high = this.parseAdditive();
      this.expectPunct(')');
      return {
        kind: 'between',
        negated: t.text === '!between',
        left,
        low,
        high,
        span: this.src.span(left.span.start, this.lastEnd),
      };
    }
    return left;
  }

  private parseAdditive(): Expr {
    let left = this.parseMultiplicative();
    while (this.isPunct('+') || this.isPunct('-')) {
      const opTok = this.advance();
      left = this.binary(opTok.text, left, this.parseMultiplicative(), opTok);
    }
    return left;
  }

  private parseMultiplicative(): Expr {
    let left = this.parseUnary();
    while (this.isPunct('*') || this.isPunct('/') || this.isPunct('%')) {
      const opTok = this.advance();
      left = this.binary(opTok.text, left, this.parseUnary(), opTok);
    }
    return left;
  }

  private parseUnary(): Expr {
    if (this.searchDepth > 0 && this.isIdent('not') && !this.isPunct('(', 1)) {
      // `search not "term"`: a prefix keyword inside search predicates.
      const t = this.advance();
      const operand = this.nested(() => this.parseComparison());
      return {
        kind: 'call',
        name: 'not',
        args: [operand],
        nameSpan: this.tokSpan(t),
        span: this.spanFrom(t.start),
      };
    }
    if (this.isPunct('-') || this.isPunct('+')) {
      const opTok = this.advance();
      const operand = this.nested(() => this.parseUnary());
      const span = this.src.span(opTok.start, operand.span.end);
      if (operand.kind === 'literal' && typeof operand.value === 'number' && opTok.text === '-') {
        return { ...operand, value: -operand.value, span };
      }
      if (opTok.text === '+') return { ...operand, span };
      return { kind: 'unary', op: '-', operand, span };
    }
    return this.parsePostfix();
  }

  private parsePostfix(): Expr {
    let expr = this.parsePrimary();
    for (;;) {
      if (this.isPunct('.') && this.peek(1).kind === 'ident') {
        this.advance();
        const name = this.advance();
        expr = {
          kind: 'member',
          target: expr,
          name: name.text,
          span: this.src.span(expr.span.start, name.end),
        };
      } else if (this.isPunct('.') && this.isPunct('[', 1)) {
        this.advance();
      } else if (this.isPunct('[')) {
        this.advance();
        const index = this.parseExpr();
        this.expectPunct(']');
        expr = { kind: 'index', target: expr, index, span: this.src.span(expr.span.start, this.lastEnd) };
      } else {
        return expr;
      }
    }
  }

  private parsePrimary(): Expr {
    const t = this.peek();
    switch (t.kind) {
      case 'int':
        this.advance();
        return { kind: 'literal', type: 'long', value: t.value, span: this.tokSpan(t) };
      case 'real':
        this.advance();
        return { kind: 'literal', type: 'real', value: t.value, span: this.tokSpan(t) };
      case 'timespan':
        this.advance();
        return { kind: 'literal', type: 'timespan', value: t.value, span: this.tokSpan(t) };
      case 'string':
        this.advance();
        return { kind: 'literal', type: 'string', value: t.text, span: this.tokSpan(t) };
      case 'ident':
        return this.parseIdentExpr();
      case 'punct':
        if (t.text === '(') {
          this.advance();
          const inner = this.parseExpr();
          this.expectPunct(')');
          return inner;
        }
        if (t.text === '[' && this.peek(1).kind === 'string') {
          const name = this.parseBracketName();
          return { kind: 'name', name, quoted: true, span: this.spanFrom(t.start) };
        }
        if (t.text === '*') {
          this.advance();
          return { kind: 'star', span: this.tokSpan(t) };
        }
        throw this.expected('an expression', t);
      default:
        throw this.expected('an expression', t);
    }
  }

  private parseIdentExpr(): Expr {
    const t = this.advance();
    const name = t.text;
    if (name === 'true' || name === 'false') {
      return { kind: 'literal', type: 'bool', value: name === 'true', span: this.tokSpan(t) };
    }
    if (name === 'null' && !this.isPunct('(')) {
      // Bare `null`: a null of no particular type (dynamic), like `dynamic(null)`.
      return { kind: 'literal', type: 'dynamic', value: null, span: this.tokSpan(t) };
    }
    if (!this.isPunct('(')) return { kind: 'name', name, quoted: false, span: this.tokSpan(t) };
    if (name === 'datetime' || name === 'date') return this.parseDatetimeLiteral(t);
    if (name === 'dynamic') {
      this.advance();
      const value = this.parseDynamicValue();
      this.expectPunct(')');
      return { kind: 'literal', type: 'dynamic', value, span: this.spanFrom(t.start) };
    }
    if (name === 'toscalar') return this.parseToscalar(t);
    if (name === 'typeof') {
      this.advance();
      const tt = this.advance();
      const type = typeFromName(tt.text);
      if (!type) throw this.expected('a type name', tt, TYPE_NAME_LIST);
      this.expectPunct(')');
      return { kind: 'typeof', type, span: this.spanFrom(t.start) };
    }
    const typed = typeFromName(name);
    if (typed && this.isIdent('null', 1) && this.isPunct(')', 2)) {
      this.advance();
      this.advance();
      this.advance();
      return { kind: 'literal', type: typed, value: null, span: this.spanFrom(t.start) };
    }
    if (typed === 'timespan' && this.peek(1).kind === 'timespan' && this.isPunct(')', 2)) {
      this.advance();
      const v = this.advance();
      this.advance();
      return { kind: 'literal', type: 'timespan', value: v.value, span: this.spanFrom(t.start) };
    }
    this.advance(); // (
    const args: Expr[] = [];
    if (!this.isPunct(')')) {
      do args.push(this.parseExpr());
      while (this.acceptPunct(','));
    }
    this.expectPunct(')');
    const span = this.spanFrom(t.start);
    // `long(11)`, `real(1)`, `bool(true)`: typed literals written as calls.
    if (typed && typed !== 'dynamic' && args.length === 1 && args[0].kind === 'literal') {
      const lit = args[0];
      if (typed === 'long' && typeof lit.value === 'number')
        return { kind: 'literal', type: 'long', value: Math.trunc(lit.value), span };
      if (typed === 'real' && typeof lit.value === 'number')
        return { kind: 'literal', type: 'real', value: lit.value, span };
      if (typed === 'bool' && typeof lit.value === 'boolean')
        return { kind: 'literal', type: 'bool', value: lit.value, span };
      if (typed === 'string' && typeof lit.value === 'string')
        return { kind: 'literal', type: 'string', value: lit.value, span };
    }
    return { kind: 'call', name, args, nameSpan: this.tokSpan(t), span };
  }

  /**
   * `toscalar(T | ...)`: an `in` node with op `toscalar` whose subquery the caller runs before planning
   * (ast.ts). `toscalar(expr)` of a scalar is the scalar itself.
   */
  private parseToscalar(nameTok: Token): Expr {
    this.advance(); // (
    const tabular = this.looksTabularInList() || this.looksTabular() || this.isIdent('print');
    if (!tabular) {
      const inner = this.parseExpr();
      this.expectPunct(')');
      return inner;
    }
    const subquery = this.parseTabular();
    this.expectPunct(')');
    const span = this.spanFrom(nameTok.start);
    const left: Expr = { kind: 'literal', type: 'dynamic', value: null, span: this.tokSpan(nameTok) };
    return { kind: 'in', op: 'toscalar', left, list: [], subquery, span };
  }

  /** `datetime(...)` holds raw text (`2024-05-01 12:00:00`), so it is read from the source, not as tokens. */
  private parseDatetimeLiteral(nameTok: Token): Expr {
    const paren = this.advance();
    this.lookahead = [];
    const text = this.src.text;
    const close = text.indexOf(')', paren.end);
    if (close < 0)
      throw this.expected("')'", { kind: 'eof', text: '', start: text.length, end: text.length });
    let raw = text.slice(paren.end, close).trim();
    this.lexer.pos = close + 1;
    this.lastEnd = close + 1;
    const span = this.src.span(nameTok.start, close + 1);
    if ((raw.startsWith('"') && raw.endsWith('"')) || (raw.startsWith("'") && raw.endsWith("'")))
      raw = raw.slice(1, -1);
    if (raw === 'null') return { kind: 'literal', type: 'datetime', value: null, span };
    const ms = parseKustoDatetime(raw);
    if (ms === null) throw aplError('apl_invalid_datetime', { text: raw }, span);
    return { kind: 'literal', type: 'datetime', value: ms, span };
  }

  private parseDynamicValue(): unknown {
    return this.nested(() => this.parseDynamicValueInner());
  }

  private parseDynamicValueInner(): unknown {
    const t = this.peek();
    if (this.acceptPunct('[')) {
      const arr: unknown[] = [];
      if (!this.isPunct(']')) {
        do arr.push(this.parseDynamicValue());
        while (this.acceptPunct(','));
      }
      this.expectPunct(']');
      return arr;
    }
    if (this.acceptPunct('{')) {
      const obj: Record<string, unknown> = {};
      if (!this.isPunct('}')) {
        do {
          const k = this.advance();
          if (k.kind !== 'string' && k.kind !== 'ident') throw this.expected('a property name', k);
          this.expectPunct(':');
          obj[k.text] = this.parseDynamicValue();
        } while (this.acceptPunct(','));
      }
      this.expectPunct('}');
      return obj;
    }
    if (this.isPunct('-')) {
      this.advance();
      const n = this.advance();
      if (n.kind !== 'int' && n.kind !== 'real' && n.kind !== 'timespan') throw this.expected('a number', n);
      return -(n.value as number);
    }
    switch (t.kind) {
      case 'string':
        this.advance();
        return t.text;
      case 'int':
      case 'real':
      case 'timespan':
        this.advance();
        return t.value;
      case 'ident':
        if (t.text === 'true' || t.text === 'false' || t.text === 'null') {
          this.advance();
          return t.text === 'null' ? null : t.text === 'true';
        }
        break;
      default:
        break;
    }
    throw aplError('apl_invalid_dynamic', { reason: `unexpected ${describeToken(t)}` }, this.tokSpan(t));
  }
}
