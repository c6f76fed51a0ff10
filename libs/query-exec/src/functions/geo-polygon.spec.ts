import fc from 'fast-check';
import type { LngLatPolygon } from './geo-geojson';
import { polygonArea, polygonCentroid, polygonContains, polygonPerimeter } from './geo-polygon';
import {
  add,
  angleBetween,
  angleToArc,
  cross,
  dot,
  EARTH_RADIUS_M,
  normalize,
  scale,
  toVec,
  type LngLat,
  type Vec3,
} from './geo-sphere';

const R2 = EARTH_RADIUS_M * EARTH_RADIUS_M;
const wrapLng = (x: number) => (x > 180 ? x - 360 : x < -180 ? x + 360 : x);

/** A star-shaped (so simple) polygon around a center, radii in degrees, vertices counterclockwise. */
const starPolygon = fc
  .record({
    lng: fc.double({ min: -179, max: 179, noNaN: true }),
    lat: fc.double({ min: -70, max: 70, noNaN: true }),
    radii: fc.array(fc.double({ min: 0.05, max: 8, noNaN: true }), { minLength: 3, maxLength: 12 }),
    turn: fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }),
  })
  .map(({ lng, lat, radii, turn }) => {
    const shell: LngLat[] = radii.map((r, i) => {
      const a = turn + (2 * Math.PI * i) / radii.length;
      return [wrapLng(lng + (r * Math.cos(a)) / Math.cos((lat * Math.PI) / 180)), lat + r * Math.sin(a)];
    });
    return { center: [lng, lat] as LngLat, shell, radii };
  });

/**
 * The brute-force reference: count the crossings of the great-circle arc from the point to a point far
 * outside (60° from the polygon's middle) with every edge. No projection involved.
 */
function referenceContains(shell: readonly LngLat[], p: LngLat, center: LngLat): boolean {
  const c = toVec(center[0], center[1]);
  const east = normalize(cross([0, 0, 1], c))!;
  const north = cross(c, east);
  // An odd direction, so the arc does not run through a vertex of the generated (regular-angled) stars.
  const far = normalize(add(c, add(scale(east, 1.3), scale(north, 0.7712))))!;
  const q = toVec(p[0], p[1]);
  const ring = shell.map((v) => toVec(v[0], v[1]));
  let crossings = 0;
  for (let i = 0; i < ring.length; i++)
    if (arcsCross(q, far, ring[i], ring[(i + 1) % ring.length])) crossings++;
  return crossings % 2 === 1;
}

function arcsCross(a: Vec3, b: Vec3, c: Vec3, d: Vec3): boolean {
  const n1 = cross(a, b);
  const n2 = cross(c, d);
  return (
    Math.sign(dot(c, n1)) !== Math.sign(dot(d, n1)) &&
    Math.sign(dot(a, n2)) !== Math.sign(dot(b, n2)) &&
    dot(add(a, b), add(c, d)) > 0
  );
}

/** Angular distance from a point to the polygon's boundary. */
function toBoundary(shell: readonly LngLat[], p: LngLat): number {
  const q = toVec(p[0], p[1]);
  const ring = shell.map((v) => toVec(v[0], v[1]));
  let best = Infinity;
  for (let i = 0; i < ring.length; i++)
    best = Math.min(best, angleToArc(q, ring[i], ring[(i + 1) % ring.length]));
  return best;
}

describe('geo_point_in_polygon', () => {
  it('agrees with counting crossings of a great-circle arc (geodesic edges), in either orientation', () => {
    const offset = fc.tuple(
      fc.double({ min: -12, max: 12, noNaN: true }),
      fc.double({ min: -12, max: 12, noNaN: true }),
    );
    fc.assert(
      fc.property(
        starPolygon,
        fc.array(offset, { minLength: 1, maxLength: 20 }),
        ({ center, shell }, offsets) => {
          for (const [dx, dy] of offsets) {
            const p: LngLat = [wrapLng(center[0] + dx), Math.max(-89, Math.min(89, center[1] + dy))];
            // Points within a nanoradian of an edge are where two exact methods may round apart.
            if (toBoundary(shell, p) < 1e-9) continue;
            const expected = referenceContains(shell, p, center);
            expect(polygonContains([{ shell, holes: [] }], p[0], p[1])).toBe(expected);
            expect(polygonContains([{ shell: [...shell].reverse(), holes: [] }], p[0], p[1])).toBe(expected);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('excludes holes, and a MultiPolygon contains what any of its polygons contains', () => {
    const square = (x: number, y: number, r: number): LngLat[] => [
      [x - r, y - r],
      [x + r, y - r],
      [x + r, y + r],
      [x - r, y + r],
    ];
    const withHole: LngLatPolygon = { shell: square(0, 0, 2), holes: [square(0, 0, 1).reverse()] };
    expect(polygonContains([withHole], 0, 0)).toBe(false);
    expect(polygonContains([withHole], 1.5, 0)).toBe(true);
    expect(polygonContains([withHole, { shell: square(0, 0, 0.5), holes: [] }], 0, 0)).toBe(true);
  });
});

describe('geo_polygon_area, geo_polygon_perimeter and geo_polygon_centroid', () => {
  it('measure the octant between the equator and two meridians exactly', () => {
    const octant: LngLatPolygon = {
      shell: [
        [0, 0],
        [90, 0],
        [0, 90],
      ],
      holes: [],
    };
    expect(polygonArea([octant])! / R2).toBeCloseTo(Math.PI / 2, 12);
    expect(polygonPerimeter([octant])! / EARTH_RADIUS_M).toBeCloseTo((3 * Math.PI) / 2, 12);
    const [lng, lat] = polygonCentroid([octant])!;
    expect(lng).toBeCloseTo(45, 9);
    expect(lat).toBeGreaterThan(0);
  });

  it('are the same for either orientation, and a union with itself or a part of itself changes nothing', () => {
    fc.assert(
      fc.property(starPolygon, ({ shell, center, radii }) => {
        const p: LngLatPolygon = { shell, holes: [] };
        const reversed: LngLatPolygon = { shell: [...shell].reverse(), holes: [] };
        const area = polygonArea([p])!;
        expect(area).toBeGreaterThan(0);
        expect(polygonArea([reversed])!).toBeCloseTo(area, 3);
        expect(polygonPerimeter([reversed])!).toBeCloseTo(polygonPerimeter([p])!, 3);
        expect(Math.abs(polygonArea([p, reversed])! - area)).toBeLessThan(area * 1e-6 + 1);
        const c = polygonCentroid([p])!;
        const cr = polygonCentroid([reversed])!;
        expect(c[1]).toBeCloseTo(cr[1], 9);
        // The centroid lies within the star's largest radius of its center.
        const radius = Math.max(...radii);
        const offCenter = (angleBetween(toVec(c[0], c[1]), toVec(center[0], center[1])) * 180) / Math.PI;
        expect(offCenter).toBeLessThanOrEqual(radius + 1e-6);
      }),
      { numRuns: 200 },
    );
  });

  it('add up the areas of disjoint polygons and subtract holes', () => {
    const square = (x: number, r: number): LngLat[] => [
      [x - r, -r],
      [x + r, -r],
      [x + r, r],
      [x - r, r],
    ];
    const a = polygonArea([{ shell: square(0, 1), holes: [] }])!;
    const b = polygonArea([{ shell: square(10, 2), holes: [] }])!;
    expect(
      polygonArea([
        { shell: square(0, 1), holes: [] },
        { shell: square(10, 2), holes: [] },
      ])!,
    ).toBeCloseTo(a + b, 0);
    const hole = polygonArea([{ shell: square(0, 0.5), holes: [] }])!;
    expect(polygonArea([{ shell: square(0, 1), holes: [square(0, 0.5)] }])!).toBeCloseTo(a - hole, 3);
    // Symmetric about the equator and the meridian 5: the centroid is on both.
    const [lng, lat] = polygonCentroid([{ shell: square(5, 3), holes: [] }])!;
    expect(lng).toBeCloseTo(5, 9);
    expect(lat).toBeCloseTo(0, 9);
  });
});
