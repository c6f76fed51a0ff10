import { tokenizeLine } from './apl-tokenizer';

const types = (line: string) => tokenizeLine(line).map((t) => `${t.type}:${t.text}`);

describe('APL tokenizer (editor highlighting)', () => {
  it('colours datasets, operators after a pipe, fields, numbers and strings', () => {
    expect(types('[\'sample\'] | where status >= 500 and method == "GET"')).toEqual([
      "dataset:['sample']",
      'pipe:|',
      'operator:where',
      'field:status',
      'punctuation:>',
      'punctuation:=',
      'number:500',
      'keyword:and',
      'field:method',
      'punctuation:=',
      'punctuation:=',
      'string:"GET"',
    ]);
  });

  it('tells a function call from a field of the same name, and an operator from a field named like one', () => {
    expect(types('x | summarize count() by bin(_time, 1m), count')).toEqual([
      'field:x',
      'pipe:|',
      'operator:summarize',
      'function:count',
      'punctuation:(',
      'punctuation:)',
      'keyword:by',
      'function:bin',
      'punctuation:(',
      'field:_time',
      'punctuation:,',
      'number:1m',
      'punctuation:)',
      'punctuation:,',
      'field:count',
    ]);
    expect(types('ds | where where == 1')).toContain('field:where');
  });

  it('reads hyphenated operators, comments, escaped quotes and negated string operators', () => {
    expect(types('ds | project-away a // drop a')).toEqual([
      'field:ds',
      'pipe:|',
      'operator:project-away',
      'field:a',
      'comment:// drop a',
    ]);
    expect(types("ds | where m !contains 'it\\'s'")).toEqual([
      'field:ds',
      'pipe:|',
      'operator:where',
      'field:m',
      'keyword:!contains',
      "string:'it\\'s'",
    ]);
  });

  it('keeps the state across lines: an operator on the line after a pipe', () => {
    const state = { afterPipe: false };
    tokenizeLine("['logs'] |", state);
    expect(tokenizeLine('  take 10', state).map((t) => t.type)).toEqual(['operator', 'number']);
  });
});
