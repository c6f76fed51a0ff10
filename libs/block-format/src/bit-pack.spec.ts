import fc from 'fast-check';
import { bitWidth, packedLength, readPacked, writePacked } from './bit-pack';
import { ByteReader, ByteWriter } from './bytes';

describe('bit packing', () => {
  it('bitWidth is the number of bits of the value, up to 2^53', () => {
    expect([0, 1, 2, 3, 255, 256, 2 ** 31, 2 ** 32 - 1, 2 ** 32, 2 ** 53 - 1].map(bitWidth)).toEqual([
      0, 1, 2, 2, 8, 9, 32, 32, 33, 53,
    ]);
  });

  it('round-trips values of every width 0–32 (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 32 }),
        fc.array(fc.nat(), { maxLength: 200 }),
        fc.nat(7),
        (width, raw, pad) => {
          const max = width === 32 ? 2 ** 32 : 2 ** width;
          const values = Uint32Array.from(raw, (v) => v % max);
          const w = new ByteWriter(4);
          for (let i = 0; i < pad; i++) w.u8(0xee); // unaligned start
          writePacked(w, values, values.length, width);
          w.u8(0x99);
          const bytes = w.finish();
          expect(bytes.length).toBe(pad + packedLength(values.length, width) + 1);
          const r = new ByteReader(bytes, 'test');
          r.pos = pad;
          expect(readPacked(r, values.length, width)).toEqual(values);
          expect(r.u8()).toBe(0x99);
        },
      ),
    );
  });

  it('lays values out LSB first in a little-endian bit stream', () => {
    const w = new ByteWriter(4);
    writePacked(w, Uint32Array.of(1, 2, 3, 4, 5), 5, 3);
    // 001 010 011 100 101 → bits (LSB first): 1,0,0, 0,1,0, 1,1,0, 0,0,1, 1,0,1
    expect([...w.finish()]).toEqual([0b11010001, 0b01011000]);
  });
});
