/**
 * Scalar expressions by precedence (high → low): postfix (`.`, `[]`, calls), unary, `* / %`, `+ -`,
 * comparisons and string operators (non-associative), `and`, `or`; literals (datetime, dynamic, typed),
 * names, assignments, sort keys and name patterns.
 */
import { formatRfc3339, markLongArray, parseKustoDatetime, type SourceSpan } from '@quarry/common';
import type { Assignment, Expr, FunctionDefinition, NamePattern, SortKey, TabularExpr } from '../ast';
import { aplError } from '../diagnostics';
import { describeToken, type Token } from '../tokens';
import {
  STRING_OPERATORS,
  LIST_OPERATORS,
  COMPARISON_PUNCT,
  MAX_OPERATOR_CHAIN,
  TYPE_NAME_LIST,
  typeFromName,
} from './grammar';
import { Lookahead } from './lookahead';
import { timespanFromText, timespanText } from '../timespan';

/** Kusto's names of the guid type (Quarry holds a guid as its text). */
const GUID_NAMES = new Set(['guid', 'uuid', 'uniqueid']);
const GUID_TEXT = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

export abstract class ExpressionParser extends Lookahead {
  /** Parsed by QueryParser: a tabular expression (subqueries of `in`, `toscalar`). */
  protected abstract parseTabular(): TabularExpr;

  /** Whether the number a dynamic literal's value parser last read was written as an integer. */
  private dynamicNumberIsLong = false;

  protected parseBracketName(): string {
    this.expectPunct('[');
    const t = this.peek();
    if (t.kind !== 'string') throw this.expected('a quoted name');
    this.advance();
    this.expectPunct(']');
    return t.text;
  }

  /**
   * A column name that may be a dotted path: `geo.city`, `['geo']['city']` and `['geo.city']` all name the
   * flattened field `geo.city` (apl.md §2).
   */
  protected parseFieldPath(): string {
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

  protected parseColumnName(): string {
    if (this.isPunct('[')) return this.parseBracketName();
    const t = this.peek();
    if (t.kind !== 'ident') throw this.expected('a column name');
    this.advance();
    return t.text;
  }

  protected parsePatterns(allowOrder: boolean): NamePattern[] {
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

  protected parseSortKeys(): SortKey[] {
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

  protected parseAssignments(): Assignment[] {
    const items: Assignment[] = [];
    do items.push(this.parseAssignment());
    while (this.acceptPunct(','));
    return items;
  }

  protected parseAssignment(): Assignment {
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
  protected tupleAssignmentLength(): number {
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

  protected binary(op: string, left: Expr, right: Expr, opTok: Token): Expr {
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

  protected parseOr(): Expr {
    let left = this.parseAnd();
    while (this.isIdent('or')) {
      const opTok = this.advance();
      left = this.binary('or', left, this.parseAnd(), opTok);
    }
    return left;
  }

  protected parseAnd(): Expr {
    let left = this.parseComparison();
    while (this.isIdent('and')) {
      const opTok = this.advance();
      left = this.binary('and', left, this.parseComparison(), opTok);
    }
    return left;
  }

  protected parseComparison(): Expr {
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

  protected parseAdditive(): Expr {
    let left = this.parseMultiplicative();
    while (this.isPunct('+') || this.isPunct('-')) {
      const opTok = this.advance();
      left = this.binary(opTok.text, left, this.parseMultiplicative(), opTok);
    }
    return left;
  }

  protected parseMultiplicative(): Expr {
    let left = this.parseUnary();
    while (this.isPunct('*') || this.isPunct('/') || this.isPunct('%')) {
      const opTok = this.advance();
      left = this.binary(opTok.text, left, this.parseUnary(), opTok);
    }
    return left;
  }

  protected parseUnary(): Expr {
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

  protected parsePostfix(): Expr {
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

  protected parsePrimary(): Expr {
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

  protected parseIdentExpr(): Expr {
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
    const special = typed === 'real' ? this.specialRealAt(0) : undefined;
    if (special) {
      // `real(nan)`, `real(+inf)`, `real(-inf)`: Kusto's special real literals.
      for (let i = 0; i < special.tokens + 2; i++) this.advance();
      return { kind: 'literal', type: 'real', value: special.value, span: this.spanFrom(t.start) };
    }
    if (typed === 'timespan') {
      const literal = this.parseTimespanLiteral(t);
      if (literal) return literal;
    }
    if (typed === 'timespan' && this.peek(1).kind === 'timespan' && this.isPunct(')', 2)) {
      this.advance();
      const v = this.advance();
      this.advance();
      return { kind: 'literal', type: 'timespan', value: v.value, span: this.spanFrom(t.start) };
    }
    this.advance(); // (
    const udf = this.functions.get(name);
    const { args, argNames } = this.parseCallArguments(udf, undefined, name);
    this.expectPunct(')');
    const span = this.spanFrom(t.start);
    if (argNames.some((n) => n !== undefined))
      return { kind: 'call', name, args, argNames, nameSpan: this.tokSpan(t), span };
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
  protected parseToscalar(nameTok: Token): Expr {
    this.advance(); // (
    const tabular = this.looksTabularInList() || this.looksTabular() || this.isIdent('print');
    if (!tabular) {
      const inner = this.parseExpr();
      this.expectPunct(')');
      return inner;
    }
    const query = this.parseTabular();
    this.expectPunct(')');
    const span = this.spanFrom(nameTok.start);
    // `T | take 1`: the caller keeps the first column's non-null values, so of one row only, Kusto's
    // first row (null when that row's value is null or T is empty).
    const one: Expr = { kind: 'literal', type: 'long', value: 1, span: query.span };
    const subquery: TabularExpr = {
      source: { kind: 'subquery', query, span: query.span },
      operators: [{ kind: 'take', count: one, span: query.span }],
      span: query.span,
    };
    const left: Expr = { kind: 'literal', type: 'dynamic', value: null, span: this.tokSpan(nameTok) };
    return { kind: 'in', op: 'toscalar', left, list: [], subquery, span };
  }

  /** `datetime(...)` holds raw text (`2024-05-01 12:00:00`), so it is read from the source, not as tokens. */
  /**
   * The raw text between the `(` the cursor is at and the next `)`, trimmed and unquoted, with the cursor
   * moved past the `)`: datetime and guid literals are not tokens (`datetime(2024-01-01 10:00)`), so
   * their text is read as written. `close` is the offset of the `)`.
   */
  private readRawParenText(): { raw: string; close: number } {
    const paren = this.advance();
    this.lookahead = [];
    const text = this.src.text;
    const close = text.indexOf(')', paren.end);
    if (close < 0)
      throw this.expected("')'", { kind: 'eof', text: '', start: text.length, end: text.length });
    let raw = text.slice(paren.end, close).trim();
    this.lexer.pos = close + 1;
    this.lastEnd = close + 1;
    if ((raw.startsWith('"') && raw.endsWith('"')) || (raw.startsWith("'") && raw.endsWith("'")))
      raw = raw.slice(1, -1);
    return { raw, close };
  }

  protected parseDatetimeLiteral(nameTok: Token): Expr {
    const { raw, close } = this.readRawParenText();
    const span = this.src.span(nameTok.start, close + 1);
    if (raw === 'null') return { kind: 'literal', type: 'datetime', value: null, span };
    const ms = DATE_PARTS.test(raw) ? datetimeFromParts(raw) : parseKustoDatetime(raw);
    if (ms === null) throw aplError('apl_invalid_datetime', { text: raw }, span);
    return { kind: 'literal', type: 'datetime', value: ms, span };
  }

  /**
   * `timespan(...)` / `time(...)` holding one of the texts of Kusto's timespan page: `2h`, `1.5h`,
   * `15 seconds`, `2` (days), `null`, and `[-][d.]hh:mm[:ss[.fffffff]]` (`time(0.12:34:56.7)`,
   * `timespan(01:02:03)`). The text is read raw (`1.02:03:04` is no token sequence); undefined, with the
   * cursor unmoved, where the text is none of these (the tokens are parsed as before). A text with a `:`
   * that is no valid timespan (`time(25:00:00)`) is an error at the literal.
   */
  protected parseTimespanLiteral(nameTok: Token, parenAt = 0): Expr | undefined {
    const paren = this.peek(parenAt);
    const text = this.src.text;
    const close = text.indexOf(')', paren.end);
    if (close < 0) return undefined;
    const raw = text.slice(paren.end, close).trim();
    const span = this.src.span(nameTok.start, close + 1);
    let value: number | null;
    if (raw === 'null') value = null;
    else {
      const ms = timespanFromText(raw);
      if (ms === undefined) {
        if (!raw.includes(':') || /[()"'\n]/.test(raw)) return undefined;
        throw aplError(
          'apl_invalid_argument',
          {
            name: nameTok.text,
            reason: `'${raw}' is not a timespan: Kusto's forms are 2d, 1.5h, 15 seconds, 2 (days) and [d.]hh:mm[:ss[.fffffff]] with hours below 24 and minutes and seconds below 60`,
          },
          span,
        );
      }
      value = ms;
    }
    for (let i = 0; i < parenAt; i++) this.advance(); // the name, where the caller had not read it
    this.readRawParenText();
    return { kind: 'literal', type: 'timespan', value, span };
  }

  protected parseDynamicValue(): unknown {
    return this.nested(() => this.parseDynamicValueInner());
  }

  protected parseDynamicValueInner(): unknown {
    const t = this.peek();
    if (this.acceptPunct('[')) {
      const arr: unknown[] = [];
      // Whether every element is a number written as an integer (`1`, `-2`, `long(3)`), with at least
      // one: then the array holds longs, as Kusto types it (`long-arrays.ts` in @quarry/common).
      let longs = true;
      let numbers = 0;
      if (!this.isPunct(']')) {
        do {
          const value = this.parseDynamicValue();
          arr.push(value);
          if (typeof value === 'number') {
            numbers++;
            longs &&= this.dynamicNumberIsLong;
          } else if (value !== null) longs = false;
        } while (this.acceptPunct(','));
      }
      this.expectPunct(']');
      return longs && numbers > 0 ? markLongArray(arr) : arr;
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
      this.dynamicNumberIsLong = n.kind === 'int';
      return -(n.value as number);
    }
    switch (t.kind) {
      case 'string':
        this.advance();
        return t.text;
      case 'int':
      case 'real':
        this.advance();
        this.dynamicNumberIsLong = t.kind === 'int';
        return t.value;
      case 'timespan':
        // A timespan literal is held as Kusto's text (`1.00:00:00`), as `pack_array(1d)` holds it.
        this.advance();
        return timespanText(t.value as number);
      case 'ident':
        if (t.text === 'true' || t.text === 'false' || t.text === 'null') {
          this.advance();
          return t.text === 'null' ? null : t.text === 'true';
        }
        // Kusto's dynamic page: an array holds "dynamic or other scalar literals", so a nested
        // `dynamic(...)` is its value and a `datetime(...)` is held as its RFC 3339 text (as pack_array does).
        if (t.text === 'dynamic' && this.isPunct('(', 1)) {
          this.advance();
          this.advance();
          const inner = this.parseDynamicValue();
          this.expectPunct(')');
          return inner;
        }
        if ((t.text === 'datetime' || t.text === 'date') && this.isPunct('(', 1)) {
          this.advance();
          const lit = this.parseDatetimeLiteral(t);
          return lit.kind === 'literal' && typeof lit.value === 'number' ? formatRfc3339(lit.value) : null;
        }
        if (GUID_NAMES.has(t.text) && this.isPunct('(', 1)) return this.parseGuidText(t);
        if (typeFromName(t.text) === 'timespan' && this.isPunct('(', 1)) {
          // `time(1.02:03:04)` inside a dynamic literal: its Kusto text, as a bare `1d` is held.
          const lit = this.parseTimespanLiteral(t, 1);
          if (lit?.kind === 'literal') return typeof lit.value === 'number' ? timespanText(lit.value) : null;
          return this.parseTypedDynamicValue(t);
        }
        if (typeFromName(t.text) && this.isPunct('(', 1)) return this.parseTypedDynamicValue(t);
        break;
      default:
        break;
    }
    throw aplError('apl_invalid_dynamic', { reason: `unexpected ${describeToken(t)}` }, this.tokSpan(t));
  }

  /**
   * `long(1)`, `int(-2)`, `real(1.5)`, `bool(true)`, `string("x")`, `timespan(1d)` / `time(1d)` inside a
   * `dynamic(...)` literal (Kusto's dynamic page: the literal "may also include other Kusto literals"): the
   * JSON value of the literal, a number, a boolean or a text; a timespan as its text, since Kusto
   * serializes values JSON cannot represent as strings. `T(null)` is null.
   */
  protected parseTypedDynamicValue(nameTok: Token): unknown {
    const type = typeFromName(nameTok.text)!;
    this.advance(); // name
    this.advance(); // (
    const inner = this.peek();
    const value = this.parseDynamicValue();
    this.expectPunct(')');
    if (value === null) return null;
    const bad = (): never => {
      throw aplError(
        'apl_invalid_dynamic',
        { reason: `${nameTok.text}(...) holds ${describeToken(inner)}` },
        this.spanFrom(nameTok.start),
      );
    };
    switch (type) {
      case 'long':
        this.dynamicNumberIsLong = true;
        return typeof value === 'number' ? Math.trunc(value) : bad();
      case 'real':
        this.dynamicNumberIsLong = false;
        return typeof value === 'number' ? value : bad();
      case 'bool':
        return typeof value === 'boolean' ? value : bad();
      case 'string':
        return typeof value === 'string' ? value : bad();
      case 'timespan':
        return typeof value === 'string' && inner.kind === 'timespan' ? value : bad();
      case 'dynamic':
        return value;
      default:
        return bad();
    }
  }

  /** `guid(74be27de-1e4e-49d9-b579-fe0b331d3642)` inside a dynamic literal: its text (Quarry has no guid type). */
  protected parseGuidText(nameTok: Token): unknown {
    this.advance(); // name
    const { raw, close } = this.readRawParenText();
    if (raw === 'null') return null;
    if (!GUID_TEXT.test(raw)) {
      throw aplError(
        'apl_invalid_dynamic',
        { reason: `'${raw}' is not a guid` },
        this.src.span(nameTok.start, close + 1),
      );
    }
    return raw.toLowerCase();
  }

  /**
   * The arguments of a call up to `)`. For a user-defined function (`definition`), an argument may name
   * its parameter (`f(c = 7, a = 12)`: Kusto's "callers may provide arguments in an order that doesn't
   * match … they must name their arguments"), positional ones first; one for a tabular parameter is a
   * tabular expression. `skip` names parameters given already (`T` of `T | invoke f(…)`). `callee` names
   * a built-in function, whose arguments go by position: a named one is refused with that reason.
   */
  protected parseCallArguments(
    definition?: FunctionDefinition,
    skip: ReadonlySet<string> = new Set(),
    callee?: string,
  ): { args: Expr[]; argNames: (string | undefined)[] } {
    const args: Expr[] = [];
    const argNames: (string | undefined)[] = [];
    if (this.isPunct(')')) return { args, argNames };
    const positional = definition?.params.filter((p) => !skip.has(p.name)) ?? [];
    do {
      let name: string | undefined;
      const nameTok = this.peek();
      if (!definition && callee !== undefined && nameTok.kind === 'ident' && this.isPunct('=', 1)) {
        throw aplError(
          'apl_invalid_argument',
          {
            name: callee,
            reason: `'${nameTok.text} = …': a built-in function takes its arguments by position (named arguments are for user-defined functions)`,
          },
          this.tokSpan(nameTok),
        );
      }
      if (definition && nameTok.kind === 'ident' && this.isPunct('=', 1)) {
        name = nameTok.text;
        this.advance();
        this.advance();
      } else if (argNames.some((n) => n !== undefined)) {
        throw aplError(
          'apl_invalid_argument',
          { name: definition!.name, reason: 'a positional argument follows a named one' },
          this.tokSpan(nameTok),
        );
      }
      const param =
        name === undefined ? positional[args.length] : definition?.params.find((p) => p.name === name);
      if (definition && name !== undefined && (!param || skip.has(name))) {
        throw aplError(
          'apl_invalid_argument',
          {
            name: definition.name,
            reason: param
              ? `parameter '${name}' is the table left of invoke`
              : `it has no parameter '${name}' (parameters: ${definition.params.map((p) => p.name).join(', ') || 'none'})`,
          },
          this.tokSpan(nameTok),
        );
      }
      if (definition && name !== undefined && argNames.includes(name)) {
        throw aplError(
          'apl_invalid_argument',
          { name: definition.name, reason: `parameter '${name}' is given twice` },
          this.tokSpan(nameTok),
        );
      }
      args.push(param?.table ? this.parseTableArgument() : this.parseExpr());
      argNames.push(name);
    } while (this.acceptPunct(','));
    return { args, argNames };
  }

  /** A tabular argument: an `in` node with op `table` holding the table (see FunctionInvocation). */
  protected parseTableArgument(): Expr {
    const start = this.peek().start;
    const query = this.parseTabular();
    const span = this.spanFrom(start);
    const left: Expr = { kind: 'literal', type: 'dynamic', value: null, span };
    return { kind: 'in', op: 'table', left, list: [], subquery: query, span };
  }

  /** After `real`: `(nan)`, `(inf)`, `(+inf)`, `(-inf)` (`offset` at the `(`), with the tokens inside. */
  protected specialRealAt(offset: number): { value: number; tokens: number } | undefined {
    if (!this.isPunct('(', offset)) return undefined;
    const sign = this.isPunct('-', offset + 1) ? -1 : this.isPunct('+', offset + 1) ? 1 : 0;
    const at = offset + 1 + (sign === 0 ? 0 : 1);
    const word = this.peek(at);
    if (word.kind !== 'ident' || !this.isPunct(')', at + 1)) return undefined;
    const tokens = sign === 0 ? 1 : 2;
    if (word.text === 'nan' && sign === 0) return { value: Number.NaN, tokens };
    if (word.text === 'inf') return { value: sign < 0 ? -Infinity : Infinity, tokens };
    return undefined;
  }
}

/** `2025, 6, 14`: the year, month, day form of a datetime literal (Kusto's startofweek page writes it). */
const DATE_PARTS = /^(\d{1,4})\s*,\s*(\d{1,2})\s*,\s*(\d{1,2})$/;

/** Midnight UTC of `year, month, day`; null for a month or a day the calendar lacks (`2025, 2, 30`). */
function datetimeFromParts(raw: string): number | null {
  const m = DATE_PARTS.exec(raw)!;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  const valid =
    year >= 1 &&
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day;
  return valid ? date.getTime() : null;
}
