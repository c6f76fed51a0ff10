/**
 * The parser's token plumbing and shared state: lookahead over the lexer, accept/expect helpers, spans,
 * the nesting guard, and the names `let` has bound so far (which decide whether a name is a table).
 */
import { type SourceSpan } from '@quarry/common';
import type { Expr, FunctionDefinition } from '../ast';
import { aplError, closestName } from '../diagnostics';
import { Lexer } from '../lexer';
import { SourceText } from '../source-text';
import { describeToken, type Token } from '../tokens';
import { WORDS_AFTER_EXPR, MAX_NESTING } from './grammar';

export abstract class TokenCursor {
  protected readonly src: SourceText;

  protected readonly lexer: Lexer;

  protected lookahead: Token[] = [];

  protected lastEnd = 0;

  /** Names bound by `let` to tables, so a later `let x = t;` is known to be tabular. */
  protected readonly tableLets = new Set<string>();

  protected readonly scalarLets = new Set<string>();

  /** Tabular parameters of the user-defined function whose body is being parsed (`T` of `(T:(*))`). */
  protected readonly tableParams = new Set<string>();

  /** User-defined functions (`let f = (x: long) { ... };`) in scope, by name. */
  protected readonly functions = new Map<string, FunctionDefinition>();

  protected depth = 0;

  /** >0 while parsing a `search` predicate, where `Field:"term"` and prefix `not` are allowed. */
  protected searchDepth = 0;

  protected lastOption: Token | undefined;

  /** Depth of each binary expression node (left-deep chains are built iteratively). */
  protected readonly chainDepth = new WeakMap<Expr, number>();

  constructor(text: string) {
    this.src = new SourceText(text);
    this.lexer = new Lexer(this.src);
  }

  // ---- token plumbing ----

  protected peek(k = 0): Token {
    while (this.lookahead.length <= k) this.lookahead.push(this.lexer.next());
    return this.lookahead[k];
  }

  protected advance(): Token {
    const t = this.peek();
    this.lookahead.shift();
    this.lastEnd = t.end;
    return t;
  }

  protected isPunct(p: string, k = 0): boolean {
    const t = this.peek(k);
    return t.kind === 'punct' && t.text === p;
  }

  protected isIdent(name: string, k = 0): boolean {
    const t = this.peek(k);
    return t.kind === 'ident' && t.text === name;
  }

  protected acceptPunct(p: string): boolean {
    if (!this.isPunct(p)) return false;
    this.advance();
    return true;
  }

  protected acceptIdent(name: string): boolean {
    if (!this.isIdent(name)) return false;
    this.advance();
    return true;
  }

  protected expectPunct(p: string): Token {
    if (!this.isPunct(p)) throw this.expected(`'${p}'`, this.peek(), WORDS_AFTER_EXPR);
    return this.advance();
  }

  protected expectIdent(name: string): Token {
    if (!this.isIdent(name)) throw this.expected(`'${name}'`, this.peek(), [name]);
    return this.advance();
  }

  /**
   * `expected X but found Y`. When Y is a word, `candidates` (or the words that may follow an expression)
   * give a "did you mean" hint for a misspelled keyword.
   */
  protected expected(what: string, t: Token = this.peek(), candidates: readonly string[] = []) {
    const suggestion = t.kind === 'ident' ? closestName(t.text, candidates) : undefined;
    return aplError(
      'apl_expected_token',
      { expected: what, found: describeToken(t), suggestion },
      this.tokSpan(t),
    );
  }

  /** Runs `parse` one nesting level deeper; too deep a query is rejected before the stack overflows. */
  protected nested<T>(parse: () => T): T {
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

  protected tokSpan(t: Token): SourceSpan {
    return this.src.span(t.start, Math.max(t.end, t.start + (t.kind === 'eof' ? 0 : 1)));
  }

  protected spanFrom(start: number): SourceSpan {
    return this.src.span(start, Math.max(this.lastEnd, start));
  }
}
