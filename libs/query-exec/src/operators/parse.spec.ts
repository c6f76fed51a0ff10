import { columnFromValues, valueAt, type ColumnBatch } from '@quarry/contracts';
import { col, type ParseNode, type PlanNode } from '@quarry/query-plan';
import { streamOf, testEnv } from '../testing/operator-test-kit';
import { parse } from './parse';

const env = testEnv;
const stream = streamOf;

function node(parts: ParseNode['parts'], mode: ParseNode['mode']): ParseNode {
  return {
    kind: 'parse',
    input: {} as PlanNode,
    source: col('s', 'string'),
    parts,
    mode,
    dropUnmatched: false,
    schema: [],
  };
}

async function captured(n: ParseNode, values: (string | null)[], names: string[]): Promise<unknown[][]> {
  const batch: ColumnBatch = {
    length: values.length,
    columns: new Map([['s', columnFromValues(values, 'string')]]),
  };
  const out: unknown[][] = [];
  for await (const b of parse(stream([batch]), n, env())) {
    for (let i = 0; i < b.length; i++) out.push(names.map((name) => valueAt(b.columns.get(name)!, i)));
  }
  return out;
}

describe('parse kind=regex', () => {
  it('assigns captures by position even when a regex constant has its own group', async () => {
    const n = node(
      [
        { kind: 'const', text: '(\\w+)' },
        { kind: 'capture', name: 'rest', type: 'string' },
      ],
      'regex',
    );
    expect(await captured(n, ['ERROR: disk full', null], ['rest'])).toEqual([[': disk full'], [null]]);
  });

  it('converts typed captures between constants', async () => {
    const n = node(
      [
        { kind: 'const', text: '(a|b)=' },
        { kind: 'capture', name: 'k', type: 'long' },
        { kind: 'const', text: ';' },
      ],
      'regex',
    );
    expect(await captured(n, ['x a=42;', 'b=x;', 'none'], ['k'])).toEqual([[42], [null], [null]]);
  });
});
