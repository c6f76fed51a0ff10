import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { valueAt } from '@quarry/contracts';
import { decodeBlock } from './decode-block';
import { readFooter } from './footer';

/** Blocks written by the version-1 encoder (fixtures/v1/README.md): every later reader must decode them. */
const dir = join(__dirname, '..', 'fixtures', 'v1');

interface Expected {
  rowCount: number;
  columns: Record<string, { kind: string; values: unknown[] }>;
}

const SPECIAL: Record<string, number> = { NaN: NaN, Infinity: Infinity, '-Infinity': -Infinity, '-0': -0 };

/** The fixture's value as a JS value: the special numbers are spelled as strings in numeric columns. */
function expectedValue(kind: string, v: unknown): unknown {
  const numeric = kind === 'long' || kind === 'real' || kind === 'datetime' || kind === 'timespan';
  return numeric && typeof v === 'string' ? SPECIAL[v] : v;
}

describe('version-1 fixture blocks', () => {
  it.each(['mixed', 'uncompressed', 'dict-u16', 'bench-events'])(
    '%s decodes to its expected content',
    (name) => {
      const bytes = new Uint8Array(readFileSync(join(dir, `${name}.qblk`)));
      const expected = JSON.parse(readFileSync(join(dir, `${name}.expected.json`), 'utf8')) as Expected;
      expect(bytes[4]).toBe(1);
      expect(readFooter(bytes).version).toBe(1);
      const batch = decodeBlock(bytes);
      expect(batch.length).toBe(expected.rowCount);
      expect([...batch.columns.keys()].sort()).toEqual(Object.keys(expected.columns).sort());
      for (const [column, { kind, values }] of Object.entries(expected.columns)) {
        const got = batch.columns.get(column)!;
        expect(got.kind).toBe(kind);
        for (let i = 0; i < values.length; i++) {
          // toEqual tells -0 from 0 and matches NaN with NaN.
          expect([column, i, valueAt(got, i)]).toEqual([column, i, expectedValue(kind, values[i])]);
        }
      }
    },
  );

  it('dict-u32 (4-byte dictionary codes) decodes', () => {
    const batch = decodeBlock(new Uint8Array(readFileSync(join(dir, 'dict-u32.qblk'))));
    expect(batch.length).toBe(70_000);
    const id = batch.columns.get('id')!;
    for (let i = 0; i < batch.length; i++) {
      const want = i % 7 === 3 ? null : i.toString(36);
      if (valueAt(id, i) !== want) expect([i, valueAt(id, i)]).toEqual([i, want]);
    }
  });

  it('a corrupt v1 chunk fails with block_corrupt naming the column', () => {
    const bytes = new Uint8Array(readFileSync(join(dir, 'bench-events.qblk')));
    const meta = readFooter(bytes).columns.find((c) => c.name === 'message')!;
    bytes[meta.offset + 3] ^= 0x40;
    expect(() => decodeBlock(bytes, ['message'])).toThrow(
      expect.objectContaining({ code: 'block_corrupt', message: expect.stringContaining('"message"') }),
    );
  });
});
