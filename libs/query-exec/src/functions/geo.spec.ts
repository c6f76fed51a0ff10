import fc from 'fast-check';
import type { ColumnKind } from '@quarry/contracts';
import { GEO_FUNCTIONS, sphereDistance } from './geo';
import { EARTH_RADIUS_M, type LngLat } from './geo-sphere';

const lng = fc.double({ min: -180, max: 180, noNaN: true });
const lat = fc.double({ min: -90, max: 90, noNaN: true });
const point = fc.tuple(lng, lat);
const call = (fn: string, ...args: unknown[]) =>
  GEO_FUNCTIONS[fn](
    args,
    args.map((a): ColumnKind =>
      typeof a === 'number' ? 'real' : typeof a === 'string' ? 'string' : 'dynamic',
    ),
  );
const METERS_PER_DEGREE = (EARTH_RADIUS_M * Math.PI) / 180;

describe('geo_distance_2points', () => {
  it('is a metric on the sphere: zero to itself, symmetric, and obeys the triangle inequality', () => {
    fc.assert(
      fc.property(point, point, point, (a, b, c) => {
        expect(sphereDistance(a, a)).toBe(0);
        const ab = sphereDistance(a, b);
        expect(Math.abs(ab - sphereDistance(b, a))).toBeLessThan(1e-6);
        expect(sphereDistance(a, c)).toBeLessThanOrEqual(ab + sphereDistance(b, c) + 1e-6);
        expect(ab).toBeLessThanOrEqual(Math.PI * EARTH_RADIUS_M + 1e-6);
      }),
    );
  });

  it('measures a meridian arc as its angle times the radius', () => {
    fc.assert(
      fc.property(lng, lat, lat, (x, y1, y2) => {
        expect(call('geo_distance_2points', x, y1, x, y2) as number).toBeCloseTo(
          Math.abs(y1 - y2) * METERS_PER_DEGREE,
          4,
        );
      }),
    );
  });

  it('on the WGS-84 spheroid: a degree of the equator is 111319.49 m, a degree of meridian at the equator 110574.4 m', () => {
    expect(call('geo_distance_2points', 0, 0, 1, 0, true) as number).toBeCloseTo(111319.491, 2);
    expect(call('geo_distance_2points', 0, 0, 0, 1, true) as number).toBeCloseTo(110574.389, 2);
    expect(call('geo_distance_2points', 0, 0, 0, 1, false) as number).toBeCloseTo(METERS_PER_DEGREE, 6);
    expect(call('geo_distance_2points', 0, 0, 0, 1, null)).toBeNull();
  });

  it('is null for a coordinate out of range or null', () => {
    for (const bad of [
      [181, 0, 0, 0],
      [0, 91, 0, 0],
      [0, 0, -180.5, 0],
      [0, 0, 0, null],
    ])
      expect(call('geo_distance_2points', ...bad)).toBeNull();
  });
});

describe('geo_point_in_circle', () => {
  it('holds exactly the points no farther than the radius', () => {
    fc.assert(
      fc.property(point, point, fc.double({ min: 1, max: 2e7, noNaN: true }), (p, c, r) => {
        expect(call('geo_point_in_circle', p[0], p[1], c[0], c[1], r)).toBe(sphereDistance(p, c) <= r);
      }),
    );
    expect(call('geo_point_in_circle', 0, 0, 0, 0, 0)).toBeNull();
  });
});

describe('geo_distance_point_to_line', () => {
  const line = (...coordinates: LngLat[]) => ({ type: 'LineString', coordinates });

  it('is the distance to the nearest vertex or less, and the perpendicular distance to a meridian segment', () => {
    fc.assert(
      fc.property(point, point, point, (p, a, b) => {
        const d = call('geo_distance_point_to_line', p[0], p[1], line(a, b)) as number | null;
        if (d === null) return; // antipodal ends: no unique edge
        expect(d).toBeLessThanOrEqual(Math.min(sphereDistance(p, a), sphereDistance(p, b)) + 1e-6);
        expect(d).toBeGreaterThanOrEqual(0);
      }),
    );
    // Within these bounds the foot of the perpendicular falls on the segment: the distance is to its circle.
    const offMeridian = fc.double({ min: -30, max: 30, noNaN: true });
    fc.assert(
      fc.property(offMeridian, fc.double({ min: -5, max: 5, noNaN: true }), (x, y) => {
        const d = call('geo_distance_point_to_line', x, y, line([0, -10], [0, 10])) as number;
        const toCircle = Math.asin(Math.abs(Math.sin((x * Math.PI) / 180) * Math.cos((y * Math.PI) / 180)));
        expect(d).toBeCloseTo(toCircle * EARTH_RADIUS_M, 4);
      }),
    );
  });

  it('takes the nearest of the lines of a MultiLineString, and rejects lines the page calls invalid', () => {
    const multi = {
      type: 'MultiLineString',
      coordinates: [
        [
          [0, 10],
          [0, 20],
        ],
        [
          [5, 0],
          [6, 0],
        ],
      ],
    };
    expect(call('geo_distance_point_to_line', 5, 1, multi) as number).toBeCloseTo(METERS_PER_DEGREE, 3);
    expect(call('geo_distance_point_to_line', 0, 0, line([1, 1]))).toBeNull();
    expect(call('geo_distance_point_to_line', 0, 0, line([1, 1], [1, 91]))).toBeNull();
    expect(call('geo_distance_point_to_line', 0, 0, line([0, 0], [180, 0]))).toBeNull();
    expect(call('geo_distance_point_to_line', 0, 0, { type: 'Polygon', coordinates: [] })).toBeNull();
    expect(
      call('geo_distance_point_to_line', 0, 0, '{"type":"LineString","coordinates":[[0,1],[1,1]]}'),
    ).toBeCloseTo(METERS_PER_DEGREE, 0);
  });
});

describe('S2 and H3 cells', () => {
  it('the central point of a point’s cell lies in the same cell, and the level is kept', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -179.9, max: 179.9, noNaN: true }),
        fc.double({ min: -85, max: 85, noNaN: true }),
        fc.integer({ min: 0, max: 30 }),
        fc.integer({ min: 0, max: 15 }),
        (x, y, s2Level, h3Level) => {
          const token = call('geo_point_to_s2cell', x, y, s2Level) as string;
          const s2Center = call('geo_s2cell_to_central_point', token) as { coordinates: LngLat };
          expect(call('geo_point_to_s2cell', ...s2Center.coordinates, s2Level)).toBe(token);
          const cell = call('geo_point_to_h3cell', x, y, h3Level) as string;
          expect(call('geo_h3cell_level', cell)).toBe(h3Level);
          const h3Center = call('geo_h3cell_to_central_point', cell) as { coordinates: LngLat };
          expect(call('geo_point_to_h3cell', ...h3Center.coordinates, h3Level)).toBe(cell);
          // H3 children are not nested exactly in their parent, so only the parent's level is certain.
          if (h3Level > 0)
            expect(call('geo_h3cell_level', call('geo_h3cell_parent', cell))).toBe(h3Level - 1);
        },
      ),
    );
  });

  it('rejects levels out of range and tokens that are not cells', () => {
    expect(call('geo_point_to_s2cell', 1, 1, 31)).toBeNull();
    expect(call('geo_point_to_s2cell', 1, 1, 2.5)).toBeNull();
    expect(call('geo_point_to_s2cell', 1, 1)).toBe(call('geo_point_to_s2cell', 1, 1, 11));
    expect(call('geo_point_to_h3cell', 1, 1)).toBe(call('geo_point_to_h3cell', 1, 1, 6));
    expect(call('geo_point_to_geohash', 1, 1)).toHaveLength(5);
    for (const token of ['', 'zz', 'X', '0', '1234567890abcdef1'])
      expect(call('geo_s2cell_to_central_point', token)).toBeNull();
    for (const cell of ['', '1', 'abc', '862a1072fffffffff', '862a1072fffffff0'])
      expect(call('geo_h3cell_level', cell)).toBeNull();
    expect(call('geo_h3cell_parent', '802bfffffffffff')).toBeNull();
    expect(call('geo_h3cell_parent', '862a1072fffffff', 6)).toBe('862a1072fffffff');
  });
});

describe('geo_azimuth and geo_angle', () => {
  it('point north along a meridian and east along the equator; the angle is the turn between azimuths', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -179, max: 179, noNaN: true }),
        fc.double({ min: -80, max: 80, noNaN: true }),
        (x, y) => {
          expect(call('geo_azimuth', x, y, x, y + 5)).toBeCloseTo(0, 9);
          expect(call('geo_azimuth', x, y + 5, x, y)).toBeCloseTo(Math.PI, 9);
          expect(call('geo_azimuth', x, 0, x + 1, 0)).toBeCloseTo(Math.PI / 2, 9);
          // Going north then continuing north is a half turn from the line back to the start.
          expect(call('geo_angle', x, y, x, y + 2, x, y + 4)).toBeCloseTo(Math.PI, 9);
        },
      ),
    );
    expect(call('geo_azimuth', 0, 0, 180, 0)).toBeNull();
    expect(call('geo_angle', 0, 0, 0, 0, 1, 1)).toBeNull();
  });
});

describe('S2 and H3 neighborhoods', () => {
  it('H3 neighbors are the cells one step away, rings grow by distance, children have the cell as parent', () => {
    fc.assert(
      fc.property(point, fc.integer({ min: 1, max: 10 }), ([x, y], res) => {
        const cell = call('geo_point_to_h3cell', x, y, res) as string;
        const around = call('geo_h3cell_neighbors', cell) as string[];
        expect(around.length === 6 || around.length === 5).toBe(true);
        const rings = call('geo_h3cell_rings', cell, 1) as string[][];
        expect(rings[0]).toEqual([cell]);
        expect([...rings[1]].sort()).toEqual([...around].sort());
        for (const child of call('geo_h3cell_children', cell) as string[]) {
          expect(call('geo_h3cell_parent', child)).toBe(cell);
        }
      }),
      { numRuns: 50 },
    );
  });

  it('S2 neighbors are eight distinct cells of the same level, each touching the cell', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -179, max: 179, noNaN: true }),
        fc.double({ min: -80, max: 80, noNaN: true }),
        fc.integer({ min: 2, max: 20 }),
        (x, y, level) => {
          const token = call('geo_point_to_s2cell', x, y, level) as string;
          const around = call('geo_s2cell_neighbors', token) as string[];
          expect(new Set([token, ...around]).size).toBe(9);
          const polygon = call('geo_s2cell_to_polygon', token) as { coordinates: LngLat[][] };
          const center = (call('geo_s2cell_to_central_point', token) as { coordinates: LngLat }).coordinates;
          const corner = polygon.coordinates[0][0];
          const reach = sphereDistance(center, corner) * 3.5;
          for (const n of around) {
            const c = (call('geo_s2cell_to_central_point', n) as { coordinates: LngLat }).coordinates;
            expect(sphereDistance(center, c)).toBeLessThan(reach);
          }
        },
      ),
      { numRuns: 50 },
    );
  });
});
