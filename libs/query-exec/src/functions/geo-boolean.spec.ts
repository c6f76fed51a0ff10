import fc from 'fast-check';
import { GEO_BOOLEAN_FUNCTIONS } from './geo-boolean';
import { readPolygons } from './geo-geojson';
import { polygonContains } from './geo-polygon';
import { angleBetween, angleToArc, gnomonicAbout, toLngLat, toVec, type Vec3 } from './geo-sphere';

const { geo_union_polygons_array: unionArray, geo_intersection_2polygons: intersect } = GEO_BOOLEAN_FUNCTIONS;

/** A star-shaped polygon about (lng, lat): vertices at the given angular radii (degrees), counterclockwise. */
function star(
  lng: number,
  lat: number,
  radii: readonly number[],
): { type: string; coordinates: number[][][] } {
  const c = toVec(lng, lat);
  const { e1, e2 } = gnomonicAbout(c);
  const shell = radii.map((rDeg, i) => {
    const t = (2 * Math.PI * i) / radii.length;
    const r = (rDeg * Math.PI) / 180;
    const v = [0, 1, 2].map(
      (k) => Math.cos(r) * c[k] + Math.sin(r) * (Math.cos(t) * e1[k] + Math.sin(t) * e2[k]),
    ) as unknown as Vec3;
    const p = toLngLat(v);
    return [p[0], p[1]];
  });
  return { type: 'Polygon', coordinates: [[...shell, shell[0]]] };
}

const inside = (shape: unknown, lng: number, lat: number): boolean => {
  const polygons = readPolygons(shape);
  if (polygons === null) throw new Error(`not a polygon: ${JSON.stringify(shape)}`);
  return polygonContains(polygons, lng, lat) === true;
};

/** Angle from a point to the nearest edge of the shapes (to skip probes on a boundary). */
function boundaryDistance(shapes: readonly { coordinates: number[][][] }[], p: Vec3): number {
  let best = Infinity;
  for (const s of shapes)
    for (const ring of s.coordinates)
      for (let i = 0; i + 1 < ring.length; i++)
        best = Math.min(
          best,
          angleToArc(p, toVec(ring[i][0], ring[i][1]), toVec(ring[i + 1][0], ring[i + 1][1])),
        );
  return best;
}

const pair = fc.record({
  lng: fc.double({ min: -170, max: 170, noNaN: true }),
  lat: fc.double({ min: -75, max: 75, noNaN: true }),
  a: fc.array(fc.double({ min: 0.1, max: 3, noNaN: true }), { minLength: 3, maxLength: 9 }),
  b: fc.array(fc.double({ min: 0.1, max: 3, noNaN: true }), { minLength: 3, maxLength: 9 }),
  shift: fc.tuple(fc.double({ min: -3, max: 3, noNaN: true }), fc.double({ min: -3, max: 3, noNaN: true })),
  probes: fc.array(
    fc.tuple(fc.double({ min: -6, max: 6, noNaN: true }), fc.double({ min: -6, max: 6, noNaN: true })),
    {
      minLength: 30,
      maxLength: 30,
    },
  ),
});

describe('geo_union_polygons_array and geo_intersection_2polygons', () => {
  it('the union holds a point exactly when one input does; the intersection when both do', () => {
    fc.assert(
      fc.property(pair, ({ lng, lat, a, b, shift, probes }) => {
        const A = star(lng, lat, a);
        const B = star(lng + shift[0], Math.max(-80, Math.min(80, lat + shift[1])), b);
        const u = unionArray([[A, B]]);
        const i = intersect([A, B]) as { type: string };
        for (const [dx, dy] of probes) {
          const x = lng + dx;
          const y = Math.max(-89, Math.min(89, lat + dy));
          if (x < -180 || x > 180) continue;
          if (boundaryDistance([A, B], toVec(x, y)) < 1e-9) continue;
          const inA = inside(A, x, y);
          const inB = inside(B, x, y);
          expect(inside(u, x, y)).toBe(inA || inB);
          // The common area, where there is one (touching points and edges may come beside it).
          const parts =
            i.type === 'GeometryCollection'
              ? (i as unknown as { geometries: { type: string }[] }).geometries
              : [i];
          const area = parts.find((g) => g.type === 'Polygon' || g.type === 'MultiPolygon');
          if (area === undefined) expect(inA && inB).toBe(false);
          else expect(inside(area, x, y)).toBe(inA && inB);
        }
      }),
      { numRuns: 150, endOnFailure: true },
    );
  });

  it('keeps input vertices exactly and unites overlapping parts of a MultiPolygon first', () => {
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
    expect(unionArray([[square]])).toEqual(square);
    const far = {
      type: 'Polygon',
      coordinates: [
        [
          [5, 5],
          [6, 5],
          [6, 6],
          [5, 5],
        ],
      ],
    };
    const both = unionArray([[square, far]]) as { type: string; coordinates: unknown[] };
    expect(both.type).toBe('MultiPolygon');
    expect(both.coordinates).toHaveLength(2);
    const multi = { type: 'MultiPolygon', coordinates: [square.coordinates, square.coordinates] };
    expect(intersect([multi, square])).toEqual(square);
  });

  it('answers the empty GeometryCollection for disjoint polygons, null for invalid input', () => {
    const a = {
      type: 'Polygon',
      coordinates: [
        [
          [2, 45],
          [0, 45],
          [1, 44],
          [2, 45],
        ],
      ],
    };
    const b = {
      type: 'Polygon',
      coordinates: [
        [
          [3, 44],
          [3, 45],
          [2, 43],
          [3, 44],
        ],
      ],
    };
    expect(intersect([a, b])).toEqual({ type: 'GeometryCollection', geometries: [] });
    // Touching only: the shared vertex, the shared edge (Kusto's page shows the Point case).
    expect(
      intersect([
        a,
        {
          type: 'Polygon',
          coordinates: [
            [
              [3, 44],
              [2, 45],
              [2, 43],
              [3, 44],
            ],
          ],
        },
      ]),
    ).toEqual({
      type: 'Point',
      coordinates: [2, 45],
    });
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
    const next = {
      type: 'Polygon',
      coordinates: [
        [
          [1, 0],
          [2, 0],
          [2, 1],
          [1, 1],
          [1, 0],
        ],
      ],
    };
    expect(intersect([square, next])).toEqual({
      type: 'LineString',
      coordinates: [
        [1, 0],
        [1, 1],
      ],
    });
    expect(intersect([{ type: 'Polygon' }, a])).toBeNull();
    expect(unionArray([[a, { type: 'Polygon', coordinates: [[[-73.94622, 40.79249]]] }]])).toBeNull();
    expect(unionArray([a])).toBeNull(); // not an array
    expect(unionArray([[]])).toEqual({ type: 'GeometryCollection', geometries: [] });
    // Shapes about 180° apart do not fit one projection: the cube faces (geo-cube.ts) take them, each
    // polygon keeping its input vertices (its ring may start at another vertex).
    const west = {
      type: 'Polygon',
      coordinates: [
        [
          [0, -1],
          [1, 0],
          [0, 1],
          [0, -1],
        ],
      ],
    };
    const east = {
      type: 'Polygon',
      coordinates: [
        [
          [179, -1],
          [179, 1],
          [178, 0],
          [179, -1],
        ],
      ],
    };
    const apart = unionArray([[west, east]]) as { type: string; coordinates: number[][][][] };
    expect(apart.type).toBe('MultiPolygon');
    const vertexSets = apart.coordinates.map((p) => new Set(p[0].map((q) => `${q[0]},${q[1]}`)));
    const expected = [west, east].map((p) => new Set(p.coordinates[0].map((q) => `${q[0]},${q[1]}`)));
    expect(vertexSets).toHaveLength(2);
    for (const set of expected)
      expect(vertexSets.some((v) => [...set].every((k) => v.has(k)) && v.size === set.size)).toBe(true);
    expect(intersect([west, east])).toEqual({ type: 'GeometryCollection', geometries: [] });
  });
});

const { geo_intersection_2lines: lines2, geo_intersection_line_with_polygon: linePolygon } =
  GEO_BOOLEAN_FUNCTIONS;

const seg = fc.tuple(
  fc.double({ min: -3, max: 3, noNaN: true }),
  fc.double({ min: -3, max: 3, noNaN: true }),
  fc.double({ min: -3, max: 3, noNaN: true }),
  fc.double({ min: -3, max: 3, noNaN: true }),
);

const nearLine = (p: number[], line: number[][]): number => {
  let best = Infinity;
  const v = toVec(p[0], p[1]);
  for (let i = 0; i + 1 < line.length; i++) {
    const a = toVec(line[i][0], line[i][1]);
    const b = toVec(line[i + 1][0], line[i + 1][1]);
    // A (nearly) repeated position has no reliable great circle: measure to the point.
    best = Math.min(best, angleBetween(a, b) < 1e-9 ? angleBetween(v, a) : angleToArc(v, a, b));
  }
  return best;
};

describe('geo_intersection_2lines and geo_intersection_line_with_polygon', () => {
  it('a crossing point lies on both lines', () => {
    fc.assert(
      fc.property(fc.array(seg, { minLength: 2, maxLength: 2 }), ([[a, b, c, d], [e, f, g, h]]) => {
        fc.pre(Math.hypot(c - a, d - b) > 0.01 && Math.hypot(g - e, h - f) > 0.01);
        const l1 = [
          [10 + a, 40 + b],
          [10 + c, 40 + d],
          [12, 41],
        ];
        const l2 = [
          [10 + e, 40 + f],
          [10 + g, 40 + h],
        ];
        const r = lines2([
          { type: 'LineString', coordinates: l1 },
          { type: 'LineString', coordinates: l2 },
        ]) as { type: string; coordinates: number[] | number[][] };
        expect(r).not.toBeNull();
        const pts =
          r.type === 'Point'
            ? [r.coordinates as number[]]
            : r.type === 'MultiPoint'
              ? (r.coordinates as number[][])
              : [];
        for (const p of pts) {
          expect(nearLine(p, l1)).toBeLessThan(1e-12);
          expect(nearLine(p, l2)).toBeLessThan(1e-12);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('the pieces of a line inside a polygon lie on the line, inside the polygon, and cover the inside', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0.2, max: 2, noNaN: true }), { minLength: 3, maxLength: 9 }),
        seg,
        (radii, [a, b, c, d]) => {
          fc.pre(Math.hypot(c - a, d - b) > 0.01); // (degenerate lines have no reliable great circle to test against)
          const polygon = star(20, 30, radii);
          const line = [
            [20 + a, 30 + b],
            [20 + c, 30 + d],
          ];
          const r = linePolygon([{ type: 'LineString', coordinates: line }, polygon]) as {
            type: string;
            coordinates: number[][] | number[][][];
          };
          expect(r).not.toBeNull();
          const pieces =
            r.type === 'LineString'
              ? [r.coordinates as number[][]]
              : r.type === 'MultiLineString'
                ? (r.coordinates as number[][][])
                : [];
          let covered = 0;
          for (const piece of pieces)
            for (let i = 0; i + 1 < piece.length; i++) {
              expect(nearLine(piece[i], line)).toBeLessThan(1e-12);
              const m = toLngLat(
                [0, 1, 2].map(
                  (k) => toVec(piece[i][0], piece[i][1])[k] + toVec(piece[i + 1][0], piece[i + 1][1])[k],
                ) as unknown as Vec3,
              );
              expect(inside(polygon, m[0], m[1])).toBe(true);
              covered++;
            }
          // Probes along the line: inside the polygon (away from its boundary) means on a piece.
          for (let k = 1; k < 20; k++) {
            const f = k / 20;
            const va = toVec(line[0][0], line[0][1]);
            const vb = toVec(line[1][0], line[1][1]);
            const q = toLngLat([0, 1, 2].map((i) => (1 - f) * va[i] + f * vb[i]) as unknown as Vec3);
            if (boundaryDistance([polygon], toVec(q[0], q[1])) < 1e-9) continue;
            if (inside(polygon, q[0], q[1])) {
              expect(covered).toBeGreaterThan(0);
              expect(pieces.some((p) => nearLine(q as unknown as number[], p) < 1e-9)).toBe(true);
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a line along a polygon edge keeps that edge (its vertices as given); touching points lie on the boundary', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0.2, max: 2, noNaN: true }), { minLength: 3, maxLength: 9 }),
        fc.nat(),
        fc.double({ min: 0.05, max: 1, noNaN: true }),
        (radii, k, beyond) => {
          const polygon = star(20, 30, radii);
          const ring = polygon.coordinates[0];
          const i = k % (ring.length - 1);
          const a = toVec(ring[i][0], ring[i][1]);
          const b = toVec(ring[i + 1][0], ring[i + 1][1]);
          // The edge's great circle beyond both ends (the geodesic through a and b, extended).
          const along = (t: number): number[] => {
            const theta = angleBetween(a, b);
            const w = [0, 1, 2].map(
              (c) => (Math.sin((1 - t) * theta) * a[c] + Math.sin(t * theta) * b[c]) / Math.sin(theta),
            ) as unknown as Vec3;
            const q = toLngLat(w);
            return [q[0], q[1]];
          };
          const line = [along(-beyond), ring[i], ring[i + 1], along(1 + beyond)];
          const r = linePolygon([{ type: 'LineString', coordinates: line }, polygon]) as {
            type: string;
            coordinates?: unknown;
            geometries?: { type: string; coordinates: unknown }[];
          };
          const parts =
            r.type === 'GeometryCollection'
              ? (r.geometries ?? [])
              : [r as { type: string; coordinates: unknown }];
          const lines = parts.flatMap((g) =>
            g.type === 'LineString'
              ? [g.coordinates as number[][]]
              : g.type === 'MultiLineString'
                ? (g.coordinates as number[][][])
                : [],
          );
          const same = (p: number[], q: number[]): boolean => p[0] === q[0] && p[1] === q[1];
          expect(
            lines.some((l) =>
              l.some((p, j) => j + 1 < l.length && same(p, ring[i]) && same(l[j + 1], ring[i + 1])),
            ),
          ).toBe(true);
          const points = parts.flatMap((g) =>
            g.type === 'Point'
              ? [g.coordinates as number[]]
              : g.type === 'MultiPoint'
                ? (g.coordinates as number[][])
                : [],
          );
          for (const p of points) expect(boundaryDistance([polygon], toVec(p[0], p[1]))).toBeLessThan(1e-12);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a line touching the closed polygon gives the touching points and the stretches along its edges', () => {
    // The square [0,0]-[2,2]: its edges are geodesics, so a test line must run along the same great
    // circles (the meridians lng = 0 and lng = 2, or the square's own edges as given).
    const square = {
      type: 'Polygon',
      coordinates: [
        [
          [0, 0],
          [2, 0],
          [2, 2],
          [0, 2],
          [0, 0],
        ],
      ],
    };
    const ls = (...coordinates: number[][]): unknown => ({ type: 'LineString', coordinates });
    // Through a corner from outside to outside: that corner.
    expect(linePolygon([ls([-1, 1], [0, 0], [1, -1]), square])).toEqual({
      type: 'Point',
      coordinates: [0, 0],
    });
    // Ending on an edge (a meridian) from outside: that point; two such lines: a MultiPoint.
    expect(linePolygon([ls([-1, 1], [0, 1]), square])).toEqual({ type: 'Point', coordinates: [0, 1] });
    expect(
      linePolygon([
        {
          type: 'MultiLineString',
          coordinates: [
            [
              [-1, 1],
              [0, 1],
            ],
            [
              [3, 1],
              [2, 1],
            ],
          ],
        },
        square,
      ]),
    ).toEqual({
      type: 'MultiPoint',
      coordinates: [
        [0, 1],
        [2, 1],
      ],
    });
    // Along an edge (the meridian lng = 0), beyond both ends: the shared stretch.
    expect(linePolygon([ls([0, -1], [0, 3]), square])).toEqual({
      type: 'LineString',
      coordinates: [
        [0, 0],
        [0, 2],
      ],
    });
    // Along an edge, then inside: one line.
    const r = linePolygon([ls([0, -1], [0, 1], [1, 1]), square]) as { type: string; coordinates: number[][] };
    expect(r.type).toBe('LineString');
    expect(r.coordinates).toEqual([
      [0, 0],
      [0, 1],
      [1, 1],
    ]);
    // Inside, out, then a touch at a corner: the Point, then the LineString, in a GeometryCollection.
    const mixed = linePolygon([ls([1, 1], [3, 1], [3, 3], [2, 2], [3, 2.5]), square]) as {
      type: string;
      geometries: { type: string; coordinates: unknown }[];
    };
    expect(mixed.type).toBe('GeometryCollection');
    expect(mixed.geometries.map((g) => g.type)).toEqual(['Point', 'LineString']);
    expect(mixed.geometries[0].coordinates).toEqual([2, 2]);
    expect((mixed.geometries[1].coordinates as number[][])[0]).toEqual([1, 1]);
    // Near but apart: nothing.
    expect(linePolygon([ls([-1, 1], [-0.001, 1]), square])).toEqual({
      type: 'GeometryCollection',
      geometries: [],
    });
  });

  it('answers null for invalid shapes', () => {
    const line = {
      type: 'LineString',
      coordinates: [
        [1, 1],
        [2, 2],
      ],
    };
    expect(lines2([line, { type: 'LineString', coordinates: [[3, 3]] }])).toBeNull();
    expect(linePolygon([line, { type: 'Polygon', coordinates: [] }])).toBeNull();
    expect(linePolygon([{ type: 'Polygon' }, line])).toBeNull();
  });
});

describe('geo_union_lines_array', () => {
  const unionLines = GEO_BOOLEAN_FUNCTIONS.geo_union_lines_array;
  const length = (line: number[][]): number => {
    let sum = 0;
    for (let i = 0; i + 1 < line.length; i++)
      sum += angleBetween(toVec(line[i][0], line[i][1]), toVec(line[i + 1][0], line[i + 1][1]));
    return sum;
  };
  const shared = fc.array(
    fc.array(fc.tuple(fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 4 })), {
      minLength: 2,
      maxLength: 5,
    }),
    { minLength: 1, maxLength: 4 },
  );

  // Nodes closer than about 0.1 mm are one node, so positions agree to 1e-10 rad (0.6 mm), not to rounding.
  it('covers every input vertex, adds no vertex off the input, and counts a shared stretch once', () => {
    fc.assert(
      fc.property(shared, (grids) => {
        // Lines on a small grid, so they share vertices, cross and overlap often.
        const lines = grids
          .map((pts) => pts.map(([x, y]) => [10 + x / 10, 40 + y / 10]))
          .filter((l) => l.some((p) => p[0] !== l[0][0] || p[1] !== l[0][1]));
        fc.pre(lines.length > 0);
        const r = unionLines([lines.map((coordinates) => ({ type: 'LineString', coordinates }))]) as {
          type: string;
          coordinates: number[][] | number[][][];
        };
        expect(r).not.toBeNull();
        const out = r.type === 'LineString' ? [r.coordinates as number[][]] : (r.coordinates as number[][][]);
        for (const l of lines)
          for (const p of l) expect(Math.min(...out.map((o) => nearLine(p, o)))).toBeLessThan(1e-10);
        for (const o of out)
          for (const p of o) expect(Math.min(...lines.map((l) => nearLine(p, l)))).toBeLessThan(1e-10);
        const total = out.reduce((s, o) => s + length(o), 0);
        expect(total).toBeLessThanOrEqual(lines.reduce((s, l) => s + length(l), 0) + 1e-12);
        // (A line may run back over itself, so the bound below is its longest edge, not its length.)
        const longestEdge = Math.max(...lines.flatMap((l) => l.slice(1).map((p, i) => length([l[i], p]))));
        expect(total).toBeGreaterThanOrEqual(longestEdge - 1e-12);
      }),
      { numRuns: 300 },
    );
  });

  it('answers null for invalid input', () => {
    expect(unionLines([[{ type: 'LineString', coordinates: [[1, 1]] }]])).toBeNull();
    expect(
      unionLines([
        {
          type: 'LineString',
          coordinates: [
            [1, 1],
            [2, 2],
          ],
        },
      ]),
    ).toBeNull();
  });
});
