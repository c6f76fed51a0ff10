/**
 * Polygons too wide for one gnomonic projection (a vertex 90° or more from the mean of the shell's
 * vertices, or vertices that add up to nothing): geo_polygon_area and geo_point_in_polygon on the sphere.
 * References are computed independently: areas by the spherical excess from bearings in latitude and
 * longitude (trigonometry, no unit vectors), or summed over small quadrilaterals; containment by testing
 * the small pieces a wide band is made of, each in the projection. The fast-check seed is shared by the
 * run (test/support/fast-check-seed.ts).
 */
import fc from 'fast-check';
import type { LngLatPolygon } from './geo-geojson';
import { polygonArea, polygonContains } from './geo-polygon';
import {
  add,
  angleBetween,
  angleToArc,
  EARTH_RADIUS_M,
  normalize,
  ringSignedArea,
  toLngLat,
  toVec,
  type LngLat,
  type Vec3,
} from './geo-sphere';
import { insideTest, prepareTest, smallSideArea, smallSideAreaByTurns } from './geo-wide-polygons';

const R2 = EARTH_RADIUS_M * EARTH_RADIUS_M;
const RAD = Math.PI / 180;
const polygon = (shell: LngLat[], holes: LngLat[][] = []): LngLatPolygon => ({ shell, holes });
const vecs = (ring: readonly LngLat[]): Vec3[] => ring.map((p) => toVec(p[0], p[1]));

/** The initial bearing from a to b (radians, clockwise from north), by the spherical trigonometry formula. */
function bearing(a: LngLat, b: LngLat): number {
  const [l1, p1] = [a[0] * RAD, a[1] * RAD];
  const [l2, p2] = [b[0] * RAD, b[1] * RAD];
  return Math.atan2(
    Math.sin(l2 - l1) * Math.cos(p2),
    Math.cos(p1) * Math.sin(p2) - Math.sin(p1) * Math.cos(p2) * Math.cos(l2 - l1),
  );
}

const wrapAngle = (x: number): number => x - 2 * Math.PI * Math.round(x / (2 * Math.PI));

/**
 * The area (steradians) left of a ring (no pole vertices) by its spherical excess: 2π less the turns to
 * the left at its vertices, read from the bearings of the edges in and out (Gauss–Bonnet).
 */
function excessArea(ring: readonly LngLat[]): number {
  let left = 0;
  for (let i = 0; i < ring.length; i++) {
    const prev = ring[(i + ring.length - 1) % ring.length];
    const next = ring[(i + 1) % ring.length];
    const arriving = bearing(ring[i], prev) + Math.PI;
    left -= wrapAngle(bearing(ring[i], next) - arriving);
  }
  return 2 * Math.PI - left;
}

/** A band of quadrilaterals between two latitudes: its ring (counterclockwise) and the quadrilaterals. */
function band(lngs: readonly number[], south: number, north: number): { ring: LngLat[]; quads: LngLat[][] } {
  const quads = lngs.slice(1).map((to, i): LngLat[] => [
    [lngs[i], south],
    [to, south],
    [to, north],
    [lngs[i], north],
  ]);
  const ring: LngLat[] = [
    ...lngs.map((x): LngLat => [x, south]),
    ...[...lngs].reverse().map((x): LngLat => [x, north]),
  ];
  return { ring, quads };
}

/** Longitudes from -170 to 170 in steps of 34°: a band with a 20° gap at the antimeridian. */
const BAND_LNGS = Array.from({ length: 11 }, (_, i) => -170 + 34 * i);

/** The largest angle (degrees) from the mean of a ring's vertices to a vertex. */
function reachFromMean(ring: readonly LngLat[]): number {
  const vs = vecs(ring);
  const mean = normalize(vs.reduce((s: Vec3, v) => add(s, v), [0, 0, 0]));
  return mean === null ? 180 : Math.max(...vs.map((v) => angleBetween(v, mean))) / RAD;
}

describe('polygons reaching 90° or more from the mean of their vertices', () => {
  const C_SHAPE: LngLat[] = [
    [-80, 0],
    [0, -80],
    [80, 0],
    [80, 10],
    [0, -70],
    [-80, 10],
  ];
  const TRIANGLE: LngLat[] = [
    [0, 0],
    [120, 0],
    [60, 80],
  ];
  const EQUATOR_BAND = band(BAND_LNGS, 0, 5);
  // The antipode of its first vertex, [10, 2.5], lies inside it: a fan of triangles from that vertex
  // counts the band less the whole sphere (this measured 12.03 sr, the larger side, before).
  const STRADDLING_BAND = band(BAND_LNGS, -2.5, 2.5);

  it('are out of reach of the projection about the mean (the shapes the sphere path is for)', () => {
    expect(reachFromMean(C_SHAPE)).toBeGreaterThan(90);
    expect(reachFromMean(EQUATOR_BAND.ring)).toBeGreaterThan(90);
    expect(reachFromMean(STRADDLING_BAND.ring)).toBeGreaterThan(90);
    expect(reachFromMean(TRIANGLE)).toBeLessThan(90);
  });

  it('have the area of their spherical excess, in either orientation', () => {
    for (const shell of [C_SHAPE, TRIANGLE, EQUATOR_BAND.ring, STRADDLING_BAND.ring]) {
      const expected = excessArea(shell);
      expect(expected).toBeGreaterThan(0.1);
      expect(expected).toBeLessThan(2 * Math.PI);
      for (const ring of [shell, [...shell].reverse()]) {
        const area = polygonArea([polygon(ring)])! / R2;
        expect(Math.abs(area - expected) / expected).toBeLessThan(1e-12);
      }
    }
  });

  it('have the area of the quadrilaterals they are made of (a band of great-circle arcs)', () => {
    for (const { ring, quads } of [EQUATOR_BAND, STRADDLING_BAND]) {
      const pieces = quads.reduce((s, q) => s + excessArea(q), 0);
      const area = polygonArea([polygon(ring)])! / R2;
      expect(Math.abs(area - pieces) / pieces).toBeLessThan(1e-12);
      // The parallels bound a little less: the arcs between [x, 5] and [x + 34, 5] bulge poleward (to 5.23°).
      const between = (2 * Math.PI * (Math.sin(5 * RAD) - Math.sin(0)) * 340) / 360;
      if (ring === EQUATOR_BAND.ring) expect(area / between).toBeGreaterThan(1);
      if (ring === EQUATOR_BAND.ring) expect(area / between).toBeLessThan(1.05);
    }
  });

  it('contain the points inside them and no others', () => {
    const cases: [LngLat[], LngLat[], LngLat[]][] = [
      [
        C_SHAPE,
        // At longitude ±60 the C runs from latitude -63.1 (outer arc) to -38.6 (inner arc).
        [
          [0, -75],
          [-60, -50],
          [60, -50],
          [-79, 5],
        ],
        [
          [0, -60],
          [-60, -20],
          [60, -36],
          [0, 0],
          [0, -85],
          [180, 0],
        ],
      ],
      [
        EQUATOR_BAND.ring,
        [
          [0, 2.5],
          [-160, 1],
          [160, 4.9],
          [-17, 5.1],
        ],
        [
          [0, -1],
          [175, 2],
          [-17, 5.3],
          [0, 90],
        ],
      ],
      [
        STRADDLING_BAND.ring,
        [
          [10, 0],
          [-169, 2.4],
          [100, -2],
        ],
        [
          [-175, 0],
          [0, 3],
          [0, -90],
        ],
      ],
    ];
    for (const [shell, inside, outside] of cases)
      for (const ring of [shell, [...shell].reverse()]) {
        for (const p of inside) expect([p, polygonContains([polygon(ring)], p[0], p[1])]).toEqual([p, true]);
        for (const p of outside)
          expect([p, polygonContains([polygon(ring)], p[0], p[1])]).toEqual([p, false]);
      }
  });

  it('leave out their holes', () => {
    const hole: LngLat[] = [
      [-2, 1],
      [2, 1],
      [2, 4],
      [-2, 4],
    ];
    const p = polygon(EQUATOR_BAND.ring, [hole]);
    expect(polygonContains([p], 0, 2.5)).toBe(false);
    expect(polygonContains([p], 20, 2.5)).toBe(true);
    const expected = excessArea(EQUATOR_BAND.ring) - excessArea(hole);
    expect(Math.abs(polygonArea([p])! / R2 - expected) / expected).toBeLessThan(1e-12);
  });

  it('half the sphere: a shell whose vertices add up to nothing', () => {
    const shell: LngLat[] = [
      [0, 0],
      [120, 0],
      [-120, 0],
    ];
    expect(polygonArea([polygon(shell)])! / R2).toBeCloseTo(2 * Math.PI, 12);
    expect(polygonContains([polygon(shell)], 10, 45) !== polygonContains([polygon(shell)], 10, -45)).toBe(
      true,
    );
  });

  it('unite overlapping wide polygons of a MultiPolygon before measuring (no double counting)', () => {
    const single = polygonArea([polygon(C_SHAPE)])!;
    expect(polygonArea([polygon(C_SHAPE), polygon([...C_SHAPE].reverse())])! / single).toBeCloseTo(1, 9);
    // Two halves of the band side by side share the meridian 0 and add up to it.
    const west = band(BAND_LNGS.slice(0, 6), 0, 5).ring;
    const east = band(BAND_LNGS.slice(5), 0, 5).ring;
    const whole = polygonArea([polygon(EQUATOR_BAND.ring)])!;
    expect(polygonArea([polygon(west), polygon(east)])! / whole).toBeCloseTo(1, 9);
    // And a wide band with a copy of one of its quadrilaterals is the band.
    const withPiece = polygonArea([polygon(EQUATOR_BAND.ring), polygon(EQUATOR_BAND.quads[3])])!;
    expect(withPiece / whole).toBeCloseTo(1, 9);
  });
});

/** A star-shaped (so simple) polygon around a center, radii in degrees, vertices counterclockwise. */
const starPolygon = (minRadius: number) =>
  fc
    .record({
      lng: fc.double({ min: -179, max: 179, noNaN: true }),
      lat: fc.double({ min: -70, max: 70, noNaN: true }),
      radii: fc.array(fc.double({ min: minRadius, max: 8, noNaN: true }), { minLength: 3, maxLength: 12 }),
      turn: fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }),
    })
    .map(({ lng, lat, radii, turn }) => {
      const shell: LngLat[] = radii.map((r, i) => {
        const a = turn + (2 * Math.PI * i) / radii.length;
        const x = lng + (r * Math.cos(a)) / Math.cos(lat * RAD);
        return [x > 180 ? x - 360 : x < -180 ? x + 360 : x, lat + r * Math.sin(a)];
      });
      return { center: [lng, lat] as LngLat, shell };
    });

/** The angle (radians) from a point to a ring's nearest edge. */
function toBoundary(ring: readonly Vec3[], v: Vec3): number {
  let best = Infinity;
  for (let i = 0; i < ring.length; i++)
    best = Math.min(best, angleToArc(v, ring[i], ring[(i + 1) % ring.length]));
  return best;
}

/** A rotation of the sphere by three angles (z, then x, then z). */
function rotation(a: number, b: number, c: number): (v: Vec3) => Vec3 {
  const rz = (t: number, v: Vec3): Vec3 => [
    Math.cos(t) * v[0] - Math.sin(t) * v[1],
    Math.sin(t) * v[0] + Math.cos(t) * v[1],
    v[2],
  ];
  const rx = (t: number, v: Vec3): Vec3 => [
    v[0],
    Math.cos(t) * v[1] - Math.sin(t) * v[2],
    Math.sin(t) * v[1] + Math.cos(t) * v[2],
  ];
  return (v) => rz(c, rx(b, rz(a, v)));
}

describe('the sphere path agrees with the projection path where both apply', () => {
  let worstArea = 0;
  let worstBand = 0;
  afterAll(() => {
    // The largest relative differences the properties met (GEO_WIDE_REPORT=1 to see them).
    if (process.env.GEO_WIDE_REPORT)
      process.stderr.write(`worst relative area difference: small ${worstArea}, wide bands ${worstBand}\n`);
  });

  // Gauss–Bonnet subtracts the turns from 2π, so its error is absolute (about 1e-15 sr per vertex): 1e-9
  // relative holds from about 0.2° across (a polygon of 0.05° is at 1e-9). The sphere path measures only
  // rings reaching about 180° across, where the fan is kept everywhere else.
  it('areas by the turns at the vertices match the fan of triangles on small polygons to 1e-9', () => {
    fc.assert(
      fc.property(starPolygon(0.2), ({ shell }) => {
        const ring = vecs(shell);
        const fan = ringSignedArea(ring);
        const turns = smallSideAreaByTurns(ring);
        const reversed = smallSideAreaByTurns([...ring].reverse());
        const diff = Math.max(Math.abs(turns - fan), Math.abs(reversed + fan)) / fan;
        worstArea = Math.max(worstArea, diff);
        expect(diff).toBeLessThan(1e-9);
        // Where the fan holds, its answer is kept to the bit.
        expect(smallSideArea(ring)).toBe(fan);
      }),
      { numRuns: 400 },
    );
  });

  it('points are inside on the sphere exactly when inside in the projection', () => {
    // Up to 20 points within 10° (of longitude and of latitude) of the star's center.
    const nearby = fc.array(
      fc.tuple(fc.double({ min: -10, max: 10, noNaN: true }), fc.double({ min: -10, max: 10, noNaN: true })),
      { minLength: 1, maxLength: 20 },
    );
    fc.assert(
      fc.property(starPolygon(0.05), nearby, ({ center, shell }, offsets) => {
        const ring = vecs(shell);
        const test = prepareTest([ring])!;
        const reversedTest = prepareTest([[...ring].reverse()])!;
        for (const [dx, dy] of offsets) {
          const p: LngLat = [center[0] + dx, Math.max(-89, Math.min(89, center[1] + dy))];
          const v = toVec(p[0], p[1]);
          if (toBoundary(ring, v) < 1e-9) continue;
          const projected = polygonContains([polygon(shell)], p[0], p[1]);
          expect(insideTest(test, v)).toBe(projected);
          expect(insideTest(reversedTest, v)).toBe(projected);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('wide bands anywhere on the sphere: area of their quadrilaterals, points inside one of them', () => {
    const bandShape = fc.record({
      start: fc.double({ min: -180, max: 180, noNaN: true }),
      steps: fc.array(fc.double({ min: 10, max: 40, noNaN: true }), { minLength: 6, maxLength: 12 }),
      south: fc.double({ min: -25, max: 15, noNaN: true }),
      height: fc.double({ min: 0.5, max: 10, noNaN: true }),
      angles: fc.tuple(
        fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }),
        fc.double({ min: 0, max: Math.PI, noNaN: true }),
        fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }),
      ),
    });
    const point = fc.tuple(
      fc.double({ min: 0, max: 1, noNaN: true }),
      fc.double({ min: -0.5, max: 1.5, noNaN: true }),
    );
    fc.assert(
      fc.property(bandShape, fc.array(point, { minLength: 5, maxLength: 20 }), (s, points) => {
        const lngs = [s.start];
        for (const step of s.steps) lngs.push(lngs[lngs.length - 1] + step);
        const span = lngs[lngs.length - 1] - s.start;
        fc.pre(span >= 240 && span <= 340);
        const north = s.south + s.height;
        const local = band(lngs, s.south, north);
        // Only bands beyond the projection about the mean of their vertices (angles survive the turn).
        fc.pre(reachFromMean(local.ring) > 90);
        // The band, turned to anywhere on the sphere: the reference stays in the band's own frame.
        const turn = rotation(...s.angles);
        const place = (p: LngLat): LngLat => toLngLat(turn(toVec(p[0], p[1])));
        const shell = local.ring.map(place);
        const pieces = local.quads.reduce((sum, q) => sum + excessArea(q), 0);
        const diff = Math.abs(polygonArea([polygon(shell)])! / R2 - pieces) / pieces;
        worstBand = Math.max(worstBand, diff);
        expect(diff).toBeLessThan(1e-11);
        const quads = local.quads.map((q) => polygon(q.map(place)));
        const ring = vecs(shell);
        for (const [u, w] of points) {
          const p = place([s.start - 10 + u * (span + 20), s.south + w * s.height * 2 - s.height / 2]);
          const v = toVec(p[0], p[1]);
          // Near an edge (the band's, or one between quadrilaterals) two exact methods may round apart.
          if ([ring, ...quads.map((q) => vecs(q.shell))].some((r) => toBoundary(r, v) < 1e-9)) continue;
          // Inside the band exactly when inside one of its quadrilaterals (each in one projection).
          const expected = quads.some((q) => polygonContains([q], p[0], p[1]));
          expect(polygonContains([polygon(shell)], p[0], p[1])).toBe(expected);
        }
      }),
      { numRuns: 200 },
    );
  });
});
