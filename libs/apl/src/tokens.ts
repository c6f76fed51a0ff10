export type TokenKind = 'ident' | 'string' | 'int' | 'real' | 'timespan' | 'punct' | 'eof';

export interface Token {
  kind: TokenKind;
  /** Identifier name, punctuation text, or the decoded string value. */
  text: string;
  /** Numeric value for `int`, `real` and `timespan` (milliseconds) tokens. */
  value?: number;
  start: number;
  end: number;
}

export function describeToken(t: Token): string {
  switch (t.kind) {
    case 'eof':
      return 'end of query';
    case 'string':
      return `string "${t.text}"`;
    case 'punct':
      return `'${t.text}'`;
    default:
      return `'${t.text}'`;
  }
}
