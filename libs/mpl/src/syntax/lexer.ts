/**
 * MPL lexer (mpl.md §2.1). Signs are not part of number tokens: the parser reads `-` / `+` before a
 * number or duration, because the same characters are operators (`map - 2`) and range modifiers
 * (`[-15m..]`).
 */
import { mplError, spanAt } from './diagnostics';

export type TokenKind =
  | 'ident' // bare identifier (keywords are identifiers the parser recognises by text)
  | 'quoted' // backticked identifier
  | 'string'
  | 'int'
  | 'float'
  | 'duration'
  | 'time' // RFC 3339 timestamp
  | 'regex'
  | 'regex_replace'
  | 'punct'
  | 'eof';

export interface Token {
  kind: TokenKind;
  /** Decoded text: identifier name, string contents, regex source, duration text, or the punctuation. */
  text: string;
  start: number;
  end: number;
}

const PUNCTS = [
  '..',
  '::',
  '==',
  '!=',
  '<=',
  '>=',
  '|',
  ':',
  '[',
  ']',
  '(',
  ')',
  ',',
  ';',
  '$',
  '<',
  '>',
  '=',
  '+',
  '-',
  '*',
  '/',
  '~',
  '{',
  '}',
];
const DURATION_UNITS = ['ms', 's', 'm', 'h', 'd', 'w', 'M', 'y'];
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})/;

const isDigit = (c: string) => c >= '0' && c <= '9';
const isIdentStart = (c: string) => (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_';
const isIdentChar = (c: string) => isIdentStart(c) || isDigit(c);

const ESCAPES: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', '/': '/', '\\': '\\' };

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const fail = (message: string, at: number, end = at + 1) => {
    throw mplError('mpl_syntax', message, spanAt(text, at, end));
  };

  /** Reads a quoted body from after the opening `quote` to the closing one, decoding escapes. */
  const readQuoted = (quote: string, begin: number): string => {
    let out = '';
    let j = begin;
    for (;;) {
      if (j >= text.length) fail(`unterminated ${quote === '"' ? 'string' : 'identifier'}`, begin - 1);
      const c = text[j];
      if (c === quote) {
        i = j + 1;
        return out;
      }
      if (c === '\\') {
        const e = text[j + 1];
        if (e === quote) out += quote;
        else if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(j + 2, j + 6))) {
          out += String.fromCharCode(parseInt(text.slice(j + 2, j + 6), 16));
          j += 4;
        } else if (e !== undefined && ESCAPES[e] !== undefined) out += ESCAPES[e];
        else fail(`invalid escape "\\${e ?? ''}"`, j, j + 2);
        j += 2;
        continue;
      }
      out += c;
      j++;
    }
  };

  /** Regex literal body up to the next unescaped `/`; `\/ \\ \n \t \r \b \f` become the character. */
  const readRegexPart = (begin: number): string => {
    let out = '';
    let j = begin;
    for (;;) {
      if (j >= text.length || text[j] === '\n') fail('unterminated regex literal', begin);
      const c = text[j];
      if (c === '/') {
        i = j + 1;
        return out;
      }
      if (c === '\\' && j + 1 < text.length) {
        const e = text[j + 1];
        if (ESCAPES[e] !== undefined) out += ESCAPES[e];
        else out += c + e;
        j += 2;
        continue;
      }
      out += c;
      j++;
    }
  };

  while (i < text.length) {
    const c = text[i];
    if (c === ' ' || c === '\t' || c === '\r' || c === '\n') {
      i++;
      continue;
    }
    if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      continue;
    }
    const start = i;
    if (isIdentStart(c)) {
      while (i < text.length && isIdentChar(text[i])) i++;
      tokens.push({ kind: 'ident', text: text.slice(start, i), start, end: i });
      continue;
    }
    if (c === '`') {
      const name = readQuoted('`', i + 1);
      tokens.push({ kind: 'quoted', text: name, start, end: i });
      continue;
    }
    if (c === '"') {
      const s = readQuoted('"', i + 1);
      tokens.push({ kind: 'string', text: s, start, end: i });
      continue;
    }
    if (c === "'") fail('single quotes do not delimit strings in MPL; use double quotes', i);
    if (c === '#') {
      if (text[i + 1] === '/') {
        const src = readRegexPart(i + 2);
        tokens.push({ kind: 'regex', text: src, start, end: i });
        continue;
      }
      if (text[i + 1] === 's' && text[i + 2] === '/') {
        const src = readRegexPart(i + 3);
        const dst = readRegexPart(i);
        tokens.push({ kind: 'regex_replace', text: `${src}/${dst}`, start, end: i });
        continue;
      }
      fail('expected "#/" to start a regex literal', i);
    }
    if (isDigit(c)) {
      const time = RFC3339.exec(text.slice(i, i + 40));
      if (time) {
        i += time[0].length;
        tokens.push({ kind: 'time', text: time[0], start, end: i });
        continue;
      }
      while (i < text.length && isDigit(text[i])) i++;
      let kind: TokenKind = 'int';
      // `1746061200..` is an int followed by the range operator, not a float.
      if (text[i] === '.' && text[i + 1] !== '.') {
        kind = 'float';
        i++;
        while (i < text.length && isDigit(text[i])) i++;
      }
      if (
        (text[i] === 'e' || text[i] === 'E') &&
        (isDigit(text[i + 1] ?? '') ||
          ((text[i + 1] === '+' || text[i + 1] === '-') && isDigit(text[i + 2] ?? '')))
      ) {
        kind = 'float';
        i += 2;
        while (i < text.length && isDigit(text[i])) i++;
      } else if (kind === 'int' && isIdentStart(text[i] ?? '')) {
        let j = i;
        while (j < text.length && isIdentChar(text[j])) j++;
        const unit = text.slice(i, j);
        if (!DURATION_UNITS.includes(unit))
          fail(`invalid duration unit "${unit}" (expected one of ${DURATION_UNITS.join(' ')})`, i, j);
        i = j;
        kind = 'duration';
      } else if (isIdentStart(text[i] ?? '')) {
        fail(`unexpected "${text[i]}" after a number`, i);
      }
      tokens.push({ kind, text: text.slice(start, i), start, end: i });
      continue;
    }
    const punct = PUNCTS.find((p) => text.startsWith(p, i));
    if (punct) {
      i += punct.length;
      tokens.push({ kind: 'punct', text: punct, start, end: i });
      continue;
    }
    fail(`unexpected character "${c}"`, i);
  }
  tokens.push({ kind: 'eof', text: '', start: text.length, end: text.length });
  return tokens;
}

/** Seconds of a duration token text such as `5m` or `500ms` (ms floored, mpl.md §2.1). */
export function durationSeconds(text: string): number {
  const m = /^(\d+)(ms|s|m|h|d|w|M|y)$/.exec(text);
  if (!m) return NaN;
  const n = Number(m[1]);
  const unit: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400, w: 604800, M: 2592000, y: 31536000 };
  return m[2] === 'ms' ? Math.floor(n / 1000) : n * unit[m[2]];
}
