import { isFunction, isKeyword, isTabularOperator } from './apl-words';

/**
 * APL's tokens as the editor colours them. A small hand-written stream tokenizer (CodeMirror's
 * `StreamLanguage` drives it line by line): APL has no multi-line constructs other than what a line
 * tokenizer handles, and the server stays the authority on syntax (its errors are shown at their position).
 */
export type AplTokenType =
  | 'comment'
  | 'string'
  | 'number'
  | 'dataset'
  | 'operator'
  | 'keyword'
  | 'function'
  | 'field'
  | 'pipe'
  | 'punctuation'
  | null;

/** The part of CodeMirror's StringStream the tokenizer uses (so tests can drive it without the editor). */
export interface CharStream {
  sol(): boolean;
  eol(): boolean;
  peek(): string | undefined;
  next(): string | undefined | void;
  eat(match: string | RegExp): string | undefined | void;
  eatWhile(match: string | RegExp): boolean;
  eatSpace(): boolean;
  match(pattern: RegExp, consume?: boolean): RegExpMatchArray | null | boolean;
  skipToEnd(): void;
  string: string;
  pos: number;
}

/** What the previous token was, to tell an operator (after `|`) from a field of the same name. */
export interface AplTokenState {
  afterPipe: boolean;
}

export const startState = (): AplTokenState => ({ afterPipe: false });

export function tokenize(stream: CharStream, state: AplTokenState): AplTokenType {
  if (stream.eatSpace()) return null;
  if (stream.match(/^\/\/.*/)) return 'comment';
  if (stream.match(/^\['(?:[^'\\]|\\.)*'\]/) || stream.match(/^\["(?:[^"\\]|\\.)*"\]/)) {
    state.afterPipe = false;
    return 'dataset';
  }
  const ch = stream.peek();
  if (ch === '"' || ch === "'") {
    stream.next();
    let escaped = false;
    for (let c = stream.next(); c !== undefined && c !== null; c = stream.next()) {
      if (c === ch && !escaped) break;
      escaped = !escaped && c === '\\';
    }
    state.afterPipe = false;
    return 'string';
  }
  if (stream.match(/^\d+(\.\d+)?([eE][-+]?\d+)?(ms|s|m|h|d|tick|microsecond|us)?\b/)) {
    state.afterPipe = false;
    return 'number';
  }
  if (ch === '|') {
    stream.next();
    state.afterPipe = true;
    return 'pipe';
  }
  const word = stream.match(/^!?[A-Za-z_][A-Za-z0-9_]*(-[A-Za-z]+)*~?/) as RegExpMatchArray | null;
  if (word) {
    const text = word[0];
    const wasAfterPipe = state.afterPipe;
    state.afterPipe = false;
    if (wasAfterPipe && isTabularOperator(text)) return 'operator';
    if (isKeyword(text)) return 'keyword';
    // A function is a function only when called: `count` alone after `by` may be a field.
    if (isFunction(text) && /^\s*\(/.test(stream.string.slice(stream.pos))) return 'function';
    if (wasAfterPipe) return 'operator';
    return 'field';
  }
  stream.next();
  state.afterPipe = false;
  return 'punctuation';
}

/** Runs the tokenizer over one line; for tests and for anything that needs tokens outside the editor. */
export function tokenizeLine(
  line: string,
  state: AplTokenState = startState(),
): { text: string; type: AplTokenType }[] {
  const stream = new LineStream(line);
  const out: { text: string; type: AplTokenType }[] = [];
  while (!stream.eol()) {
    const start = stream.pos;
    const type = tokenize(stream, state);
    if (stream.pos === start) stream.next();
    if (type !== null) out.push({ text: line.slice(start, stream.pos), type });
  }
  return out;
}

/** A minimal StringStream over one line. */
class LineStream implements CharStream {
  pos = 0;
  constructor(readonly string: string) {}
  sol(): boolean {
    return this.pos === 0;
  }
  eol(): boolean {
    return this.pos >= this.string.length;
  }
  peek(): string | undefined {
    return this.string.charAt(this.pos) || undefined;
  }
  next(): string | undefined {
    if (this.pos < this.string.length) return this.string.charAt(this.pos++);
    return undefined;
  }
  eat(match: string | RegExp): string | undefined {
    const ch = this.string.charAt(this.pos);
    const ok = typeof match === 'string' ? ch === match : ch !== '' && match.test(ch);
    if (!ok) return undefined;
    this.pos++;
    return ch;
  }
  eatWhile(match: string | RegExp): boolean {
    const start = this.pos;
    while (this.eat(match) !== undefined);
    return this.pos > start;
  }
  eatSpace(): boolean {
    return this.eatWhile(/\s/);
  }
  match(pattern: RegExp, consume = true): RegExpMatchArray | null {
    const m = this.string.slice(this.pos).match(pattern);
    if (!m || m.index !== 0) return null;
    if (consume) this.pos += m[0].length;
    return m;
  }
  skipToEnd(): void {
    this.pos = this.string.length;
  }
}
