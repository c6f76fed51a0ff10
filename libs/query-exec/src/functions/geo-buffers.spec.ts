import fc from 'fast-check';
import { GEO_BUFFER_FUNCTIONS } from './geo-buffers';
import { readPolygons } from './geo-geojson';
import { polygonContains } from './geo-polygon';
import { angleToArc, EARTH_RADIUS_M, gnomonicAbout, toLngLat, toVec, type Vec3 } from './geo-sphere';

const call = (fn: string, ...args: unknown[]) =>
  GEO_BUFFER_FUNCTIONS[fn](
    args,
    args.map((a) => (typeof a === 'number' ? 'real' : 'dynamic')),
  );

/** The point `dist` radians from `c` at `bearing` radians (counterclockwise from east). */
function away(c: Vec3, bearing: number, dist: number): [number, number] {
  const { e1, e2 } = gnomonicAbout(c);
  const d = [0, 1, 2].map((k) => Math.cos(bearing) * e1[k] + Math.sin(bearing) * e2[k]);
  const v: Vec3 = [0, 1, 2].map((k) => Math.cos(dist) * c[k] + Math.sin(dist) * d[k]) as unknown as Vec3;
  const p = toLngLat(v);
  return [p[0], p[1]];
}

const contains = (shape: unknown, p: readonly [number, number]) => {
  const polygons = readPolygons(shape);
  if (polygons === null) throw new Error(`not a polygon: ${JSON.stringify(shape)}`);
  return polygonContains(polygons, p[0], p[1]);
};

const center = fc.record({
  lng: fc.double({ min: -179, max: 179, noNaN: true }),
  lat: fc.double({ min: -85, max: 85, noNaN: true }),
});

describe('geo_point_buffer', () => {
  it('holds every point closer than the radius and none farther than radius + tolerance', () => {
    fc.assert(
      fc.property(
        center,
        fc.double({ min: 10, max: 2_000_000, noNaN: true }),
        fc.double({ min: 0.001, max: 0.05, noNaN: true }),
        fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }),
        ({ lng, lat }, radius, relTol, bearing) => {
          const tolerance = radius * relTol;
          const b = call('geo_point_buffer', lng, lat, radius, tolerance);
          const c = toVec(lng, lat);
          const r = radius / EARTH_RADIUS_M;
          const t = tolerance / EARTH_RADIUS_M;
          expect(contains(b, away(c, bearing, r * 0.999))).toBe(true);
          expect(contains(b, away(c, bearing, r + t * 1.01))).toBe(false);
        },
      ),
      { numRuns: 200, endOnFailure: true },
    );
  });

  it('uses the default tolerance of 10 m and lowers a tolerance above the radius', () => {
    const b = call('geo_point_buffer', 10, 20, 5000) as { coordinates: number[][][] };
    const c = toVec(10, 20);
    expect(contains(b, away(c, 1, 4999 / EARTH_RADIUS_M))).toBe(true);
    expect(contains(b, away(c, 1, 5011 / EARTH_RADIUS_M))).toBe(false);
    const coarse = call('geo_point_buffer', 10, 20, 5000, 1e9) as { coordinates: number[][][] };
    expect(coarse.coordinates[0].length).toBeLessThan(b.coordinates[0].length);
    expect(contains(coarse, away(c, 2, 4999 / EARTH_RADIUS_M))).toBe(true);
  });

  it('answers null for invalid input, never throws', () => {
    expect(call('geo_point_buffer', 200, 1, 0.1)).toBeNull();
    expect(call('geo_point_buffer', 10, 10, -1)).toBeNull();
    expect(call('geo_point_buffer', 10, 10, 0)).toBeNull();
    expect(call('geo_point_buffer', 10, 10, 1000, 0)).toBeNull();
    expect(call('geo_point_buffer', 10, 10, 1_000_000, 0.5)).toBeNull(); // below 0.0001% of the radius
    expect(call('geo_point_buffer', 10, 10, 2e7)).toBeNull(); // more than a hemisphere
    expect(call('geo_point_buffer', 10, null, 100)).toBeNull();
    fc.assert(
      fc.property(fc.array(fc.anything(), { minLength: 3, maxLength: 4 }), (args) => {
        expect(() =>
          GEO_BUFFER_FUNCTIONS.geo_point_buffer(args, ['real', 'real', 'real', 'real']),
        ).not.toThrow();
      }),
    );
  });
});

/** Distance (radians) from p to a chain of vertices. */
function distanceToChain(p: Vec3, chain: readonly Vec3[], closed: boolean): number {
  let best = Infinity;
  const edges = closed ? chain.length : chain.length - 1;
  for (let i = 0; i < edges; i++)
    best = Math.min(best, angleToArc(p, chain[i], chain[(i + 1) % chain.length]));
  return best;
}

const lineArb = fc
  .record({
    lng: fc.double({ min: -170, max: 170, noNaN: true }),
    lat: fc.double({ min: -70, max: 70, noNaN: true }),
    steps: fc.array(
      fc.tuple(
        fc.double({ min: -0.05, max: 0.05, noNaN: true }),
        fc.double({ min: -0.05, max: 0.05, noNaN: true }),
      ),
      {
        minLength: 1,
        maxLength: 6,
      },
    ),
  })
  .map(({ lng, lat, steps }) => {
    const coordinates: [number, number][] = [[lng, lat]];
    for (const [dx, dy] of steps) {
      const [x, y] = coordinates[coordinates.length - 1];
      coordinates.push([x + dx, y + dy]);
    }
    return coordinates;
  });

describe('geo_line_buffer', () => {
  it('holds every point closer to the line than the radius and none farther than radius + tolerance', () => {
    fc.assert(
      fc.property(
        lineArb,
        fc.double({ min: 50, max: 5000, noNaN: true }),
        fc.array(
          fc.tuple(
            fc.double({ min: -0.1, max: 0.1, noNaN: true }),
            fc.double({ min: -0.1, max: 0.1, noNaN: true }),
          ),
          {
            minLength: 20,
            maxLength: 20,
          },
        ),
        (coordinates, radius, probes) => {
          const tolerance = 1;
          const b = call('geo_line_buffer', { type: 'LineString', coordinates }, radius, tolerance);
          const chain = coordinates.map(([x, y]) => toVec(x, y));
          const r = radius / EARTH_RADIUS_M;
          const t = tolerance / EARTH_RADIUS_M;
          for (const [dx, dy] of probes) {
            const p: [number, number] = [coordinates[0][0] + dx, coordinates[0][1] + dy];
            const d = distanceToChain(toVec(p[0], p[1]), chain, false);
            if (d < r * 0.999) expect(contains(b, p)).toBe(true);
            if (d > r + 1.01 * t) expect(contains(b, p)).toBe(false);
          }
          // Points right at the ends and beside the middle of each edge.
          for (const v of chain) expect(contains(b, away(v, 0.3, r * 0.99))).toBe(true);
        },
      ),
      { numRuns: 30, endOnFailure: true },
    );
  });

  it('buffers a line 170° long (too wide for one gnomonic projection: united per cube face)', () => {
    const coordinates = [-85, -51, -17, 17, 51, 85].map((lng) => [lng, 0]);
    const radius = 200_000;
    const b = call('geo_line_buffer', { type: 'LineString', coordinates }, radius, 100);
    expect(b).not.toBeNull();
    expect((b as { type: string }).type).toBe('Polygon');
    const chain = coordinates.map(([x, y]) => toVec(x, y));
    const r = radius / EARTH_RADIUS_M;
    for (let i = 0; i < chain.length; i++)
      for (let k = 0; k < 12; k++) {
        const bearing = (2 * Math.PI * k) / 12 + 0.1;
        const inside = away(chain[i], bearing, r * 0.95);
        expect(contains(b, inside)).toBe(true);
        const outside = away(chain[i], bearing, r * 1.3);
        if (distanceToChain(toVec(outside[0], outside[1]), chain, false) > r * 1.01)
          expect(contains(b, outside)).toBe(false);
      }
  });

  it('answers null for invalid input', () => {
    expect(call('geo_line_buffer', { type: 'LineString' }, 5)).toBeNull();
    expect(
      call(
        'geo_line_buffer',
        {
          type: 'LineString',
          coordinates: [
            [0, 0],
            [1, 1],
          ],
        },
        0,
      ),
    ).toBeNull();
    expect(call('geo_line_buffer', 'not json', 5)).toBeNull();
    const multi = call(
      'geo_line_buffer',
      {
        type: 'MultiLineString',
        coordinates: [
          [
            [0, 0],
            [0.01, 0],
          ],
          [
            [1, 1],
            [1.01, 1],
          ],
        ],
      },
      100,
    );
    expect((multi as { type: string }).type).toBe('MultiPolygon');
  });
});

describe('geo_polygon_buffer', () => {
  it('holds the polygon and every point within the radius of it, and none farther than radius + tolerance', () => {
    fc.assert(
      fc.property(
        center,
        fc.array(fc.double({ min: 0.01, max: 0.2, noNaN: true }), { minLength: 3, maxLength: 8 }),
        fc.double({ min: 100, max: 20000, noNaN: true }),
        fc.array(
          fc.tuple(
            fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }),
            fc.double({ min: 0, max: 0.006, noNaN: true }),
          ),
          {
            minLength: 20,
            maxLength: 20,
          },
        ),
        ({ lng, lat }, radii, radius, probes) => {
          const c = toVec(lng, Math.max(-70, Math.min(70, lat)));
          const shell = radii.map((rad, i) =>
            away(c, (2 * Math.PI * i) / radii.length, (rad * Math.PI) / 180),
          );
          const polygon = { type: 'Polygon', coordinates: [[...shell, shell[0]]] };
          const tolerance = 5;
          const b = call('geo_polygon_buffer', polygon, radius, tolerance);
          const ring = shell.map(([x, y]) => toVec(x, y));
          const r = radius / EARTH_RADIUS_M;
          const t = tolerance / EARTH_RADIUS_M;
          for (const [bearing, dist] of probes) {
            const p = away(c, bearing, dist);
            const inPolygon = contains(polygon, p);
            const d = inPolygon ? 0 : distanceToChain(toVec(p[0], p[1]), ring, true);
            if (d < r * 0.999) expect(contains(b, p)).toBe(true);
            if (d > r + 1.01 * t) expect(contains(b, p)).toBe(false);
          }
        },
      ),
      { numRuns: 30, endOnFailure: true },
    );
  });

  it('answers null for invalid input', () => {
    expect(call('geo_polygon_buffer', { type: 'p' }, 1)).toBeNull();
    expect(
      call(
        'geo_polygon_buffer',
        {
          type: 'Polygon',
          coordinates: [
            [
              [10, 10],
              [0, 10],
              [0, 0],
              [10, 10],
            ],
          ],
        },
        0,
      ),
    ).toBeNull();
  });
});
