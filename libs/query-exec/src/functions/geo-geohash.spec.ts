import fc from 'fast-check';
import { geohashDecode, geohashEncode, geohashNeighbors } from './geo-geohash';

const lng = fc.double({ min: -180, max: 180, noNaN: true });
const lat = fc.double({ min: -90, max: 90, noNaN: true });
const length = fc.integer({ min: 1, max: 18 });

describe('geohash', () => {
  it('decodes what it encodes: the cell holds the point and has the size its length gives', () => {
    fc.assert(
      fc.property(lng, lat, length, (x, y, n) => {
        const hash = geohashEncode(x, y, n);
        expect(hash).toHaveLength(n);
        const box = geohashDecode(hash)!;
        expect(x).toBeGreaterThanOrEqual(box.west);
        expect(y).toBeGreaterThanOrEqual(box.south);
        // The top edge belongs to the next cell, except at the world's edge.
        expect(x < box.east || box.east === 180).toBe(true);
        expect(y < box.north || box.north === 90).toBe(true);
        const lngBits = Math.ceil((5 * n) / 2);
        expect(box.east - box.west).toBeCloseTo(360 / 2 ** lngBits, 12);
        expect(box.north - box.south).toBeCloseTo(180 / 2 ** (5 * n - lngBits), 12);
        // Encoding the cell's center gives the cell back; a prefix is the coarser cell.
        expect(geohashEncode((box.west + box.east) / 2, (box.south + box.north) / 2, n)).toBe(hash);
        expect(geohashEncode(x, y, Math.max(1, n - 1))).toBe(hash.slice(0, Math.max(1, n - 1)));
      }),
    );
  });

  it('names eight distinct neighbors that touch the cell, away from the poles', () => {
    fc.assert(
      fc.property(
        lng,
        fc.double({ min: -80, max: 80, noNaN: true }),
        fc.integer({ min: 2, max: 12 }),
        (x, y, n) => {
          const hash = geohashEncode(x, y, n);
          const box = geohashDecode(hash)!;
          const around = geohashNeighbors(hash)!;
          expect(new Set([hash, ...around]).size).toBe(9);
          const w = box.east - box.west;
          const h = box.north - box.south;
          for (const other of around) {
            const b = geohashDecode(other)!;
            expect(b.east - b.west).toBeCloseTo(w, 12);
            const dx = Math.abs((((b.west - box.west + 540) % 360) - 180) / w);
            const dy = Math.abs((b.south - box.south) / h);
            expect(Math.max(Math.round(dx), Math.round(dy))).toBe(1);
          }
        },
      ),
    );
  });

  it('rejects what is not a geohash', () => {
    for (const bad of ['', 'a', 'sunnyi', 'SUNNY', 'sunny!', 's'.repeat(19)])
      expect(geohashDecode(bad)).toBeNull();
    expect(geohashNeighbors('a')).toBeNull();
  });

  it('leaves out the cells beyond a pole', () => {
    const top = geohashEncode(0, 89.99, 2);
    expect(geohashNeighbors(top)).toHaveLength(5);
  });
});
