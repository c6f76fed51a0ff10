/**
 * Pull-based lexer: the parser asks for one token at a time and may move `pos` (to read the raw text of
 * `datetime(2024-05-01 12:00)`, which is not made of ordinary tokens).
 */
import { aplError } from './diagnostics';
import { closestName } from './suggest';
import type { SourceText } from './source-text';
import { TIMESPAN_UNITS } from './timespan';
import type { Token } from './tokens';

const PUNCT3 = ['!~'];
const PUNCT2 = ['==', '!=', '<>', '<=', '>=', '=~', '!~', '..'];
const PUNCT1 = '|,;()[]{}=<>+-*/%.:~?@';

function isIdentStart(c: string): boolean {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_' || c === '$';
}

function isIdentPart(c: string): boolean {
  return isIdentStart(c) || (c >= '0' && c <= '9');
}

function isDigit(c: string): boolean {
  return c >= '0' && c <= '9';
}

export class Lexer {
  pos = 0;

  constructor(private readonly source: SourceText) {}

  get text(): string {
    return this.source.text;
  }

  next(): Token {
    this.skipTrivia();
    const text = this.text;
    const start = this.pos;
    if (start >= text.length) return { kind: 'eof', text: '', start, end: start };
    const c = text[start];
    if (text.startsWith('```', start)) return this.readMultilineString(start);
    if (c === '"' || c === "'") return this.readString(start, false);
    if (c === '@' && (text[start + 1] === '"' || text[start + 1] === "'"))
      return this.readString(start, true);
    if (isDigit(c) || (c === '.' && isDigit(text[start + 1] ?? ''))) return this.readNumber(start);
    if (isIdentStart(c)) return this.readIdent(start);
    if (c === '!' && isIdentStart(text[start + 1] ?? '')) {
      // Negated word operators (`!contains`, `!in~`) are single tokens.
      const ident = this.readIdent(start + 1);
      return { ...ident, text: '!' + ident.text, start };
    }
    for (const p of PUNCT3) if (text.startsWith(p, start)) return this.punct(p, start);
    for (const p of PUNCT2) if (text.startsWith(p, start)) return this.punct(p, start);
    if (PUNCT1.includes(c)) return this.punct(c, start);
    throw aplError('apl_unexpected_character', { char: c }, this.source.span(start, start + 1));
  }

  private punct(p: string, start: number): Token {
    this.pos = start + p.length;
    return { kind: 'punct', text: p, start, end: this.pos };
  }

  private skipTrivia(): void {
    const text = this.text;
    while (this.pos < text.length) {
      const c = text[this.pos];
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
        this.pos++;
      } else if (c === '/' && text[this.pos + 1] === '/') {
        while (this.pos < text.length && text[this.pos] !== '\n') this.pos++;
      } else {
        return;
      }
    }
  }

  private readIdent(start: number): Token {
    const text = this.text;
    let i = start + 1;
    while (i < text.length && isIdentPart(text[i])) i++;
    let name = text.slice(start, i);
    if (name === 'in' && text[i] === '~') {
      i++;
      name = 'in~';
    }
    this.pos = i;
    return { kind: 'ident', text: name, start, end: i };
  }

  private readNumber(start: number): Token {
    const text = this.text;
    if (text[start] === '0' && (text[start + 1] === 'x' || text[start + 1] === 'X'))
      return this.readHex(start);
    let i = start;
    let isReal = false;
    while (i < text.length && isDigit(text[i])) i++;
    if (text[i] === '.' && text[i + 1] !== '.') {
      isReal = true;
      i++;
      while (i < text.length && isDigit(text[i])) i++;
    }
    if (
      (text[i] === 'e' || text[i] === 'E') &&
      (isDigit(text[i + 1] ?? '') ||
        ((text[i + 1] === '+' || text[i + 1] === '-') && isDigit(text[i + 2] ?? '')))
    ) {
      isReal = true;
      i += 2;
      while (i < text.length && isDigit(text[i])) i++;
    }
    const numText = text.slice(start, i);
    const value = Number(numText);
    // Out of range (`1e400`) is as unusable as malformed.
    if (!Number.isFinite(value))
      throw aplError('apl_invalid_number', { text: numText }, this.source.span(start, i));
    if (i < text.length && isIdentStart(text[i])) {
      let j = i;
      while (j < text.length && isIdentPart(text[j])) j++;
      const unit = text.slice(i, j);
      // A unit never holds `_`: digits then a word with one are a name (Kusto's `5h_MovingAvg` column).
      if (!isReal && unit.includes('_')) {
        this.pos = j;
        return { kind: 'ident', text: text.slice(start, j), start, end: j };
      }
      const factor = Object.prototype.hasOwnProperty.call(TIMESPAN_UNITS, unit)
        ? TIMESPAN_UNITS[unit]
        : undefined;
      if (factor === undefined) {
        const suggestion = closestName(unit, Object.keys(TIMESPAN_UNITS));
        throw aplError('apl_invalid_timespan_unit', { unit, suggestion }, this.source.span(i, j));
      }
      if (!Number.isFinite(value * factor))
        throw aplError('apl_invalid_number', { text: text.slice(start, j) }, this.source.span(start, j));
      this.pos = j;
      return { kind: 'timespan', text: text.slice(start, j), value: value * factor, start, end: j };
    }
    this.pos = i;
    return { kind: isReal ? 'real' : 'int', text: numText, value, start, end: i };
  }

  /**
   * `0xFF`: a long written in hex (Kusto's long literal). The digits are a 64-bit two's complement
   * pattern (`0xFFFFFFFFFFFFFFFF` is -1); values beyond 2^53 lose precision like any long here.
   */
  private readHex(start: number): Token {
    const text = this.text;
    let i = start + 2;
    while (i < text.length && /[0-9a-fA-F]/.test(text[i])) i++;
    const end = i < text.length && isIdentPart(text[i]) ? i + 1 : i;
    const digits = text.slice(start + 2, i);
    if (digits === '' || digits.length > 16 || end !== i)
      throw aplError('apl_invalid_number', { text: text.slice(start, end) }, this.source.span(start, end));
    this.pos = i;
    const value = Number(BigInt.asIntN(64, BigInt('0x' + digits)));
    return { kind: 'int', text: text.slice(start, i), value, start, end: i };
  }

  /** ```` ```text``` ````: a raw string that may span lines (no escapes), up to the next ```` ``` ````. */
  private readMultilineString(start: number): Token {
    const close = this.text.indexOf('```', start + 3);
    if (close < 0) throw aplError('apl_unterminated_string', {}, this.source.span(start, this.text.length));
    this.pos = close + 3;
    return { kind: 'string', text: this.text.slice(start + 3, close), start, end: this.pos };
  }

  private readString(start: number, verbatim: boolean): Token {
    const text = this.text;
    let i = verbatim ? start + 1 : start;
    const quote = text[i];
    i++;
    let out = '';
    for (;;) {
      if (i >= text.length || text[i] === '\n') {
        throw aplError('apl_unterminated_string', {}, this.source.span(start, i));
      }
      const c = text[i];
      if (c === quote) {
        if (verbatim && text[i + 1] === quote) {
          out += quote;
          i += 2;
          continue;
        }
        i++;
        break;
      }
      if (c === '\\' && !verbatim) {
        const e = text[i + 1];
        i += 2;
        switch (e) {
          case 'n':
            out += '\n';
            break;
          case 't':
            out += '\t';
            break;
          case 'r':
            out += '\r';
            break;
          case 'u': {
            const hex = text.slice(i, i + 4);
            if (!/^[0-9a-fA-F]{4}$/.test(hex)) {
              throw aplError(
                'apl_unexpected_character',
                { char: '\\u' + hex },
                this.source.span(i - 2, Math.min(i + 4, text.length)),
              );
            }
            out += String.fromCharCode(parseInt(hex, 16));
            i += 4;
            break;
          }
          case undefined:
            // A backslash at the very end of the text.
            throw aplError('apl_unterminated_string', {}, this.source.span(start, text.length));
          default:
            out += e;
        }
        continue;
      }
      out += c;
      i++;
    }
    this.pos = i;
    return { kind: 'string', text: out, start, end: i };
  }
}
