/**
 * Statements (`let` of scalars, tables and user-defined functions, `set`) and tabular sources (datasets,
 * `datatable`, `print`, `range`, `union`, subqueries, function calls, a leading `search`, `find`).
 */
import type { SourceSpan } from '@quarry/common';
import type {
  AplType,
  Expr,
  FindProjection,
  FunctionDefinition,
  FunctionParam,
  Operator,
  Query,
  Statement,
  TabularExpr,
  TabularSource,
} from '../ast';
import { aplError, closestName } from '../diagnostics';
import { describeToken } from '../tokens';
import { WORDS_AFTER_EXPR, TYPE_NAME_LIST, typeFromName } from './grammar';
import { OperatorParser } from './operator-parser';

export class QueryParser extends OperatorParser {
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

  protected parseLet(): Statement {
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
    const view = this.isIdent('view') && this.startsFunctionDefinition(1);
    if (view) this.advance();
    if (view || this.startsFunctionDefinition()) {
      const definition = this.parseFunctionDefinition(nameTok.text, start, view);
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

  /**
   * `[view] (T: (x: long), U: (*), a: long, b: string = "x") { [let ...;]* Expr }`: tabular parameters
   * (the columns their argument must have, or `(*)`) and scalar ones; a scalar parameter with a default is
   * optional, and only trailing ones may have defaults. A view has no parameters and a tabular body.
   */
  protected parseFunctionDefinition(name: string, start: number, view = false): FunctionDefinition {
    const paramsStart = this.peek().start;
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
          const table = this.parseTableSchema();
          params.push({ name: p.text, type: 'dynamic', table, span: this.spanFrom(s) });
          continue;
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
    if (view && params.length > 0) {
      throw aplError(
        'apl_invalid_argument',
        { name, reason: 'a view takes no parameters' },
        this.spanFrom(paramsStart),
      );
    }
    this.expectPunct('{');
    // The body sees the parameters (scalars, or tables); its own lets end with it.
    const savedScalars = new Set(this.scalarLets);
    const savedTables = new Set(this.tableLets);
    const savedParams = new Set(this.tableParams);
    const savedFunctions = new Map(this.functions);
    for (const p of params) {
      if (p.table) {
        this.tableLets.add(p.name);
        this.tableParams.add(p.name);
        this.scalarLets.delete(p.name);
      } else {
        this.scalarLets.add(p.name);
        this.tableLets.delete(p.name);
        this.tableParams.delete(p.name);
      }
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
      if (view && result.kind !== 'tabular') {
        throw aplError(
          'apl_invalid_argument',
          { name, reason: 'a view must be a tabular expression' },
          this.spanFrom(start),
        );
      }
      return { name, params, ...(view ? { view } : {}), statements, result, span: this.spanFrom(start) };
    } finally {
      this.tableParams.clear();
      savedParams.forEach((n) => this.tableParams.add(n));
      this.scalarLets.clear();
      savedScalars.forEach((n) => this.scalarLets.add(n));
      this.tableLets.clear();
      savedTables.forEach((n) => this.tableLets.add(n));
      this.functions.clear();
      savedFunctions.forEach((v, k) => this.functions.set(k, v));
    }
  }

  /** `(x: long, y: string)` or `(*)`: the columns a tabular parameter's argument must have. */
  protected parseTableSchema(): NonNullable<FunctionParam['table']> {
    this.expectPunct('(');
    if (this.acceptPunct('*')) {
      this.expectPunct(')');
      return { columns: [], wildcard: true };
    }
    const columns: { name: string; type: AplType }[] = [];
    if (!this.isPunct(')')) {
      do {
        const name = this.parseColumnName();
        this.expectPunct(':');
        const tt = this.peek();
        const type = tt.kind === 'ident' ? typeFromName(tt.text) : undefined;
        if (!type) throw this.expected('a type name', tt, TYPE_NAME_LIST);
        this.advance();
        columns.push({ name, type });
      } while (this.acceptPunct(','));
    }
    this.expectPunct(')');
    return { columns, wildcard: false };
  }

  protected parseSet(): Statement {
    const start = this.advance().start;
    const name = this.advance().text;
    let value: Expr | undefined;
    if (this.acceptPunct('=')) value = this.parseExpr();
    return { kind: 'set', name, value, span: this.spanFrom(start) };
  }

  // ---- tabular expressions ----

  protected override parseTabular(): TabularExpr {
    return this.nested(() => this.parseTabularInner());
  }

  protected parseTabularInner(): TabularExpr {
    const start = this.peek().start;
    if (this.startsLeadingSearch()) return this.parseLeadingSearch();
    if (this.startsFind()) return this.parseFind();
    return this.parsePipeline(start, this.parseSource(), []);
  }

  /**
   * The `| operator` steps after a source (and after a leading `search`'s own step). `| invoke f(…)`
   * folds the pipeline so far into the call's tabular argument, so `search … | invoke f()` works too.
   */
  protected parsePipeline(start: number, source: TabularSource, operators: Operator[]): TabularExpr {
    while (this.acceptPunct('|')) {
      if (this.isIdent('invoke') && this.peek(1).kind === 'ident') {
        source = this.parseInvoke({ source, operators, span: this.spanFrom(start) });
        operators = [];
        continue;
      }
      const op = this.parseOperator();
      if (Array.isArray(op)) operators.push(...op);
      else operators.push(op);
    }
    return { source, operators, span: this.spanFrom(start) };
  }

  /**
   * `T | invoke f(a, …)` (Kusto): `f(T, a, …)`, the table left of `invoke` its first tabular parameter.
   * The pipeline so far becomes that argument, so the call is a source like any other.
   */
  protected parseInvoke(input: TabularExpr): TabularSource {
    const start = this.advance().start;
    const nameTok = this.advance();
    const definition = this.functions.get(nameTok.text);
    const table = definition?.params.find((p) => p.table);
    if (!definition || definition.result.kind !== 'tabular' || !table) {
      throw aplError(
        'apl_invalid_argument',
        {
          name: 'invoke',
          reason: !definition
            ? `'${nameTok.text}' is not a user-defined function in scope`
            : `'${nameTok.text}' must take a tabular parameter and return a table`,
        },
        this.tokSpan(nameTok),
      );
    }
    let args: Expr[] = [];
    let argNames: (string | undefined)[] = [];
    if (this.acceptPunct('(')) {
      ({ args, argNames } = this.parseCallArguments(definition, new Set([table.name])));
      this.expectPunct(')');
    }
    const left: Expr = { kind: 'literal', type: 'dynamic', value: null, span: input.span };
    const tableArg: Expr = { kind: 'in', op: 'table', left, list: [], subquery: input, span: input.span };
    const span = this.spanFrom(start);
    return {
      kind: 'subquery',
      query: definition.result.query,
      invoke: { definition, args: [tableArg, ...args], argNames: [table.name, ...argNames], span },
      span,
    };
  }

  protected override parseSource(): TabularSource {
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
      if (this.tableParams.has(t.text)) {
        this.advance();
        return { kind: 'table-parameter', name: t.text, span: this.spanFrom(start) };
      }
      const fn = this.tabularFunctionAt();
      if (fn) return this.parseFunctionSource(fn);
      if (t.text === 'materialize' && this.isPunct('(', 1)) {
        // `materialize(T)` (Kusto: evaluate once, reuse): T, cached by runApl; see docs/apl.md §8.
        this.advance();
        this.advance();
        const query = this.parseTabular();
        this.expectPunct(')');
        return { kind: 'subquery', query, materialize: true, span: this.spanFrom(start) };
      }
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
        const { tables, withSource, fuzzy } = this.parseUnionArgs();
        return { kind: 'union', tables, withSource, ...(fuzzy ? { fuzzy } : {}), span: this.spanFrom(start) };
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
  protected parseRange(): TabularSource {
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
  protected parseFunctionSource(definition: FunctionDefinition): TabularSource {
    const start = this.advance().start;
    let args: Expr[] = [];
    let argNames: (string | undefined)[] = [];
    if (this.acceptPunct('(')) {
      ({ args, argNames } = this.parseCallArguments(definition));
      this.expectPunct(')');
    }
    const span = this.spanFrom(start);
    const query = definition.result.kind === 'tabular' ? definition.result.query : undefined;
    const named = argNames.some((n) => n !== undefined);
    return {
      kind: 'subquery',
      query: query!,
      invoke: { definition, args, ...(named ? { argNames } : {}), span },
      span,
    };
  }

  /**
   * `search [kind=...] [in (Datasets)] Predicate` starting a query: the union of the named datasets (every
   * dataset without `in`), with the source dataset in column `$table` (Kusto), filtered by the search.
   */
  protected parseLeadingSearch(): TabularExpr {
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
    // The union names each row's dataset here; the search's bare terms leave this column out.
    const sourceColumn = '$table';
    const source: TabularSource = {
      kind: 'union',
      tables,
      withSource: sourceColumn,
      span: this.spanFrom(start),
    };
    const operators: Operator[] = [
      { kind: 'search', caseSensitive, predicate, sourceColumn, span: this.spanFrom(start) },
    ];
    return this.parsePipeline(start, source, operators);
  }

  /**
   * Kusto's `find [withsource=Col] [in (Tables)] where Predicate [project-smart | project Cols]`, or
   * `find Predicate [...]`: every dataset without `in`. The predicate is a search predicate (bare terms,
   * `* has "x"`, `Field:"x"`); the output schema is the builder's (`FindProjection`).
   */
  protected parseFind(): TabularExpr {
    const start = this.advance().start;
    const withSource = this.parseKindOption('withsource') ?? 'source_';
    let tables: TabularExpr[];
    if (this.isIdent('in') && this.isPunct('(', 1)) {
      this.advance();
      this.advance();
      tables = this.parseTableList();
      this.expectPunct(')');
      this.expectIdent('where');
    } else {
      const all: TabularSource = { kind: 'dataset-pattern', pattern: '*', span: this.spanFrom(start) };
      tables = [{ source: all, operators: [], span: all.span }];
      if (this.isIdent('where')) this.advance();
    }
    const predicate = this.parseSearchPredicate();
    const projection = this.parseFindProjection();
    const source: TabularSource = {
      kind: 'find',
      tables,
      withSource,
      predicate,
      projection,
      span: this.spanFrom(start),
    };
    return this.parsePipeline(start, source, []);
  }

  /** `project-smart` (also when nothing follows) or `project Col[:type], …[, pack_all()]`. */
  protected parseFindProjection(): FindProjection {
    if (!this.isIdent('project')) return { kind: 'smart' };
    const nameTok = this.parseOperatorName();
    if (nameTok.text === 'project-smart') return { kind: 'smart' };
    if (nameTok.text !== 'project') throw this.expected("'project' or 'project-smart'", nameTok);
    const columns: { name: string; type?: AplType; span: SourceSpan }[] = [];
    let packAll = false;
    do {
      const at = this.peek().start;
      if (this.isIdent('pack_all') && this.isPunct('(', 1)) {
        this.advance();
        this.advance();
        this.expectPunct(')');
        packAll = true;
        continue;
      }
      const name = this.parseFieldPath();
      let type: AplType | undefined;
      if (this.acceptPunct(':')) {
        const typeTok = this.peek();
        type = typeTok.kind === 'ident' ? typeFromName(typeTok.text) : undefined;
        if (!type) throw this.expected('a type name', typeTok, TYPE_NAME_LIST);
        this.advance();
      }
      columns.push({ name, ...(type ? { type } : {}), span: this.spanFrom(at) });
    } while (this.acceptPunct(','));
    return { kind: 'project', columns, packAll };
  }

  /**
   * A dataset named in `union` or `search in (...)`: a name, `['quoted name']`, or a pattern with `*`
   * (`logs*`, `*`, `web-*`, `['web-*']`). Unquoted patterns are the touching tokens of the name.
   */
  protected override parseDatasetRef(): TabularSource {
    const t = this.peek();
    const start = t.start;
    if (this.isPunct('[') && this.peek(1).kind === 'string') {
      const name = this.parseBracketName();
      const span = this.spanFrom(start);
      return name.includes('*')
        ? { kind: 'dataset-pattern', pattern: name, span }
        : { kind: 'dataset', name, span };
    }
    if (t.kind === 'ident' && !this.glued(1)) {
      // `union T` where T is a tabular parameter or a tabular function (Kusto's `union T, (T())`).
      if (this.tableParams.has(t.text)) {
        this.advance();
        return { kind: 'table-parameter', name: t.text, span: this.spanFrom(start) };
      }
      const fn = this.tabularFunctionAt();
      if (fn) return this.parseFunctionSource(fn);
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

  /** Whether the token at `offset` touches the one before it (`logs-1`, `web*`: one dataset name). */
  protected glued(offset: number): boolean {
    const k = this.peek(offset);
    const prev = this.peek(offset - 1);
    const glues =
      k.kind === 'ident' || k.kind === 'int' || (k.kind === 'punct' && ['*', '-', '.'].includes(k.text));
    return glues && k.start === prev.end;
  }

  protected parseDatatable(): TabularSource {
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
}
