/** The tabular operators after `|`, each with its options (`kind=`, `with (...)`, `flags=`). */
import { type SourceSpan } from '@quarry/common';
import type {
  AplType,
  MvExpandItem,
  Assignment,
  Expr,
  JoinCondition,
  Operator,
  ParsePart,
  TabularExpr,
  TopNestedClause,
  TabularSource,
} from '../ast';
import { aplError, closestName } from '../diagnostics';
import { type Token } from '../tokens';
import { TABULAR_OPERATORS, TYPE_NAME_LIST, typeFromName } from './grammar';
import { ExpressionParser } from './expression-parser';

export abstract class OperatorParser extends ExpressionParser {
  /** Parsed by QueryParser: the source of a `join`/`lookup` right side. */
  protected abstract parseSource(): TabularSource;

  /** Parsed by QueryParser: a dataset name or pattern of `union`. */
  protected abstract parseDatasetRef(): TabularSource;

  /** Reads an operator name, joining hyphenated names such as `project-away` and `mv-expand`. */
  protected parseOperatorName(): Token {
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

  /** One operator, or the operators a Kusto shorthand stands for (`sample-distinct`, `top-hitters`). */
  protected parseOperator(): Operator | Operator[] {
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
        const { tables, withSource, fuzzy } = this.parseUnionArgs();
        return done({ kind: 'union' as const, tables, withSource, ...(fuzzy ? { fuzzy } : {}) });
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
      case 'as': {
        const materialized = this.parseAsMaterializedHint();
        const nameTok = this.advance();
        if (nameTok.kind !== 'ident' && nameTok.kind !== 'string')
          throw this.expected('a name after as', nameTok);
        return done({ kind: 'as' as const, name: nameTok.text, ...(materialized ? { materialized } : {}) });
      }
      case 'mv-apply': {
        const expand = this.parseMvExpand() as Extract<Operator, { kind: 'mv-expand' }>;
        if (expand.bagExpansion !== 'bag')
          throw this.invalidKind('mv-apply', 'mv-apply takes no bag expansion kind', 'array', []);
        this.expectIdent('on');
        this.expectPunct('(');
        const body: Operator[] = [];
        do {
          const op = this.parseOperator();
          if (Array.isArray(op)) body.push(...op);
          else body.push(op);
        } while (this.acceptPunct('|'));
        this.expectPunct(')');
        return done({ kind: 'mv-apply' as const, expand, body });
      }
      case 'top-nested': {
        const clauses: TopNestedClause[] = [this.parseTopNestedClause(start)];
        while (this.acceptPunct(',')) {
          const next = this.parseOperatorName();
          if (next.text !== 'top-nested') throw this.expected("'top-nested'", next);
          clauses.push(this.parseTopNestedClause(next.start));
        }
        return done({ kind: 'top-nested' as const, clauses });
      }
      case 'sample-distinct':
      case 'top-hitters':
        return this.parseSampleDistinctOrTopHitters(nameTok.text, start);
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

  /** One `[N] of [Name =] Expr [with others = C] by [Name =] Agg [asc | desc]` of `top-nested`. */
  protected parseTopNestedClause(start: number): TopNestedClause {
    const count = this.isIdent('of') ? undefined : this.parseAdditive();
    this.expectIdent('of');
    const value = this.parseAssignment();
    let others: Expr | undefined;
    if (this.acceptIdent('with')) {
      this.expectIdent('others');
      this.expectPunct('=');
      others = this.parseExpr();
    }
    this.expectIdent('by');
    const agg = this.parseAssignment();
    let desc = true;
    if (this.acceptIdent('asc')) desc = false;
    else this.acceptIdent('desc');
    return {
      ...(count ? { count } : {}),
      value,
      ...(others ? { others } : {}),
      agg,
      desc,
      span: this.spanFrom(start),
    };
  }

  /**
   * Kusto shorthands, as their pages define them: `sample-distinct N of Col` is `summarize by Col | take N`
   * (up to N distinct values; Kusto does not promise which); `top-hitters N of Expr [by S]` is
   * `summarize approximate_count_Expr = count() by Expr | top N by approximate_count_Expr desc`, with
   * `by S`: `approximate_sum_Expr = sum(S)` (exact counts and sums here: Kusto's are approximations).
   */
  protected parseSampleDistinctOrTopHitters(which: string, start: number): Operator[] {
    const count = this.parseAdditive();
    this.expectIdent('of');
    const value = this.parseAssignment();
    const span = this.spanFrom(start);
    if (which === 'sample-distinct') {
      return [
        { kind: 'summarize', aggs: [], by: [value], span },
        { kind: 'take', count, span },
      ];
    }
    let sumOf: Expr | undefined;
    if (this.acceptIdent('by')) sumOf = this.parseExpr();
    const base = value.name ?? (value.expr.kind === 'name' ? value.expr.name : 'value');
    const name = `${sumOf ? 'approximate_sum_' : 'approximate_count_'}${base}`;
    const agg: Expr = {
      kind: 'call',
      name: sumOf ? 'sum' : 'count',
      args: sumOf ? [sumOf] : [],
      nameSpan: span,
      span,
    };
    const key: Expr = { kind: 'name', name, quoted: true, span };
    return [
      { kind: 'summarize', aggs: [{ name, expr: agg, span }], by: [value], span: this.spanFrom(start) },
      { kind: 'top', count, keys: [{ expr: key, desc: true, nullsFirst: false, span }], span },
    ];
  }

  /** `make-series [Name =] Agg [default = V], ... on T [from A] [to B] step S [by Keys]` (or `in range(A, B, S)`). */
  protected parseMakeSeries(): Operator {
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
    const inRange = this.isIdent('in');
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
    return {
      kind: 'make-series',
      aggs,
      on,
      from,
      to,
      step,
      by,
      ...nonempty,
      ...(inRange ? { inRange: true as const } : {}),
      span: on.span,
    };
  }

  /**
   * `as`'s optional `hint.materialized = true|false` (Kusto's as page: a bool). True when the hint is true;
   * any other value is an error rather than silently running the input once per reference.
   */
  protected parseAsMaterializedHint(): true | undefined {
    if (!(this.isIdent('hint') && this.isPunct('.', 1))) return undefined;
    this.advance();
    this.advance();
    this.expectIdent('materialized');
    this.expectPunct('=');
    const value = this.parseExpr();
    if (value.kind !== 'literal' || typeof value.value !== 'boolean') {
      throw aplError(
        'apl_invalid_argument',
        { name: 'as', reason: 'hint.materialized must be true or false' },
        value.span,
      );
    }
    return value.value ? true : undefined;
  }

  protected parseKindOption(option = 'kind'): string | undefined {
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
  protected invalidKind(name: string, reason: string, value: string, allowed: readonly string[]) {
    const t = this.lastOption;
    const span = t ? this.tokSpan(t) : this.src.span(this.lastEnd, this.lastEnd);
    return aplError('apl_invalid_argument', { name, reason, suggestion: closestName(value, allowed) }, span);
  }

  /**
   * `parse-kv Expr as (k1[:type], ...) [with (pair_delimiter=..., kv_delimiter=... [, quote=..., escape=...,
   * greedy=...]) | with (quote=..., escape=...) | with (regex=...)]`.
   */
  protected parseParseKv(): Operator {
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
  protected parseWithOptions(
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
  protected parseRedact(): Operator {
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

  protected parseMvExpand(): Operator {
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

  protected parseParse(dropUnmatched: boolean): Operator {
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

  protected parseJoin(which: string): Operator {
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

  protected parseSideRef(): { side: string; name: string; span: SourceSpan } {
    const side = this.advance();
    if (side.text !== '$left' && side.text !== '$right') throw this.expected('$left or $right', side);
    this.expectPunct('.');
    const at = this.peek().start;
    return { side: side.text, name: this.parseFieldPath(), span: this.spanFrom(at) };
  }

  protected parseUnionArgs(): { tables: TabularExpr[]; withSource?: string; fuzzy?: boolean } {
    let withSource: string | undefined;
    let fuzzy = false;
    for (;;) {
      const ws = this.parseKindOption('withsource');
      if (ws !== undefined) {
        withSource = ws;
        continue;
      }
      if (this.parseKindOption('kind') !== undefined) continue;
      const isFuzzy = this.parseKindOption('isfuzzy');
      if (isFuzzy !== undefined) {
        fuzzy = isFuzzy === 'true';
        continue;
      }
      break;
    }
    return { tables: this.parseTableList(), withSource, fuzzy };
  }

  /** `T, (T | …), web*, …`: the tables of `union` and of `find in (…)`. */
  protected parseTableList(): TabularExpr[] {
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
    return tables;
  }

  protected parseSearchPredicate(): Expr {
    this.searchDepth++;
    try {
      return this.parseExpr();
    } finally {
      this.searchDepth--;
    }
  }

  protected parseSearchKind(): boolean {
    const searchKind = this.parseKindOption('kind');
    const searchKinds = ['case_sensitive', 'case_insensitive', 'default'];
    if (searchKind !== undefined && !searchKinds.includes(searchKind)) {
      throw this.invalidKind('search', `unknown search kind '${searchKind}'`, searchKind, searchKinds);
    }
    return searchKind === 'case_sensitive';
  }
}
