/**
 * Recursive-descent parser for MPL (grammar of mpl.md §2.2 plus the documented extras: align/bucket
 * without `to`, `extend`, `ifdef`, `;` before the `)` of a compute). Draft features parse far enough to
 * be rejected with a "not supported" error. Stdlib names and the group subset rule are checked here so
 * that `validateMpl` reports them without running anything.
 */
import type { SourceSpan } from '@quarry/common';
import type {
  BucketCall,
  BucketSpec,
  ComputeOp,
  Directive,
  DurationRef,
  FilterExpr,
  FilterValue,
  Literal,
  MplFile,
  ParamDecl,
  ParamRef,
  ParamType,
  Pipe,
  Query,
  SimpleQuery,
  SourceNode,
  TimePoint,
  WhereClause,
} from './ast';
import { didYouMean, mplError, spanAt } from './diagnostics';
import { durationSeconds, tokenize, type Token } from './lexer';
import {
  ALIGN_FUNCTIONS,
  BUCKET_FUNCTIONS,
  COMPUTE_FUNCTIONS,
  GROUP_FUNCTIONS,
  MAP_FUNCTIONS,
  PARAM_TYPES,
} from './stdlib';

const PIPE_KEYWORDS = ['map', 'align', 'group', 'bucket', 'as', 'extend'];
const UNSUPPORTED_PIPES = ['replace', 'join', 'format', 'remove'];

export function parseMpl(text: string): MplFile {
  return new Parser(text).file();
}

class Parser {
  private readonly tokens: Token[];
  private pos = 0;

  constructor(private readonly text: string) {
    this.tokens = tokenize(text);
  }

  // ---- token helpers -------------------------------------------------------------------------

  private peek(offset = 0): Token {
    return this.tokens[Math.min(this.pos + offset, this.tokens.length - 1)];
  }

  private next(): Token {
    const t = this.peek();
    if (t.kind !== 'eof') this.pos++;
    return t;
  }

  private span(t: Token): SourceSpan {
    return spanAt(this.text, t.start, t.end);
  }

  private spanFrom(start: number): SourceSpan {
    const last = this.tokens[Math.max(0, this.pos - 1)];
    return spanAt(this.text, start, Math.max(start, last.end));
  }

  private isPunct(p: string, offset = 0): boolean {
    const t = this.peek(offset);
    return t.kind === 'punct' && t.text === p;
  }

  private isWord(w: string, offset = 0): boolean {
    const t = this.peek(offset);
    return t.kind === 'ident' && t.text === w;
  }

  private describe(t: Token): string {
    if (t.kind === 'eof') return 'end of query';
    if (t.kind === 'string') return `string "${t.text}"`;
    return `"${this.text.slice(t.start, t.end)}"`;
  }

  private fail(expected: string, t = this.peek()): never {
    const found = t.kind === 'eof' ? 'the query ended' : `found ${this.describe(t)}`;
    throw mplError('mpl_syntax', `expected ${expected}, ${found}`, this.span(t));
  }

  private expectPunct(p: string): Token {
    if (!this.isPunct(p)) this.fail(`"${p}"`);
    return this.next();
  }

  private expectWord(w: string): Token {
    if (!this.isWord(w)) this.fail(`"${w}"`);
    return this.next();
  }

  /** A name: bare identifier or backticked. */
  private name(what: string): string {
    const t = this.peek();
    if (t.kind !== 'ident' && t.kind !== 'quoted') this.fail(what);
    this.next();
    return t.text;
  }

  private paramRef(): ParamRef {
    const dollar = this.expectPunct('$');
    const t = this.peek();
    if (t.kind !== 'ident') this.fail('a param name after "$"');
    this.next();
    return { kind: 'param', name: t.text, span: spanAt(this.text, dollar.start, t.end) };
  }

  // ---- file ----------------------------------------------------------------------------------

  file(): MplFile {
    const directives: Directive[] = [];
    const params: ParamDecl[] = [];
    while (this.isWord('set')) directives.push(this.directive());
    while (this.isWord('param')) params.push(this.paramDecl());
    if (this.isWord('set')) this.fail('the query ("set" directives come before "param" declarations)');
    const query = this.query();
    if (this.peek().kind !== 'eof') {
      const t = this.peek();
      if (t.kind === 'ident' && (PIPE_KEYWORDS.includes(t.text) || t.text === 'where' || t.text === 'filter'))
        this.fail('"|"');
      this.fail('"|" or the end of the query');
    }
    return { directives, params, query };
  }

  private directive(): Directive {
    const start = this.next().start;
    const name = this.name('a directive name after "set"');
    let value: Directive['value'];
    if (this.isPunct('=')) {
      this.next();
      const t = this.peek();
      if (t.kind === 'ident' && t.text !== 'true' && t.text !== 'false')
        value = { kind: 'ident', name: this.name('a value') };
      else value = this.literal();
    }
    this.expectPunct(';');
    return { name, value, span: this.spanFrom(start) };
  }

  private paramDecl(): ParamDecl {
    const start = this.next().start;
    const ref = this.paramRef();
    this.expectPunct(':');
    const t = this.peek();
    if (t.kind !== 'ident') this.fail('a param type');
    this.next();
    const type = t.text === 'duration' ? 'Duration' : t.text; // lower-case `duration` is deprecated, still valid
    if (!(PARAM_TYPES as readonly string[]).includes(type)) {
      throw mplError(
        'mpl_param',
        `unknown param type "${t.text}"${didYouMean(t.text, PARAM_TYPES)}`,
        this.span(t),
      );
    }
    this.expectPunct(';');
    return { name: ref.name, type: type as ParamType, span: this.spanFrom(start) };
  }

  // ---- queries -------------------------------------------------------------------------------

  private query(): Query {
    return this.isPunct('(') ? this.computeQuery() : this.simpleQuery();
  }

  private computeQuery(): Query {
    const start = this.next().start;
    const left = this.query();
    // `;` between or after the sub-queries is tolerated: spec.md's examples and the MCP text use it.
    if (this.isPunct(';')) this.next();
    else this.expectPunct(',');
    const right = this.query();
    if (this.isPunct(',') || this.isPunct(';')) this.next();
    this.expectPunct(')');
    this.expectPunct('|');
    this.expectWord('compute');
    const name = this.name('a name for the computed metric');
    this.expectWord('using');
    const op = this.computeOp();
    const pipes = this.pipes();
    checkGroupSubsets(pipes);
    return { kind: 'compute', left, right, name, op, pipes, span: this.spanFrom(start) };
  }

  private computeOp(): ComputeOp {
    const t = this.peek();
    if (t.kind === 'punct' && ['+', '-', '*', '/'].includes(t.text)) {
      this.next();
      return t.text as ComputeOp;
    }
    if (t.kind !== 'ident') this.fail('a compute function (+ - * / min max avg)');
    const name = this.funcName();
    if (!(COMPUTE_FUNCTIONS as readonly string[]).includes(name)) {
      throw mplError(
        'mpl_unknown_function',
        `unknown compute function "${name}"${didYouMean(name, COMPUTE_FUNCTIONS)}`,
        this.span(t),
      );
    }
    return name as ComputeOp;
  }

  private simpleQuery(): SimpleQuery {
    const start = this.peek().start;
    const source = this.source();
    let sample: number | undefined;
    const filters: WhereClause[] = [];
    while (this.isPunct('|')) {
      const kw = this.peek(1);
      if (kw.kind === 'ident' && kw.text === 'sample') {
        if (sample !== undefined || filters.length > 0) {
          throw mplError('mpl_syntax', '"sample" must come once, directly after the source', this.span(kw));
        }
        this.next();
        this.next();
        sample = this.signedNumber('a sample fraction');
        continue;
      }
      if (kw.kind === 'ident' && (kw.text === 'where' || kw.text === 'filter')) {
        this.next();
        this.next();
        filters.push({ expr: this.orExpr() });
        continue;
      }
      if (kw.kind === 'ident' && kw.text === 'ifdef') {
        this.next();
        this.next();
        filters.push(...this.ifdef());
        continue;
      }
      break;
    }
    const pipes = this.pipes();
    checkGroupSubsets(pipes);
    return { kind: 'simple', source, sample, filters, pipes, span: this.spanFrom(start) };
  }

  private ifdef(): WhereClause[] {
    this.expectPunct('(');
    const ref = this.paramRef();
    this.expectPunct(')');
    this.expectPunct('{');
    const clauses: WhereClause[] = [];
    do {
      if (this.isPunct('|')) this.next();
      if (!this.isWord('where') && !this.isWord('filter')) this.fail('"where" inside ifdef');
      this.next();
      clauses.push({ expr: this.orExpr(), ifdef: ref });
    } while (this.isPunct('|'));
    this.expectPunct('}');
    return clauses;
  }

  private source(): SourceNode {
    const start = this.peek().start;
    let dataset: SourceNode['dataset'];
    if (this.isPunct('$')) dataset = this.paramRef();
    else {
      const t = this.peek();
      if (t.kind !== 'ident' && t.kind !== 'quoted') this.fail('a source "dataset:metric"');
      this.next();
      dataset = { kind: 'name', name: t.text, span: this.span(t) };
    }
    this.expectPunct(':');
    const metric = this.name('a metric name after "dataset:"');
    let range: SourceNode['range'];
    if (this.isPunct('[')) {
      const rs = this.next().start;
      const startPoint = this.timePoint();
      this.expectPunct('..');
      const endPoint = this.isPunct(']') ? undefined : this.timePoint();
      this.expectPunct(']');
      const span = this.spanFrom(rs);
      if (startPoint.kind === 'modifier' && endPoint?.kind !== 'unix' && endPoint?.kind !== 'ago') {
        throw mplError(
          'mpl_syntax',
          'a "+"/"-" range modifier needs an absolute or relative time on the other end',
          span,
        );
      }
      if (endPoint?.kind === 'modifier' && startPoint.kind === 'modifier') {
        throw mplError('mpl_syntax', 'only one end of a range can be a modifier', span);
      }
      range = { start: startPoint, end: endPoint, span };
    }
    let alias: string | undefined;
    if (this.isWord('as')) {
      this.next();
      alias = this.name('a metric alias after "as"');
    }
    return { dataset, metric, range, alias, span: this.spanFrom(start) };
  }

  private timePoint(): TimePoint {
    const t = this.peek();
    if (t.kind === 'punct' && (t.text === '+' || t.text === '-')) {
      this.next();
      const d = this.peek();
      if (d.kind !== 'duration') this.fail(`a duration after "${t.text}"`);
      this.next();
      const seconds = durationSeconds(d.text);
      return { kind: 'modifier', seconds: t.text === '-' ? -seconds : seconds };
    }
    if (t.kind === 'duration') {
      this.next();
      return { kind: 'ago', seconds: durationSeconds(t.text) };
    }
    if (t.kind === 'int') {
      this.next();
      return { kind: 'unix', seconds: Number(t.text) };
    }
    if (t.kind === 'time') {
      this.next();
      const ms = Date.parse(t.text);
      if (!Number.isFinite(ms)) throw mplError('mpl_syntax', `invalid timestamp "${t.text}"`, this.span(t));
      return { kind: 'unix', seconds: Math.floor(ms / 1000) };
    }
    this.fail('a time (duration, unix seconds, RFC 3339, or +/- duration)');
  }

  // ---- filters -------------------------------------------------------------------------------

  private orExpr(): FilterExpr {
    const items = [this.andExpr()];
    while (this.isWord('or')) {
      this.next();
      items.push(this.andExpr());
    }
    return items.length === 1 ? items[0] : { kind: 'or', items };
  }

  private andExpr(): FilterExpr {
    const items = [this.notExpr()];
    while (this.isWord('and')) {
      this.next();
      items.push(this.notExpr());
    }
    return items.length === 1 ? items[0] : { kind: 'and', items };
  }

  private notExpr(): FilterExpr {
    if (this.isWord('not')) {
      this.next();
      return { kind: 'not', item: this.clause() };
    }
    return this.clause();
  }

  private clause(): FilterExpr {
    if (this.isPunct('(')) {
      this.next();
      const inner = this.orExpr();
      this.expectPunct(')');
      return inner;
    }
    const start = this.peek().start;
    const tag = this.name('a tag name');
    const t = this.peek();
    if (t.kind === 'ident' && t.text === 'is') {
      this.next();
      const typeTok = this.peek();
      const types = ['string', 'int', 'float', 'bool'];
      if (typeTok.kind !== 'ident' || !types.includes(typeTok.text))
        this.fail('a tag type (string, int, float, bool)');
      this.next();
      return { kind: 'is', tag, type: typeTok.text as 'string', span: this.spanFrom(start) };
    }
    if (t.kind === 'ident' && t.text === 'in') {
      throw mplError(
        'mpl_not_supported',
        'the "in" operator (set literals) is not supported; combine comparisons with "or"',
        this.span(t),
      );
    }
    const ops = ['==', '!=', '<', '<=', '>', '>='];
    if (t.kind !== 'punct' || !ops.includes(t.text))
      this.fail(`a comparison (== != < <= > >= is) after tag "${tag}"`);
    this.next();
    const op = t.text as '==' | '!=' | '<' | '<=' | '>' | '>=';
    const v = this.peek();
    if (v.kind === 'regex') {
      if (op !== '==' && op !== '!=')
        throw mplError('mpl_syntax', `a regex can only be compared with == or !=`, this.span(v));
      this.next();
      return {
        kind: 'regex',
        tag,
        negate: op === '!=',
        pattern: v.text,
        raw: this.text.slice(v.start + 2, v.end - 1),
        patternSpan: this.span(v),
        span: this.spanFrom(start),
      };
    }
    const value: FilterValue = this.isPunct('$') ? this.paramRef() : this.literal();
    return { kind: 'cmp', tag, op, value, span: this.spanFrom(start) };
  }

  private literal(): Literal {
    const t = this.peek();
    if (t.kind === 'string') {
      this.next();
      return { kind: 'string', value: t.text };
    }
    if (t.kind === 'ident' && (t.text === 'true' || t.text === 'false')) {
      this.next();
      return { kind: 'bool', value: t.text === 'true' };
    }
    const n = this.numberLiteral();
    if (n) return n;
    this.fail('a value (string, number, bool or $param)');
  }

  /** Optionally signed int/float/inf; undefined (nothing consumed) when the next token is not a number. */
  private numberLiteral(): Literal | undefined {
    let sign = 1;
    let offset = 0;
    if (this.isPunct('-') || this.isPunct('+')) {
      sign = this.isPunct('-') ? -1 : 1;
      offset = 1;
    }
    const t = this.peek(offset);
    if (t.kind === 'int' || t.kind === 'float' || (t.kind === 'ident' && t.text === 'inf')) {
      this.pos += offset;
      this.next();
      if (t.kind === 'ident') return { kind: 'float', value: sign * Infinity };
      return { kind: t.kind, value: sign * Number(t.text) };
    }
    return undefined;
  }

  private signedNumber(what: string): number {
    const n = this.numberLiteral();
    if (!n) this.fail(what);
    return n.value as number;
  }

  // ---- pipes ---------------------------------------------------------------------------------

  private pipes(): Pipe[] {
    const pipes: Pipe[] = [];
    while (this.isPunct('|')) {
      const kw = this.peek(1);
      if (kw.kind === 'ident' && kw.text === 'compute') break; // belongs to an enclosing compute
      this.next();
      pipes.push(this.pipe());
    }
    return pipes;
  }

  private pipe(): Pipe {
    const kw = this.peek();
    const start = kw.start;
    if (kw.kind !== 'ident') this.fail('a pipe stage (map, align, group, bucket, as, extend)');
    if (kw.text === 'where' || kw.text === 'filter' || kw.text === 'sample') {
      throw mplError(
        'mpl_syntax',
        `"${kw.text}" must come before the first transformation (map, align, group, bucket, ...)`,
        this.span(kw),
      );
    }
    if (UNSUPPORTED_PIPES.includes(kw.text)) {
      throw mplError('mpl_not_supported', `"${kw.text}" is not supported`, this.span(kw));
    }
    this.next();
    switch (kw.text) {
      case 'map':
        return this.mapPipe(start);
      case 'align': {
        let window: DurationRef | undefined;
        if (this.isWord('to')) {
          this.next();
          window = this.window();
        }
        if (this.isWord('over')) {
          throw mplError(
            'mpl_not_supported',
            'sliding windows ("align ... over ...") are not supported',
            this.span(this.peek()),
          );
        }
        this.expectWord('using');
        const t = this.peek();
        const using = this.funcName();
        if (!(ALIGN_FUNCTIONS as readonly string[]).includes(using)) {
          throw mplError(
            'mpl_unknown_function',
            `unknown align function "${using}"${didYouMean(using, ALIGN_FUNCTIONS)}`,
            this.span(t),
          );
        }
        return { kind: 'align', window, using, span: this.spanFrom(start) };
      }
      case 'group': {
        const by = this.byList();
        this.expectWord('using');
        const t = this.peek();
        const using = this.funcName();
        if (!(GROUP_FUNCTIONS as readonly string[]).includes(using)) {
          throw mplError(
            'mpl_unknown_function',
            `unknown group function "${using}"${didYouMean(using, GROUP_FUNCTIONS)}`,
            this.span(t),
          );
        }
        return { kind: 'group', by, using, span: this.spanFrom(start) };
      }
      case 'bucket': {
        const by = this.byList();
        let window: DurationRef | undefined;
        if (this.isWord('to')) {
          this.next();
          window = this.window();
        }
        this.expectWord('using');
        const call = this.bucketCall();
        return { kind: 'bucket', by, window, call, span: this.spanFrom(start) };
      }
      case 'as':
        return { kind: 'as', name: this.name('a metric name after "as"'), span: this.spanFrom(start) };
      case 'extend': {
        const tags: { name: string; value: Literal }[] = [];
        do {
          if (tags.length > 0) this.next();
          const name = this.name('a tag name');
          this.expectPunct('=');
          tags.push({ name, value: this.literal() });
        } while (this.isPunct(','));
        return { kind: 'extend', tags, span: this.spanFrom(start) };
      }
      default:
        throw mplError(
          'mpl_syntax',
          `unknown pipe stage "${kw.text}"${didYouMean(kw.text, [...PIPE_KEYWORDS, 'where'])}`,
          this.span(kw),
        );
    }
  }

  private byList(): string[] | undefined {
    if (!this.isWord('by')) return undefined;
    this.next();
    const tags = [this.name('a tag name after "by"')];
    while (this.isPunct(',')) {
      this.next();
      tags.push(this.name('a tag name'));
    }
    return tags;
  }

  private window(): DurationRef {
    if (this.isPunct('$')) return this.paramRef();
    const t = this.peek();
    if (t.kind !== 'duration') this.fail('a duration such as 5m');
    this.next();
    const seconds = durationSeconds(t.text);
    const span = this.span(t);
    checkWindow(seconds, t.text, span);
    return { kind: 'seconds', seconds, span };
  }

  /** `ident { :: ident }` */
  private funcName(): string {
    const first = this.peek();
    if (first.kind !== 'ident') this.fail('a function name');
    this.next();
    let name = first.text;
    while (this.isPunct('::')) {
      this.next();
      const part = this.peek();
      if (part.kind !== 'ident') this.fail('a name after "::"');
      this.next();
      name += '::' + part.text;
    }
    if (name.startsWith('wasm::'))
      throw mplError('mpl_not_supported', `WASM functions ("${name}") are not supported`, this.span(first));
    return name;
  }

  private mapPipe(start: number): Pipe {
    const t = this.peek();
    if (t.kind === 'punct' && ['+', '-', '*', '/'].includes(t.text)) {
      this.next();
      const operand = this.signedNumber(`a number after "map ${t.text}"`);
      return { kind: 'map', op: t.text as '+', operand, span: this.spanFrom(start) };
    }
    if (t.kind !== 'ident') this.fail('a map function or + - * / with a number');
    const name = this.funcName();
    const takesArg = MAP_FUNCTIONS[name];
    if (takesArg === undefined) {
      throw mplError(
        'mpl_unknown_function',
        `unknown map function "${name}"${didYouMean(name, Object.keys(MAP_FUNCTIONS))}`,
        this.span(t),
      );
    }
    let arg: number | undefined;
    if (this.isPunct('(')) {
      this.next();
      arg = this.signedNumber(`a number argument for ${name}`);
      this.expectPunct(')');
    }
    if (takesArg && arg === undefined)
      throw mplError(
        'mpl_syntax',
        `map function "${name}" needs a number argument, e.g. ${name}(0)`,
        this.span(t),
      );
    if (!takesArg && arg !== undefined)
      throw mplError('mpl_syntax', `map function "${name}" takes no argument`, this.span(t));
    return { kind: 'map', op: 'func', name, arg, span: this.spanFrom(start) };
  }

  private bucketCall(): BucketCall {
    const t = this.peek();
    const fn = this.funcName();
    if (!(BUCKET_FUNCTIONS as readonly string[]).includes(fn)) {
      throw mplError(
        'mpl_unknown_function',
        `unknown bucket function "${fn}"${didYouMean(fn, BUCKET_FUNCTIONS)}`,
        this.span(t),
      );
    }
    this.expectPunct('(');
    let mode: 'rate' | 'increase' | undefined;
    const first = this.peek();
    const isMode = first.kind === 'ident' && (first.text === 'rate' || first.text === 'increase');
    if (fn === 'interpolate_cumulative_histogram') {
      if (!isMode) {
        throw mplError(
          'mpl_histogram_mode',
          'interpolate_cumulative_histogram needs a mode (rate or increase) as its first argument',
          this.span(first),
        );
      }
      mode = first.text as 'rate';
      this.next();
      this.expectPunct(',');
    } else if (isMode) {
      throw mplError(
        'mpl_histogram_mode',
        `${fn} takes no mode ("${first.text}" is only valid for interpolate_cumulative_histogram)`,
        this.span(first),
      );
    }
    const specs: BucketSpec[] = [];
    do {
      if (specs.length > 0) this.next();
      specs.push(this.bucketSpec(fn));
    } while (this.isPunct(','));
    this.expectPunct(')');
    return { fn: fn as BucketCall['fn'], mode, specs, span: this.spanFrom(t.start) };
  }

  private bucketSpec(fn: string): BucketSpec {
    const t = this.peek();
    if (t.kind === 'ident' && ['count', 'avg', 'sum', 'min', 'max'].includes(t.text)) {
      this.next();
      if (fn === 'interpolate_cumulative_histogram' && (t.text === 'min' || t.text === 'max')) {
        throw mplError(
          'mpl_histogram_mode',
          `"${t.text}" is not available for interpolate_cumulative_histogram (cumulative histograms carry no per-window min/max)`,
          this.span(t),
        );
      }
      return { kind: t.text as 'count' };
    }
    const n = this.numberLiteral();
    if (!n) this.fail('a bucket spec (count, avg, sum, min, max or a quantile between 0 and 1)', t);
    const q = n.value as number;
    if (!(q >= 0 && q <= 1))
      throw mplError('mpl_invalid_value', `quantile ${q} is outside 0..1`, this.span(t));
    return { kind: 'quantile', q };
  }
}

/** A window must be at least one second (`500ms` floors to 0). */
export function checkWindow(seconds: number, text: string, span?: SourceSpan): void {
  if (!(seconds >= 1)) throw mplError('mpl_invalid_duration', `window ${text} is shorter than 1s`, span);
}

/** Each later `group by`/`bucket by` tag set must be a subset of the previous one (mpl.md §2.2). */
function checkGroupSubsets(pipes: Pipe[]): void {
  let previous: string[] | undefined;
  for (const p of pipes) {
    if (p.kind !== 'group' && p.kind !== 'bucket') continue;
    const by = p.by ?? [];
    if (previous !== undefined) {
      const extra = by.filter((t) => !previous!.includes(t));
      if (extra.length > 0) {
        throw mplError(
          'mpl_invalid_groups',
          `invalid groups: [${by.join(', ')}] is not a subset of [${previous.join(', ')}]`,
          p.span,
        );
      }
    }
    previous = by;
  }
}
