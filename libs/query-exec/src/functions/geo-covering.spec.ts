import fc from 'fast-check';
import { cellToLatLng } from 'h3-js';
import { S2CellId, S2LatLng } from 'nodes2ts';
import { GEO_COVERING_FUNCTIONS, MAX_H3_CELLS } from './geo-covering';
import { readPolygons } from './geo-geojson';
import { polygonContains } from './geo-polygon';
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

describe('geo_polygon_to_s2cells', () => {
  const toS2 = (...args: unknown[]) =>
    GEO_COVERING_FUNCTIONS.geo_polygon_to_s2cells(
      args,
      args.map((a) => (typeof a === 'number' ? 'real' : 'dynamic')),
    ) as string[] | null;
  const cellOf = (lng: number, lat: number, level: number) =>
    S2CellId.fromPoint(S2LatLng.fromDegrees(lat, lng).toPoint()).parentL(level).toToken();

  it('covers every point of the polygon with a cell of the level, listed once in id order', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -170, max: 170, noNaN: true }),
        fc.double({ min: -60, max: 60, noNaN: true }),
        fc.array(fc.double({ min: 0.05, max: 0.5, noNaN: true }), { minLength: 3, maxLength: 8 }),
        fc.integer({ min: 6, max: 10 }),
        fc.array(
          fc.tuple(
            fc.double({ min: -0.5, max: 0.5, noNaN: true }),
            fc.double({ min: -0.5, max: 0.5, noNaN: true }),
          ),
          {
            minLength: 30,
            maxLength: 30,
          },
        ),
        (lng, lat, radii, level, probes) => {
          const shell = ring(lng, lat, radii);
          const polygon = { type: 'Polygon', coordinates: [[...shell, shell[0]]] };
          const cells = toS2(polygon, level);
          expect(cells).not.toBeNull();
          expect(new Set(cells).size).toBe(cells!.length);
          const ids = cells!.map((t) => S2CellId.fromToken(t));
          for (let i = 1; i < ids.length; i++) expect(ids[i - 1].id < ids[i].id).toBe(true);
          for (const id of ids) expect(id.level()).toBe(level);
          const parsed = readPolygons(polygon)!;
          for (const [dx, dy] of probes)
            if (polygonContains(parsed, lng + dx, lat + dy))
              expect(cells).toContain(cellOf(lng + dx, lat + dy, level));
        },
      ),
      { numRuns: 50 },
    );
  });

  it('answers null for invalid input and past the cell limit', () => {
    const triangle = {
      type: 'Polygon',
      coordinates: [
        [
          [0, 0],
          [0, 50],
          [100, 50],
          [0, 0],
        ],
      ],
    };
    expect(toS2(triangle, 5)).toHaveLength(286); // the page's example
    expect(toS2(triangle, 30)).toBeNull();
    expect(toS2(triangle, 31)).toBeNull();
    expect(toS2(triangle, 5, -1)).toBeNull();
    expect(toS2({ type: 'Polygon' })).toBeNull();
    expect(toS2(triangle, 5, 100000)!.length).toBeGreaterThan(286);
  });
});

describe('geo_line_to_s2cells', () => {
  const toS2 = (...args: unknown[]) =>
    GEO_COVERING_FUNCTIONS.geo_line_to_s2cells(
      args,
      args.map((a) => (typeof a === 'number' ? 'real' : 'dynamic')),
    ) as string[] | null;
  const cellOf = (lng: number, lat: number, level: number) =>
    S2CellId.fromPoint(S2LatLng.fromDegrees(lat, lng).toPoint()).parentL(level).toToken();

  it('holds the cells of both ends of the line, and a buffer only adds cells', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -170, max: 170, noNaN: true }),
        fc.double({ min: -60, max: 60, noNaN: true }),
        fc.double({ min: -0.3, max: 0.3, noNaN: true }),
        fc.double({ min: -0.3, max: 0.3, noNaN: true }),
        fc.integer({ min: 8, max: 13 }),
        (lng, lat, dx, dy, level) => {
          const line = {
            type: 'LineString',
            coordinates: [
              [lng, lat],
              [lng + dx, lat + dy],
            ],
          };
          const cells = toS2(line, level);
          expect(cells).not.toBeNull();
          // The cells of both ends (S2's rule also for an end on a cell's border).
          expect(cells).toContain(cellOf(lng, lat, level));
          expect(cells).toContain(cellOf(lng + dx, lat + dy, level));
          const buffered = toS2(line, level, 200)!;
          for (const c of cells!) expect(buffered).toContain(c);
        },
      ),
      { numRuns: 50 },
    );
  });

  it('answers null for invalid input', () => {
    expect(toS2({ type: 'LineString', coordinates: [[1, 1]] })).toBeNull();
    expect(
      toS2(
        {
          type: 'LineString',
          coordinates: [
            [0, 0],
            [1, 1],
          ],
        },
        31,
      ),
    ).toBeNull();
    expect(
      toS2(
        {
          type: 'LineString',
          coordinates: [
            [0, 0],
            [1, 1],
          ],
        },
        11,
        -1,
      ),
    ).toBeNull();
    expect(
      toS2(
        {
          type: 'LineString',
          coordinates: [
            [0, 0],
            [80, 10],
          ],
        },
        30,
      ),
    ).toBeNull(); // past 65,536 cells
  });
});
