import fc from 'fast-check';
import { GEO_CLOSEST_FUNCTIONS } from './geo-closest';
import { angleBetween, cross, dot, normalize, toVec, type Vec3 } from './geo-sphere';

const call = (fn: string, ...args: unknown[]) =>
  GEO_CLOSEST_FUNCTIONS[fn](
    args,
    args.map((a) => (typeof a === 'number' ? 'real' : 'dynamic')),
  ) as { type: string; coordinates: [number, number] } | null;

const walk = fc
  .record({
    lng: fc.double({ min: -170, max: 170, noNaN: true }),
    lat: fc.double({ min: -70, max: 70, noNaN: true }),
    steps: fc.array(
      fc.tuple(fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true })),
      {
        minLength: 1,
        maxLength: 10,
      },
    ),
  })
  .map(({ lng, lat, steps }) => {
    const out: [number, number][] = [[lng, lat]];
    for (const [dx, dy] of steps) {
      const [x, y] = out[out.length - 1];
      out.push([x + dx, y + dy]);
    }
    return out;
  });

/** The angle from p to the edge a–b, with S2's robust cross product so that very short edges stay exact. */
function toEdge(p: Vec3, a: Vec3, b: Vec3): number {
  const n = normalize(
    cross([a[0] + b[0], a[1] + b[1], a[2] + b[2]], [b[0] - a[0], b[1] - a[1], b[2] - a[2]]),
  );
  if (n === null) return Math.min(angleBetween(p, a), angleBetween(p, b));
  return dot(p, cross(n, a)) >= 0 && dot(p, cross(b, n)) >= 0
    ? Math.asin(Math.min(1, Math.abs(dot(p, n))))
    : Math.min(angleBetween(p, a), angleBetween(p, b));
}

const distanceToChain = (p: Vec3, chain: readonly Vec3[]): number => {
  let best = Infinity;
  for (let i = 0; i + 1 < chain.length; i++) best = Math.min(best, toEdge(p, chain[i], chain[i + 1]));
  return best;
};

describe('geo_closest_point_on_line', () => {
  it('answers a point on the line, as near as the line gets, and no vertex is nearer', () => {
    fc.assert(
      fc.property(
        walk,
        fc.tuple(fc.double({ min: -3, max: 3, noNaN: true }), fc.double({ min: -3, max: 3, noNaN: true })),
        (coordinates, [dx, dy]) => {
          const x = coordinates[0][0] + dx;
          const y = coordinates[0][1] + dy;
          const c = call('geo_closest_point_on_line', x, y, { type: 'LineString', coordinates });
          expect(c?.type).toBe('Point');
          const q = toVec(c!.coordinates[0], c!.coordinates[1]);
          const chain = coordinates.map(([a, b]) => toVec(a, b));
          expect(distanceToChain(q, chain)).toBeLessThan(1e-12);
          const p = toVec(x, y);
          const d = angleBetween(p, q);
          expect(Math.abs(d - distanceToChain(p, chain))).toBeLessThan(1e-12);
          for (const v of chain) expect(angleBetween(p, v)).toBeGreaterThanOrEqual(d - 1e-12);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('answers the vertex itself, with its input coordinates, when a vertex is nearest', () => {
    const line = {
      type: 'LineString',
      coordinates: [
        [0, 0],
        [1, 1],
        [2, 0],
      ],
    };
    expect(call('geo_closest_point_on_line', 1, 1.5, line)).toEqual({ type: 'Point', coordinates: [1, 1] });
    expect(call('geo_closest_point_on_line', 300, 3, line)).toBeNull();
    expect(call('geo_closest_point_on_line', 1, 1, { type: 'LineString' })).toBeNull();
  });
});

describe('geo_closest_point_on_polygon', () => {
  const square = {
    type: 'Polygon',
    coordinates: [
      [
        [0, 0],
        [1, 0],
        [1, 1],
        [0, 1],
        [0, 0],
      ],
    ],
  };
  it('answers the point itself inside, else the nearest point of a ring', () => {
    expect(call('geo_closest_point_on_polygon', 0.5, 0.5, square)).toEqual({
      type: 'Point',
      coordinates: [0.5, 0.5],
    });
    expect(call('geo_closest_point_on_polygon', 2, 2, square)).toEqual({
      type: 'Point',
      coordinates: [1, 1],
    });
    const c = call('geo_closest_point_on_polygon', 0.5, -1, square)!;
    expect(c.coordinates[0]).toBeCloseTo(0.5, 9);
    expect(c.coordinates[1]).toBeCloseTo(0, 4); // the geodesic edge bows slightly from the parallel
    const holed = {
      type: 'Polygon',
      coordinates: [
        [
          [0, 0],
          [4, 0],
          [4, 4],
          [0, 4],
          [0, 0],
        ],
        [
          [1, 1],
          [1, 3],
          [3, 3],
          [3, 1],
          [1, 1],
        ],
      ],
    };
    const h = call('geo_closest_point_on_polygon', 2, 2.9, holed)!;
    expect(h.coordinates[1]).toBeCloseTo(3, 3); // the hole's edge, not the shell's
  });

  it('answers null for invalid input', () => {
    expect(call('geo_closest_point_on_polygon', 500, 1, square)).toBeNull();
    expect(
      call('geo_closest_point_on_polygon', 1, 1, {
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [10, 10],
            [10, 10],
            [0, 0],
          ],
        ],
      }),
    ).toBeNull();
  });
});
