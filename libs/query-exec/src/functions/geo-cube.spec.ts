import fc from 'fast-check';
import { GEO_BOOLEAN_FUNCTIONS, lineWithPolygonOnCube } from './geo-boolean';
import { cubeIntersection, cubeUnion, type CubeShape } from './geo-cube';
import { readPolygons } from './geo-geojson';
import { polygonArea, polygonContains } from './geo-polygon';
import {
  angleBetween,
  angleToArc,
  cross,
  dot,
  gnomonicAbout,
  ringLeftArea,
  ringSignedArea,
  toLngLat,
  toVec,
  type Vec3,
} from './geo-sphere';

const {
  geo_union_polygons_array: unionArray,
  geo_intersection_2polygons: intersect,
  geo_intersection_line_with_polygon: linePolygon,
  geo_intersection_2lines: lines2,
} = GEO_BOOLEAN_FUNCTIONS;

interface Shape {
  type: string;
  coordinates: number[][][];
}

/** A point at angular distance r (degrees) from (lng, lat) in direction t (radians from east). */
function offset(lng: number, lat: number, rDeg: number, t: number): [number, number] {
  const c = toVec(lng, lat);
  const { e1, e2 } = gnomonicAbout(c);
  const r = (rDeg * Math.PI) / 180;
  const v = [0, 1, 2].map(
    (k) => Math.cos(r) * c[k] + Math.sin(r) * (Math.cos(t) * e1[k] + Math.sin(t) * e2[k]),
  ) as unknown as Vec3;
  const p = toLngLat(v);
  return [p[0], p[1]];
}

/** A star-shaped polygon about (lng, lat) with vertices at the given angular radii (degrees), counterclockwise. */
function star(lng: number, lat: number, radii: readonly number[], turn = 0): Shape {
  const shell = radii.map((r, i) => offset(lng, lat, r, turn + (2 * Math.PI * i) / radii.length));
  return { type: 'Polygon', coordinates: [[...shell, shell[0]]] };
}

const parsed = (shape: unknown): NonNullable<ReturnType<typeof readPolygons>> => {
  const p = readPolygons(shape);
  if (p === null) throw new Error(`not a polygon: ${JSON.stringify(shape)}`);
  return p;
};

/**
 * Whether p is in the shape, counted independently of the code under test: the parity of the shape's ring
 * edges crossed by the geodesic from p to `outside`, a point known to be outside every shape of the test.
 */
function contains(shape: unknown, p: readonly number[], outside: Vec3): boolean {
  const s = shape as { type: string; coordinates: number[][][] | number[][][][] };
  if (s.type === 'GeometryCollection') return false;
  const rings = (s.type === 'Polygon' ? [s.coordinates] : s.coordinates) as number[][][][];
  const q = toVec(p[0], p[1]);
  const n2 = cross(q, outside);
  let inside = false;
  for (const poly of rings)
    for (const ring of poly)
      for (let i = 0; i + 1 < ring.length; i++) {
        const a = toVec(ring[i][0], ring[i][1]);
        const b = toVec(ring[i + 1][0], ring[i + 1][1]);
        const n1 = cross(a, b);
        if (dot(q, n1) * dot(outside, n1) >= 0 || dot(a, n2) * dot(b, n2) >= 0) continue;
        // The great circles meet at x and -x: the arcs cross when both hold the same one.
        const x = cross(n1, n2);
        const onAb = dot(cross(a, x), n1) > 0 && dot(cross(x, b), n1) > 0;
        const onPq = dot(cross(q, x), n2) > 0 && dot(cross(x, outside), n2) > 0;
        if (onAb === onPq) inside = !inside;
      }
  return inside;
}

/**
 * Area in steradians by Gauss–Bonnet (ringLeftArea): geo_polygon_area's fan of triangles loses about 1e-6
 * of the area when a ring reaches the antipode of its first vertex, as unions of these sizes do.
 */
function area(shape: unknown): number {
  const s = shape as { type: string; coordinates: number[][][] | number[][][][] };
  if (s.type === 'GeometryCollection') return 0;
  const polygons = (s.type === 'Polygon' ? [s.coordinates] : s.coordinates) as number[][][][];
  let total = 0;
  for (const poly of polygons)
    poly.forEach((ring, k) => {
      const left = ringLeftArea(ring.slice(0, -1).map((p) => toVec(p[0], p[1])));
      // Shells are counterclockwise (the area is on their left), holes clockwise (the hole is on their right).
      total += k === 0 ? left : left - 4 * Math.PI;
    });
  return total;
}

/** Angle from a point to the nearest edge of the shapes. */
function boundaryDistance(shapes: readonly Shape[], p: Vec3): number {
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

/** Whether a vertex of the shapes lies within 1e-9 rad of the great circle through `q` and `outside`. */
function vertexOnGeodesic(shapes: readonly Shape[], q: Vec3, outside: Vec3): boolean {
  const n = cross(q, outside);
  const norm = Math.hypot(...n);
  return shapes.some((s) =>
    s.coordinates.some((ring) => ring.some((v) => Math.abs(dot(toVec(v[0], v[1]), n)) < 1e-9 * norm)),
  );
}

/** The largest angle (degrees) from the mean of the shapes' vertices to one of them. */
function spread(shapes: readonly Shape[]): number {
  const vs = shapes.flatMap((s) => s.coordinates[0].map((p) => toVec(p[0], p[1])));
  const sum = vs.reduce<Vec3>((a, v) => [a[0] + v[0], a[1] + v[1], a[2] + v[2]], [0, 0, 0]);
  const n = Math.hypot(...sum);
  const c: Vec3 = [sum[0] / n, sum[1] / n, sum[2] / n];
  return (Math.max(...vs.map((v) => angleBetween(v, c))) * 180) / Math.PI;
}

const largePair = fc.record({
  lng: fc.double({ min: -180, max: 180, noNaN: true }),
  lat: fc.double({ min: -60, max: 60, noNaN: true }),
  a: fc.array(fc.double({ min: 55, max: 70, noNaN: true }), { minLength: 4, maxLength: 8 }),
  b: fc.array(fc.double({ min: 55, max: 70, noNaN: true }), { minLength: 4, maxLength: 8 }),
  turn: fc.double({ min: 0, max: 6.28, noNaN: true }),
  away: fc.double({ min: 25, max: 45, noNaN: true }),
  probes: fc.array(
    fc.tuple(fc.double({ min: 1, max: 110, noNaN: true }), fc.double({ min: 0, max: 6.28, noNaN: true })),
    { minLength: 40, maxLength: 40 },
  ),
});

describe('geo_union_polygons_array and geo_intersection_2polygons for large polygons', () => {
  it('unite and intersect polygons spanning 90–170° of longitude: containment and area agree', () => {
    let beyondOnePlane = 0;
    fc.assert(
      fc.property(largePair, ({ lng, lat, a, b, turn, away, probes }) => {
        const A = star(lng, lat, a);
        const [bl, bt] = offset(lng, lat, away, turn);
        const B = star(bl, bt, b, turn);
        if (spread([A, B]) > 84) beyondOnePlane++;
        const u = unionArray([[A, B]]);
        const i = intersect([A, B]);
        expect(u).not.toBeNull();
        expect(i).not.toBeNull();
        // Both shapes lie within 45° + 70° of A's center: its antipode is outside all of them.
        // (Moved off the exact antipode so the geodesic to it does not run through a vertex.)
        const outside = toVec(lng + 180.0123457, -lat + 0.0345679);
        for (const [r, t] of probes) {
          const p = offset(lng, lat, r, t);
          if (boundaryDistance([A, B], toVec(p[0], p[1])) < 1e-6) continue;
          // The oracle counts crossings of the geodesic to `outside`: a vertex on it makes the count
          // ambiguous, so such probes are left out.
          if (vertexOnGeodesic([A, B], toVec(p[0], p[1]), outside)) continue;
          const inA = contains(A, p, outside);
          const inB = contains(B, p, outside);
          // The oracle agrees with geo_point_in_polygon's containment on the inputs.
          expect(inA).toBe(polygonContains(parsed(A), p[0], p[1]));
          expect(contains(u, p, outside)).toBe(inA || inB);
          expect(contains(i, p, outside)).toBe(inA && inB);
        }
        const lhs = area(u) + area(i);
        const rhs = area(A) + area(B);
        expect(Math.abs(lhs - rhs) / rhs).toBeLessThan(1e-6);
      }),
      { numRuns: 150 },
    );
    // The pairs really are too large for one gnomonic projection.
    expect(beyondOnePlane).toBeGreaterThan(100);
  });

  it('a union across face boundaries is one polygon of input vertices and edge crossings', () => {
    fc.assert(
      fc.property(largePair, ({ lng, lat, a, b, turn, away }) => {
        const A = star(lng, lat, a);
        const [bl, bt] = offset(lng, lat, Math.min(away, 30), turn);
        const B = star(bl, bt, b, turn);
        const u = unionArray([[A, B]]) as Shape;
        // B's center is inside A (A's edges stay over 45° from its center, B's center is at most 30° away):
        // the union is connected.
        expect(u.type).toBe('Polygon');
        const inputs = new Set([...A.coordinates[0], ...B.coordinates[0]].map((p) => `${p[0]},${p[1]}`));
        const nearEdge = (s: Shape, p: Vec3): boolean => boundaryDistance([s], p) < 1e-9;
        for (const ring of u.coordinates)
          for (const p of ring) {
            if (inputs.has(`${p[0]},${p[1]}`)) continue;
            const v = toVec(p[0], p[1]);
            expect(nearEdge(A, v) && nearEdge(B, v)).toBe(true);
          }
      }),
      { numRuns: 100 },
    );
  });

  it('the cube path agrees with the one-plane path on shapes both can take', () => {
    fc.assert(
      fc.property(
        fc.record({
          lng: fc.double({ min: -180, max: 180, noNaN: true }),
          lat: fc.double({ min: -80, max: 80, noNaN: true }),
          a: fc.array(fc.double({ min: 5, max: 30, noNaN: true }), { minLength: 3, maxLength: 8 }),
          b: fc.array(fc.double({ min: 5, max: 30, noNaN: true }), { minLength: 3, maxLength: 8 }),
          away: fc.double({ min: 0, max: 40, noNaN: true }),
          turn: fc.double({ min: 0, max: 6.28, noNaN: true }),
        }),
        ({ lng, lat, a, b, away, turn }) => {
          const A = star(lng, lat, a);
          const [bl, bt] = offset(lng, lat, away, turn);
          const B = star(bl, bt, b, turn);
          const shape = (s: Shape): CubeShape => ({
            rings: s.coordinates.map((r) => r.slice(0, -1).map((p) => toVec(p[0], p[1]))),
            lngLats: s.coordinates.map((r) => r.slice(0, -1).map((p) => [p[0], p[1]] as const)),
          });
          const asShape = (polys: number[][][][] | null): unknown => {
            expect(polys).not.toBeNull();
            const ps = polys as number[][][][];
            if (ps.length === 0) return { type: 'GeometryCollection', geometries: [] };
            return ps.length === 1
              ? { type: 'Polygon', coordinates: ps[0] }
              : { type: 'MultiPolygon', coordinates: ps };
          };
          const cu = asShape(cubeUnion([shape(A), shape(B)]));
          const ci = asShape(cubeIntersection([shape(A)], [shape(B)]));
          const pu = unionArray([[A, B]]);
          const pi = intersect([A, B]) as { type: string; geometries?: { type: string }[] };
          expect(Math.abs(area(cu) - area(pu))).toBeLessThan(1e-6 * area(pu));
          // The one-plane intersection may add touching points; compare the areas only.
          const piArea =
            pi.type === 'GeometryCollection'
              ? (pi.geometries ?? []).reduce((s, g) => s + (g.type.endsWith('Polygon') ? area(g) : 0), 0)
              : area(pi);
          expect(Math.abs(area(ci) - piArea)).toBeLessThan(1e-6 * (area(A) + area(B)));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('keeps holes, answers null past a hemisphere and two polygons when apart', () => {
    const ring = (lng: number, lat: number, r: number, n: number, clockwise = false): number[][] => {
      const pts = Array.from({ length: n }, (_, k) =>
        offset(lng, lat, r, ((clockwise ? -1 : 1) * 2 * Math.PI * k) / n),
      );
      return [...pts, pts[0]];
    };
    // A 55° ring with a 20° hole, and another 55° ring 60° east (together 170° of longitude): the hole
    // stays a hole of the union.
    const A = { type: 'Polygon', coordinates: [ring(0, 0, 55, 12), ring(-25, 0, 20, 8, true)] };
    const B = { type: 'Polygon', coordinates: [ring(60, 0, 55, 12)] };
    const outside = toVec(-150.0123457, 0.0345679);
    const u = unionArray([[A, B]]) as Shape;
    expect(u.type).toBe('Polygon');
    expect(u.coordinates).toHaveLength(2);
    expect(contains(u, [-25, 0], outside)).toBe(false);
    expect(contains(u, [-25, 30], outside)).toBe(true);
    expect(contains(u, [110, 0], outside)).toBe(true);
    const i = intersect([A, B]);
    expect(Math.abs(area(u) + area(i) - area(A) - area(B)) / (area(A) + area(B))).toBeLessThan(1e-6);
    // Together more than a hemisphere (Kusto's pages: a shell encloses at most half of the sphere): null.
    const wide = { type: 'Polygon', coordinates: [ring(120, 0, 80, 12)] };
    expect(unionArray([[wide, { type: 'Polygon', coordinates: [ring(0, 0, 80, 12)] }]])).toBeNull();
    // Far apart on the sphere: two polygons.
    const C = { type: 'Polygon', coordinates: [ring(180, 0, 60, 9)] };
    const D = { type: 'Polygon', coordinates: [ring(0, 0, 60, 9)] };
    expect((unionArray([[C, D]]) as Shape).type).toBe('MultiPolygon');
    expect(intersect([C, D])).toEqual({ type: 'GeometryCollection', geometries: [] });
  });

  it('measures areas by Gauss–Bonnet like geo_polygon_area does where its fan is exact', () => {
    // The octant triangle covers an eighth of the sphere.
    const octant = [toVec(0, 0), toVec(90, 0), toVec(0, 90)];
    expect(ringLeftArea(octant)).toBeCloseTo(Math.PI / 2, 14);
    expect(ringLeftArea([...octant].reverse())).toBeCloseTo(4 * Math.PI - Math.PI / 2, 13);
    // Stars up to 20°: the same area as geo_polygon_area (which Kusto's Central Park example pins down), to
    // 1e-9 (the turns' sum cancels against 2π, so tiny rings lose relative precision: 1e-15 sr absolute).
    fc.assert(
      fc.property(
        fc.double({ min: -180, max: 180, noNaN: true }),
        fc.double({ min: -80, max: 80, noNaN: true }),
        fc.array(fc.double({ min: 0.5, max: 20, noNaN: true }), { minLength: 3, maxLength: 9 }),
        (lng, lat, radii) => {
          const s = star(lng, lat, radii);
          const ring = s.coordinates[0].slice(0, -1).map((p) => toVec(p[0], p[1]));
          expect(Math.abs(ringLeftArea(ring) - ringSignedArea(ring))).toBeLessThan(
            1e-9 * ringSignedArea(ring),
          );
          expect(Math.abs(area(s) * 6371010 ** 2 - (polygonArea(parsed(s)) as number))).toBeLessThan(
            1e-9 * (polygonArea(parsed(s)) as number),
          );
        },
      ),
      { numRuns: 200 },
    );
  });

  it('returns where large polygons only touch: a shared edge across faces as one line, a shared vertex as a point', () => {
    const north = {
      type: 'Polygon',
      coordinates: [
        [
          [-110, 0],
          [-20, 0],
          [70, 0],
          [70, 30],
          [-20, 40],
          [-110, 30],
          [-110, 0],
        ],
      ],
    };
    const south = {
      type: 'Polygon',
      coordinates: [
        [
          [-110, 0],
          [-110, -30],
          [-20, -40],
          [70, -30],
          [70, 0],
          [-20, 0],
          [-110, 0],
        ],
      ],
    };
    // 180° of longitude: beyond one plane. The shared equator crosses face boundaries at -45° and 45°.
    expect(spread([north, south])).toBeGreaterThan(84);
    expect(intersect([north, south])).toEqual({
      type: 'LineString',
      coordinates: [
        [-110, 0],
        [-20, 0],
        [70, 0],
      ],
    });
    const east = {
      type: 'Polygon',
      coordinates: [
        [
          [70, 0],
          [100, -30],
          [130, 0],
          [100, 30],
          [70, 0],
        ],
      ],
    };
    expect(spread([north, east])).toBeGreaterThan(84);
    expect(intersect([north, east])).toEqual({ type: 'Point', coordinates: [70, 0] });
  });

  it('geo_intersection_line_with_polygon on the cube: a wide line along an edge, and a touching point', () => {
    const north = {
      type: 'Polygon',
      coordinates: [
        [
          [-110, 0],
          [-20, 0],
          [70, 0],
          [70, 30],
          [-20, 40],
          [-110, 30],
          [-110, 0],
        ],
      ],
    };
    const line = {
      type: 'MultiLineString',
      coordinates: [
        [-100, -60, -20, 20, 60, 100].map((lng) => [lng, 0]),
        [
          [-20, 60],
          [-20, 40],
        ],
      ],
    };
    expect(linePolygon([line, north])).toEqual({
      type: 'GeometryCollection',
      geometries: [
        { type: 'Point', coordinates: [-20, 40] },
        {
          type: 'LineString',
          coordinates: [
            [-100, 0],
            [-60, 0],
            [-20, 0],
            [20, 0],
            [60, 0],
            [70, 0],
          ],
        },
      ],
    });
  });

  it('geo_intersection_line_with_polygon on the cube agrees with the one-plane answer', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -180, max: 180, noNaN: true }),
        fc.double({ min: -80, max: 80, noNaN: true }),
        fc.array(fc.double({ min: 2, max: 20, noNaN: true }), { minLength: 3, maxLength: 8 }),
        fc.array(
          fc.tuple(
            fc.double({ min: 0, max: 30, noNaN: true }),
            fc.double({ min: 0, max: 6.28, noNaN: true }),
          ),
          {
            minLength: 2,
            maxLength: 5,
          },
        ),
        (lng, lat, radii, points) => {
          const polygon = star(lng, lat, radii);
          const coordinates = points.map(([r, t]) => offset(lng, lat, r, t));
          // A line through one point twice (r = 0 is the centre at any t) may retrace a stretch, which the
          // one-plane path counts twice and the cube path once: both fair answers for such a line.
          fc.pre(
            coordinates.every((p, i) =>
              coordinates.every((q, j) => j <= i || Math.abs(p[0] - q[0]) + Math.abs(p[1] - q[1]) > 1e-9),
            ),
          );
          const lineShape = { type: 'LineString', coordinates };
          const plane = linePolygon([lineShape, polygon]);
          const cube = lineWithPolygonOnCube(
            [coordinates.map((p) => [p[0], p[1]] as const)],
            parsed(polygon),
          );
          // Same kinds of parts, and the same line lengths and points (to rounding).
          const measure = (r: unknown): { points: number[][]; length: number } => {
            const g = r as { type: string; coordinates: unknown; geometries?: unknown[] };
            const parts = g.type === 'GeometryCollection' ? (g.geometries as (typeof g)[]) : [g];
            let length = 0;
            const pts: number[][] = [];
            for (const part of parts) {
              if (part.type === 'Point') pts.push(part.coordinates as number[]);
              if (part.type === 'MultiPoint') pts.push(...(part.coordinates as number[][]));
              const ls =
                part.type === 'LineString'
                  ? [part.coordinates as number[][]]
                  : part.type === 'MultiLineString'
                    ? (part.coordinates as number[][][])
                    : [];
              for (const l of ls)
                for (let i = 0; i + 1 < l.length; i++)
                  length += angleBetween(toVec(l[i][0], l[i][1]), toVec(l[i + 1][0], l[i + 1][1]));
            }
            return { points: pts, length };
          };
          const a = measure(plane);
          const b = measure(cube);
          expect(Math.abs(a.length - b.length)).toBeLessThan(1e-9);
          expect(b.points).toHaveLength(a.points.length);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a line entering a polygon a few ulps beside its vertex is one line, with no touching point there', () => {
    // CI counterexample (seed 213281214): the line passes 2e-12° from the vertex, which the one-plane path
    // counted as a contact while the crossing of the next edge, 6e-14 rad away, started the piece inside.
    const polygon = star(0, 0, [2.1694108964583156, 2, 2]);
    const coordinates = [offset(0, 0, 2.746759457783949, 7.989896162435792e-13), [0, 0]];
    const plane = linePolygon([{ type: 'LineString', coordinates }, polygon]) as { type: string };
    const cube = lineWithPolygonOnCube([coordinates.map((p) => [p[0], p[1]] as const)], parsed(polygon)) as {
      type: string;
    };
    expect(plane.type).toBe('LineString');
    expect(cube.type).toBe('LineString');
  });

  it('geo_intersection_2lines on the cube: lines 180° long sharing a stretch across faces and crossing', () => {
    const equator = { type: 'LineString', coordinates: [-90, -30, 30, 90].map((lng) => [lng, 0]) };
    const other = {
      type: 'LineString',
      coordinates: [
        [-100, 10],
        [-60, 0],
        [-10, 0],
        [40, 0],
        [80, 10],
      ],
    };
    const meridian = {
      type: 'LineString',
      coordinates: [
        [85, -40],
        [85, 40],
      ],
    };
    expect(lines2([equator, other])).toEqual({
      type: 'LineString',
      coordinates: [
        [-60, 0],
        [-30, 0],
        [-10, 0],
        [30, 0],
        [40, 0],
      ],
    });
    const both = lines2([
      equator,
      { type: 'MultiLineString', coordinates: [other.coordinates, meridian.coordinates] },
    ]) as { type: string; geometries: { type: string; coordinates: number[] | number[][] }[] };
    expect(both.type).toBe('GeometryCollection');
    expect(both.geometries.map((g) => g.type)).toEqual(['Point', 'LineString']);
    // The crossing is computed (to rounding); the stretch's vertices are input vertices.
    const [x, y] = both.geometries[0].coordinates as number[];
    expect(Math.abs(x - 85) + Math.abs(y)).toBeLessThan(1e-12);
    expect(both.geometries[1].coordinates).toEqual([
      [-60, 0],
      [-30, 0],
      [-10, 0],
      [30, 0],
      [40, 0],
    ]);
  });
});
