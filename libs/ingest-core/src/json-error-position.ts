/**
 * Finds where a JSON text stops being valid, for error messages: V8's `JSON.parse` reports a position for
 * some errors only (`Unexpected token 'x', "..." is not valid JSON` has none). Runs only after JSON.parse
 * failed, so it favours simplicity over speed; iterative, so any nesting depth is fine.
 * Returns the char index of the first offending character (text.length for an unexpected end), or -1 when
 * it finds no error.
 */
export function findJsonErrorOffset(text: string): number {
  // Container stack: 0x5b '[' or 0x7b '{'. `expect` says what may come next.
  const stack: number[] = [];
  type Expect = 'value' | 'valueOrClose' | 'key' | 'keyOrClose' | 'colon' | 'commaOrClose' | 'end';
  let expect: Expect = 'value';
  let i = 0;
  const n = text.length;
  const afterValue = (): Expect => (stack.length === 0 ? 'end' : 'commaOrClose');
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) {
      i++;
      continue;
    }
    switch (expect) {
      case 'end':
        return i;
      case 'colon':
        if (c !== 0x3a) return i;
        expect = 'value';
        i++;
        continue;
      case 'commaOrClose': {
        const top = stack[stack.length - 1];
        if (c === 0x2c) {
          expect = top === 0x7b ? 'key' : 'value';
          i++;
          continue;
        }
        if ((c === 0x5d && top === 0x5b) || (c === 0x7d && top === 0x7b)) {
          stack.pop();
          expect = afterValue();
          i++;
          continue;
        }
        return i;
      }
      case 'key':
      case 'keyOrClose':
        if (c === 0x7d && expect === 'keyOrClose') {
          stack.pop();
          expect = afterValue();
          i++;
          continue;
        }
        if (c !== 0x22) return i;
        i = scanString(text, i);
        if (i < 0) return -i - 1;
        expect = 'colon';
        continue;
      case 'value':
      case 'valueOrClose': {
        if (c === 0x5d && expect === 'valueOrClose') {
          stack.pop();
          expect = afterValue();
          i++;
          continue;
        }
        if (c === 0x5b || c === 0x7b) {
          stack.push(c);
          expect = c === 0x5b ? 'valueOrClose' : 'keyOrClose';
          i++;
          continue;
        }
        let end: number;
        if (c === 0x22) end = scanString(text, i);
        else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) end = scanNumber(text, i);
        else end = scanLiteral(text, i);
        if (end < 0) return -end - 1;
        i = end;
        expect = afterValue();
        continue;
      }
    }
  }
  return expect === 'end' ? -1 : n;
}

/** Returns the index after the closing quote, or -(errorIndex + 1). */
function scanString(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) return i + 1;
    if (c < 0x20) return -(i + 1);
    if (c === 0x5c) {
      const e = text[i + 1];
      if (e === 'u') {
        if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) return -(i + 1);
        i += 5;
      } else if (e !== undefined && '"\\/bfnrt'.includes(e)) {
        i++;
      } else {
        return -(i + 2);
      }
    }
  }
  return -(text.length + 1);
}

const NUMBER_RE = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

function scanNumber(text: string, start: number): number {
  NUMBER_RE.lastIndex = start;
  const m = NUMBER_RE.exec(text);
  if (!m) return -(start + 1);
  return start + m[0].length;
}

function scanLiteral(text: string, start: number): number {
  for (const word of ['true', 'false', 'null']) {
    if (text.startsWith(word, start)) return start + word.length;
  }
  // Point at the first character that departs from every literal.
  let i = start;
  while (i < text.length && ['true', 'false', 'null'].some((w) => w.startsWith(text.slice(start, i + 1))))
    i++;
  return -(i + 1);
}
