import fc from 'fast-check';
import { GEO_SIMPLIFY_FUNCTIONS, simplifyLineIndices, simplifyRingIndices } from './geo-simplify';
import { angleBetween, angleToArc, EARTH_RADIUS_M, toVec, type Vec3 } from './geo-sphere';

const call = (fn: string, ...args: unknown[]) =>
  GEO_SIMPLIFY_FUNCTIONS[fn](
    args,
    args.map((a) => (typeof a === 'number' ? 'real' : 'dynamic')),
  );

/** A wiggly walk: steps of up to ~1 km. */
const walk = fc
  .record({
    lng: fc.double({ min: -170, max: 170, noNaN: true }),
    lat: fc.double({ min: -70, max: 70, noNaN: true }),
    steps: fc.array(
      fc.tuple(
        fc.double({ min: -0.01, max: 0.01, noNaN: true }),
        fc.double({ min: -0.01, max: 0.01, noNaN: true }),
      ),
      { minLength: 1, maxLength: 40 },
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

const distanceToChain = (p: Vec3, chain: readonly Vec3[], closed: boolean): number => {
  let best = Infinity;
  const edges = closed ? chain.length : chain.length - 1;
  for (let i = 0; i < edges; i++)
    best = Math.min(best, angleToArc(p, chain[i], chain[(i + 1) % chain.length]));
  return best;
};

describe('geo_line_simplify', () => {
  it('keeps both ends, keeps input vertices in order, moves no vertex by more than twice the tolerance, and leaves no two kept vertices closer than it', () => {
    fc.assert(
      fc.property(walk, fc.double({ min: 1, max: 2000, noNaN: true }), (coordinates, meters) => {
        const points = coordinates.map(([x, y]) => toVec(x, y));
        const tolerance = meters / EARTH_RADIUS_M;
        const kept = simplifyLineIndices(points, tolerance);
        if (kept === null) {
          // It disappears only when its ends are closer than the tolerance.
          expect(angleBetween(points[0], points[points.length - 1])).toBeLessThan(tolerance);
          return;
        }
        expect(kept[0]).toBe(0);
        expect(kept[kept.length - 1]).toBe(points.length - 1);
        for (let i = 1; i < kept.length; i++) {
          expect(kept[i]).toBeGreaterThan(kept[i - 1]);
          expect(angleBetween(points[kept[i - 1]], points[kept[i]])).toBeGreaterThanOrEqual(tolerance);
        }
        const chain = kept.map((i) => points[i]);
        // Douglas–Peucker alone keeps every vertex within the tolerance; dropping a kept vertex that is
        // closer than the tolerance to its neighbour can add up to one tolerance more.
        for (const p of points)
          expect(distanceToChain(p, chain, false)).toBeLessThanOrEqual(2 * tolerance + 1e-12);
      }),
      { numRuns: 300 },
    );
  });

  it('drops no vertex that is farther from the chord than the tolerance (a corner stays)', () => {
    const line = {
      type: 'LineString',
      coordinates: [
        [0, 0],
        [0.01, 0.001],
        [0.02, 0],
      ],
    };
    expect(call('geo_line_simplify', line, 10)).toEqual(line); // the corner is ~111 m off the chord
    expect(call('geo_line_simplify', line, 200)).toEqual({
      type: 'LineString',
      coordinates: [
        [0, 0],
        [0.02, 0],
      ],
    });
  });

  it('simplifies each line of a MultiLineString', () => {
    const multi = {
      type: 'MultiLineString',
      coordinates: [
        [
          [0, 0],
          [0.01, 0.00001],
          [0.02, 0],
        ],
        [
          [1, 1],
          [1.00001, 1.00001],
        ],
      ],
    };
    // The second line (1.5 m long) disappears at 10 m; the first loses its middle vertex.
    expect(call('geo_line_simplify', multi, 10)).toEqual({
      type: 'LineString',
      coordinates: [
        [0, 0],
        [0.02, 0],
      ],
    });
    expect(call('geo_line_simplify', multi, 0)).toEqual(multi);
  });

  it('answers null for invalid input and out-of-range tolerances', () => {
    expect(call('geo_line_simplify', { type: 'LineString', coordinates: [[1, 1]] })).toBeNull();
    expect(
      call(
        'geo_line_simplify',
        {
          type: 'LineString',
          coordinates: [
            [1, 1],
            [2, 2],
          ],
        },
        -1,
      ),
    ).toBeNull();
    expect(
      call(
        'geo_line_simplify',
        {
          type: 'LineString',
          coordinates: [
            [1, 1],
            [2, 2],
          ],
        },
        7_800_001,
      ),
    ).toBeNull();
    expect(
      call(
        'geo_line_simplify',
        {
          type: 'LineString',
          coordinates: [
            [1, 1],
            [2, 2],
          ],
        },
        null,
      ),
    ).toBeNull();
    expect(call('geo_line_simplify', 'nope', 10)).toBeNull();
  });
});

describe('geo_polygon_simplify', () => {
  it('keeps rings of input vertices within twice the tolerance of every input vertex', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0.005, max: 0.05, noNaN: true }), { minLength: 3, maxLength: 40 }),
        fc.double({ min: 1, max: 1000, noNaN: true }),
        (radii, meters) => {
          const ring = radii.map((r, i) => {
            const t = (2 * Math.PI * i) / radii.length;
            return toVec(10 + r * Math.cos(t), 45 + r * Math.sin(t));
          });
          const tolerance = meters / EARTH_RADIUS_M;
          const kept = simplifyRingIndices(ring, tolerance);
          if (kept === null) return;
          expect(kept.length).toBeGreaterThanOrEqual(3);
          const chain = kept.map((i) => ring[i]);
          for (const p of ring)
            expect(distanceToChain(p, chain, true)).toBeLessThanOrEqual(2 * tolerance + 1e-12);
          for (let i = 0; i < chain.length; i++)
            expect(angleBetween(chain[i], chain[(i + 1) % chain.length])).toBeGreaterThanOrEqual(tolerance);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('answers null for invalid input, out-of-range tolerances and polygons that disappear', () => {
    const p = {
      type: 'Polygon',
      coordinates: [
        [
          [5, 48],
          [0, 50],
          [0, 47],
          [4, 47],
          [5, 48],
        ],
      ],
    };
    expect(call('geo_polygon_simplify', p, 0.05)).toBeNull();
    expect(call('geo_polygon_simplify', p, 10001)).toBeNull();
    expect(call('geo_polygon_simplify', p, 10000)).toEqual(p);
    const tiny = {
      type: 'Polygon',
      coordinates: [
        [
          [5, 48],
          [5.0001, 48],
          [5, 48.0001],
          [5, 48],
        ],
      ],
    };
    expect(call('geo_polygon_simplify', tiny, 100)).toBeNull();
  });
});

describe('geo_simplify_polygons_array', () => {
  it('simplifies every polygon of the array, dropping those that disappear', () => {
    const big = {
      type: 'Polygon',
      coordinates: [
        [
          [5, 48],
          [0, 50],
          [0, 47],
          [4, 47],
          [5, 48],
        ],
      ],
    };
    const tiny = {
      type: 'Polygon',
      coordinates: [
        [
          [5, 48],
          [5.0001, 48],
          [5, 48.0001],
          [5, 48],
        ],
      ],
    };
    expect(call('geo_simplify_polygons_array', [big, tiny], 100)).toEqual(big);
    expect(call('geo_simplify_polygons_array', [big, tiny], 1)).toEqual({
      type: 'MultiPolygon',
      coordinates: [big.coordinates, tiny.coordinates],
    });
    expect(call('geo_simplify_polygons_array', [big, { type: 'Polygon' }], 1)).toBeNull();
    expect(call('geo_simplify_polygons_array', big, 1)).toBeNull();
    expect(call('geo_simplify_polygons_array', [], 1)).toBeNull();
  });
});
