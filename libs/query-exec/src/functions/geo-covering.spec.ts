import fc from 'fast-check';
import { cellToLatLng } from 'h3-js';
import { GEO_COVERING_FUNCTIONS, MAX_H3_CELLS } from './geo-covering';
import { pointInPlanarRing } from './geo-sphere';

const toCells = (...args: unknown[]) =>
  GEO_COVERING_FUNCTIONS.geo_polygon_to_h3cells(
    args,
    args.map((a) => (typeof a === 'number' ? 'real' : 'dynamic')),
  ) as string[] | null;

/** A star-shaped ring in longitude/latitude about (lng, lat). */
const ring = (lng: number, lat: number, radii: readonly number[]): [number, number][] =>
  radii.map((r, i) => {
    const t = (2 * Math.PI * i) / radii.length;
    return [lng + r * Math.cos(t), lat + r * Math.sin(t)];
  });

describe('geo_polygon_to_h3cells', () => {
  it('lists only cells whose centers are inside, and a buffer only adds cells', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -170, max: 170, noNaN: true }),
        fc.double({ min: -60, max: 60, noNaN: true }),
        fc.array(fc.double({ min: 0.1, max: 0.5, noNaN: true }), { minLength: 3, maxLength: 8 }),
        (lng, lat, radii) => {
          const shell = ring(lng, lat, radii);
          const polygon = { type: 'Polygon', coordinates: [[...shell, shell[0]]] };
          const cells = toCells(polygon, 5);
          expect(cells).not.toBeNull();
          for (const c of cells!) {
            const [y, x] = cellToLatLng(c);
            expect(pointInPlanarRing(x, y, shell)).toBe(true);
          }
          const buffered = toCells(polygon, 5, 5000)!;
          for (const c of cells!) expect(buffered).toContain(c);
        },
      ),
      { numRuns: 50 },
    );
  });

  it('answers null for invalid input and past the cell limit', () => {
    const polygon = {
      type: 'Polygon',
      coordinates: [
        [
          [0, 0],
          [1, 0],
          [1, 1],
          [0, 0],
        ],
      ],
    };
    expect(toCells(polygon, 16)).toBeNull();
    expect(toCells(polygon, 2.5)).toBeNull();
    expect(toCells(polygon, 6, -1)).toBeNull();
    expect(
      toCells({
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [1, 1],
          ],
        ],
      }),
    ).toBeNull();
    expect(toCells(polygon, 12)).toBeNull(); // ~200,000 cells
    expect(toCells(polygon, 8)!.length).toBeLessThanOrEqual(MAX_H3_CELLS);
  });
});
