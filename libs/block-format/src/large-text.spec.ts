import type { ColumnBatch, StringColumn } from '@quarry/contracts';
import { decodeBlock } from './decode-block';
import { encodeBlock } from './encode-block';
import { readFooter } from './footer';
import { TEXT_BATCH_CHARS } from './plain-values';

/**
 * Dictionaries whose text is longer than one piece (TEXT_BATCH_CHARS): written and decoded in batches, so
 * no string approaches V8's longest. The batch boundaries must not lose or shift a value.
 */
function roundTrip(values: string[], layout: string): void {
  const column: StringColumn = { kind: 'string', codes: Int32Array.from(values, (_, i) => i), dict: values };
  const batch: ColumnBatch = { length: values.length, columns: new Map([['s', column]]) };
  const bytes = encodeBlock(batch, { tokenFilters: false });
  expect(readFooter(bytes).columns[0].layout).toBe(layout);
  const got = decodeBlock(bytes).columns.get('s') as StringColumn;
  for (let i = 0; i < values.length; i++) {
    const value = got.dict[got.codes[i]];
    if (value !== values[i])
      expect([i, value.length, value.slice(0, 40)]).toEqual([i, values[i].length, values[i].slice(0, 40)]);
  }
}

describe('dictionaries longer than one text batch', () => {
  const total = TEXT_BATCH_CHARS + (TEXT_BATCH_CHARS >> 2);

  it('plain ASCII values', () => {
    const size = Math.ceil(total / 20);
    roundTrip(
      Array.from({ length: 20 }, (_, i) => `${i}:`.padEnd(size, 'abcdefghij'[i % 10])),
      'plain/identity',
    );
  });

  it('plain values with multi-byte and astral characters', () => {
    const size = Math.ceil(total / 2 / 12);
    roundTrip(
      Array.from({ length: 12 }, (_, i) => `é${i}🌍`.padEnd(size, 'ü€')),
      'plain/identity',
    );
  });

  it('token values', () => {
    const words = ['alpha', 'beta', 'gamma', 'délta', 'epsilon', '🌍', ''];
    const perValue = Math.ceil(total / 40 / 6);
    roundTrip(
      Array.from({ length: 40 }, (_, i) =>
        Array.from({ length: perValue }, (_, j) => words[(i + j * 3 + ((i * j) % 5)) % words.length]).join(
          ' ',
        ),
      ),
      'tokens/identity',
    );
  });
});
