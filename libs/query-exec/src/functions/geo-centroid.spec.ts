/**
 * geo_polygon_centroid for shells of any extent. ringTrueMoment (the exact first moment ∫ p dA of the
 * region left of a ring, ½ Σ θ·n̂ over its edges) is checked against closed forms and against the moment
 * swept along meridians (latitudes where each enters and leaves the region, closed-form integrals between);
 * polygonCentroid against centers known by symmetry and against the same sweep through geo_point_in_polygon
 * (right for wide shells); and where it keeps the corner-weighted fan Kusto's examples come out of, it
 * keeps it to the bit. The fast-check seed is shared by the run (test/support/fast-check-seed.ts).
 */
import fc from 'fast-check';
import type { LngLatPolygon } from './geo-geojson';
import { polygonArea, polygonCentroid, polygonContains } from './geo-polygon';
import {
  add,
  angleBetween,
  cross,
  dot,
  EARTH_RADIUS_M,
  normalize,
  norm,
  ringMoment,
  ringTrueMoment,
  scale,
  toLngLat,
  toVec,
  type LngLat,
  type Vec3,
} from './geo-sphere';
import { smallSideArea } from './geo-wide-polygons';

const RAD = Math.PI / 180;
const R2 = EARTH_RADIUS_M * EARTH_RADIUS_M;
const polygon = (shell: LngLat[], holes: LngLat[][] = []): LngLatPolygon => ({ shell, holes });
const vecs = (ring: readonly LngLat[]): Vec3[] => ring.map((p) => toVec(p[0], p[1]));
const wrapLng = (x: number): number => (x > 180 ? x - 360 : x <= -180 ? x + 360 : x);

/** The angle (degrees) between two [lng, lat] points. */
const degreesApart = (a: LngLat, b: LngLat): number =>
  angleBetween(toVec(a[0], a[1]), toVec(b[0], b[1])) / RAD;

const expectVecClose = (actual: Vec3, expected: Vec3, tolerance: number): void => {
  for (let i = 0; i < 3; i++) expect(Math.abs(actual[i] - expected[i])).toBeLessThan(tolerance);
};

/**
 * The answer before the exact moment: each ring (shell counterclockwise, holes clockwise around their
 * smaller side) as the fan of triangles from its first vertex, each weighing its corners' mean by its area.
 */
function fanCentroid(p: LngLatPolygon): LngLat | null {
  const orient = (ring: Vec3[], ccw: boolean): Vec3[] =>
    smallSideArea(ring) > 0 === ccw ? ring : [...ring].reverse();
  let m: Vec3 = [0, 0, 0];
  for (const ring of [orient(vecs(p.shell), true), ...p.holes.map((h) => orient(vecs(h), false))])
    m = add(m, ringMoment(ring));
  const d = normalize(m);
  return d === null ? null : toLngLat(d);
}

/**
 * A regular polygon of `n` vertices at `radius` degrees from [lng, lat], counterclockwise (destination
 * formula; its edges are great-circle arcs, so the region is symmetric about the center: its centroid is
 * the center).
 */
function regularCap(lng: number, lat: number, radius: number, n: number): LngLat[] {
  const [phi, r] = [lat * RAD, radius * RAD];
  return Array.from({ length: n }, (_, i): LngLat => {
    // The bearing from the center, clockwise from north: counterclockwise, it decreases.
    const t = (-2 * Math.PI * i) / n;
    const lat2 = Math.asin(Math.sin(phi) * Math.cos(r) + Math.cos(phi) * Math.sin(r) * Math.cos(t));
    const dLng = Math.atan2(
      Math.sin(t) * Math.sin(r) * Math.cos(phi),
      Math.cos(r) - Math.sin(phi) * Math.sin(lat2),
    );
    return [wrapLng(lng + dLng / RAD), lat2 / RAD];
  });
}

/** The ring along latitude `lat`, a vertex every `step` degrees of longitude (eastward). */
const parallel = (lat: number, step: number): LngLat[] =>
  Array.from({ length: 360 / step }, (_, i): LngLat => [-180 + step * i, lat]);

/**
 * The lune from pole to pole between meridians `west` and `east` (< 180° apart), a vertex every 10°,
 * counterclockwise: north along the east meridian, south along the west one.
 */
function lune(west: number, east: number): LngLat[] {
  const ring: LngLat[] = [];
  for (let y = -80; y <= 80; y += 10) ring.push([east, y]);
  ring.push([east, 90]);
  for (let y = 80; y >= -80; y -= 10) ring.push([west, y]);
  ring.push([east, -90]);
  return ring;
}

/** A band of great-circle arcs between two latitudes, vertices at the given longitudes (counterclockwise). */
const band = (lngs: readonly number[], south: number, north: number): LngLat[] => [
  ...lngs.map((x): LngLat => [x, south]),
  ...[...lngs].reverse().map((x): LngLat => [x, north]),
];
const steps = (from: number, step: number, count: number): number[] =>
  Array.from({ length: count }, (_, i) => wrapLng(from + step * i));

/**
 * ∫ p dA over the region `inside` tells (lng, lat in degrees), swept along meridians: on each of
 * `columns` meridians (at the middles of equal steps of longitude) the latitudes where it enters or
 * leaves the region, found between samples `sample` degrees apart and bisected to 1e-10°, bound intervals
 * over which ∫ p cos φ dφ has a closed form; the columns add up by the midpoint rule. A part of the region
 * under `sample` tall on a meridian can be missed (near a sharp corner pointing east or west).
 */
function sweptMoment(inside: (lng: number, lat: number) => boolean, columns = 1440, sample = 1): Vec3 {
  let m: Vec3 = [0, 0, 0];
  const dl = (2 * Math.PI) / columns;
  for (let i = 0; i < columns; i++) {
    const lng = -180 + (i + 0.5) * (360 / columns);
    const lambda = lng * RAD;
    // Latitudes (radians) bounding the meridian's stretches inside, from the south pole up.
    let was = inside(lng, -90);
    const cuts: number[] = was ? [-Math.PI / 2] : [];
    for (let k = 1; k * sample <= 180; k++) {
      let [lo, hi] = [-90 + (k - 1) * sample, -90 + k * sample];
      const now = inside(lng, hi);
      if (now === was) continue;
      while (hi - lo > 1e-10) {
        const mid = (lo + hi) / 2;
        if (inside(lng, mid) === was) lo = mid;
        else hi = mid;
      }
      cuts.push(((lo + hi) / 2) * RAD);
      was = now;
    }
    if (was) cuts.push(Math.PI / 2);
    for (let j = 0; j + 1 < cuts.length; j += 2) {
      const [a, b] = [cuts[j], cuts[j + 1]];
      // ∫ cos²φ dφ and ∫ sin φ cos φ dφ from a to b.
      const cos2 = (b - a) / 2 + (Math.sin(2 * b) - Math.sin(2 * a)) / 4;
      const sinCos = (Math.sin(b) ** 2 - Math.sin(a) ** 2) / 2;
      m = add(m, scale([cos2 * Math.cos(lambda), cos2 * Math.sin(lambda), sinCos], dl));
    }
  }
  return m;
}

describe('ringTrueMoment: the exact first moment of the region left of a ring', () => {
  it('is the closed form on regions bounded by great circles, and the complement its negative', () => {
    // The octant x, y, z ≥ 0: ∫ x dA = ∫∫ cos²φ cos λ dφ dλ over [0, π/2]² = π/4, and so for y and z.
    const octant: Vec3[] = [
      [1, 0, 0],
      [0, 1, 0],
      [0, 0, 1],
    ];
    expectVecClose(ringTrueMoment(octant), [Math.PI / 4, Math.PI / 4, Math.PI / 4], 1e-15);
    // Reversed, the ring bounds the rest of the sphere (7/8 of it), whose moment is -(π/4)(1, 1, 1).
    expectVecClose(ringTrueMoment([...octant].reverse()), [-Math.PI / 4, -Math.PI / 4, -Math.PI / 4], 1e-15);
    // The northern hemisphere, left of the equator run eastward: ∫ z dA = 2π ∫ sin φ cos φ dφ = π.
    expectVecClose(ringTrueMoment(vecs(parallel(0, 10))), [0, 0, Math.PI], 1e-14);
    // The lune of angle α between two meridians: π/2 · 2 sin(α/2) toward its middle meridian.
    const m = ringTrueMoment(vecs(lune(0, 170)));
    expectVecClose(m, scale(toVec(85, 0), Math.PI * Math.sin(85 * RAD)), 1e-14);
  });

  it('matches the moment swept along meridians on spherical triangles, in both orientations', () => {
    const triangles: Vec3[][] = [
      vecs([
        [10, 5],
        [60, -20],
        [40, 50],
      ]),
      // One of more than a hemisphere's width: its corners 120° apart on the equator.
      vecs([
        [0, 0],
        [120, 0],
        [60, 80],
      ]),
    ];
    for (const t of triangles) {
      // Inside a (counterclockwise) spherical triangle: on the left of all three edge planes.
      const ccw = dot(t[0], cross(t[1], t[2])) > 0 ? t : [...t].reverse();
      const inside = (lng: number, lat: number): boolean => {
        const v = toVec(lng, lat);
        return [0, 1, 2].every((i) => dot(v, cross(ccw[i], ccw[(i + 1) % 3])) > 0);
      };
      const swept = sweptMoment(inside, 1440, 0.1);
      const exact = ringTrueMoment(ccw);
      // The sweep's error, from its midpoint rule in longitude: about 1e-5 of the moment.
      expect(norm(add(exact, scale(swept, -1))) / norm(exact)).toBeLessThan(3e-5);
      // The other way round it is the rest of the sphere: the same moment, negated.
      expectVecClose(ringTrueMoment([...ccw].reverse()), scale(exact, -1), 1e-15);
    }
  });

  it('points from a small counterclockwise cap to its center, with the magnitude of its area', () => {
    const ring = vecs(regularCap(30, 40, 0.5, 24));
    const m = ringTrueMoment(ring);
    expect(dot(m, toVec(30, 40))).toBeGreaterThan(0);
    expect(angleBetween(m, toVec(30, 40))).toBeLessThan(1e-12);
    // |∫ p dA| = area · cos(mean distance) to within the cap's size squared.
    expect(Math.abs(norm(m) / smallSideArea(ring) - 1)).toBeLessThan((0.5 * RAD) ** 2);
  });

  it('agrees with the corner-weighted fan on small shells (to 1e-3°), keeping its digits on tiny ones', () => {
    const star = fc.record({
      lng: fc.double({ min: -179, max: 179, noNaN: true }),
      lat: fc.double({ min: -70, max: 70, noNaN: true }),
      // Up to 2°: the fan's own error grows as the cube of the size and reaches 1e-3° on 3° stars.
      scale: fc.constantFrom(1e-5, 1e-3, 0.1, 2),
      radii: fc.array(fc.double({ min: 0.3, max: 1, noNaN: true }), { minLength: 3, maxLength: 12 }),
    });
    fc.assert(
      fc.property(star, ({ lng, lat, scale: s, radii }) => {
        const shell = radii.map((r, i): LngLat => {
          const a = (2 * Math.PI * i) / radii.length;
          return [wrapLng(lng + (s * r * Math.cos(a)) / Math.cos(lat * RAD)), lat + s * r * Math.sin(a)];
        });
        const ring = vecs(shell);
        const apart = angleBetween(ringTrueMoment(ring), ringMoment(ring));
        expect(apart / RAD).toBeLessThan(1e-3);
        // The fan's error grows as the cube of the size, the exact moment's rounding as 1 / size (it
        // works with the ring's sag below its chords, the size squared; summed as ½ Σ θ·n̂ directly, the
        // terms the size of the ring cancel to one the size of its area, and that is 1 / size squared).
        if (s <= 1e-3) expect(apart).toBeLessThan(1e-13 / (s * RAD));
      }),
      { numRuns: 300 },
    );
  });
});

describe('geo_polygon_centroid of shells of any extent', () => {
  it('a cap of radius 80° around the south pole: the pole (the fan put it at latitude -37.2)', () => {
    // Every vertex is 80° from their mean, so one projection holds it (the answer came from the fan):
    // the fan strays past the tolerance, and the exact centroid is the answer.
    const shell = parallel(-10, 10);
    for (const ring of [shell, [...shell].reverse()]) {
      expect(polygonCentroid([polygon(ring)])![1]).toBeCloseTo(-90, 9);
      // Before: -37.2228530732858, 53° from the pole (each fan triangle weighs its corners' mean).
      expect(fanCentroid(polygon(ring))![1]).toBeCloseTo(-37.22285307, 6);
    }
  });

  it('a cap of radius 85° centered at [100, 20]: the center (the fan: [100, -52.47], 72° away)', () => {
    const shell = regularCap(100, 20, 85, 36);
    for (const ring of [shell, [...shell].reverse()]) {
      const c = polygonCentroid([polygon(ring)])!;
      expect(c[0]).toBeCloseTo(100, 9);
      expect(c[1]).toBeCloseTo(20, 9);
    }
    expect(degreesApart(fanCentroid(polygon(shell))!, [100, 20])).toBeGreaterThan(60);
  });

  it('a lune from pole to pole between meridians 0 and 170: [85, 0] on the equator', () => {
    const c = polygonCentroid([polygon(lune(0, 170))])!;
    expect(c[0]).toBeCloseTo(85, 9);
    expect(c[1]).toBeCloseTo(0, 9);
    // Before: [8.2347, 77.3137], 87° away.
    expect(degreesApart(fanCentroid(polygon(lune(0, 170)))!, [85, 0])).toBeGreaterThan(80);
  });

  it('a band around the equator with a gap at the antimeridian: [0, 0] (the fan: [-158.23, 2.73])', () => {
    // The band of the kusto-fn-geo-polygon-wide-band golden: symmetric about the equator and meridian 0.
    const shell = band(steps(-170, 34, 11), -2.5, 2.5);
    const c = polygonCentroid([polygon(shell)])!;
    expect(c[0]).toBeCloseTo(0, 9);
    expect(c[1]).toBeCloseTo(0, 9);
    const before = fanCentroid(polygon(shell))!;
    expect(before[0]).toBeCloseTo(-158.23185722, 6);
    expect(before[1]).toBeCloseTo(2.73277047, 6);
  });

  it('a MultiPolygon of two wide bands on opposite sides: [45, 0]', () => {
    // North: lng -100..100, lat 10..30. South: the same mirrored in the equator and turned 90° east,
    // so its moment is the north one's with (x, y, z) → (0, x, -z): the sum lies on the equator at 45°.
    const north = band(steps(-100, 20, 11), 10, 30);
    const south = band(steps(-10, 20, 11), -30, -10);
    const c = polygonCentroid([polygon(north), polygon(south)])!;
    expect(c[0]).toBeCloseTo(45, 9);
    expect(c[1]).toBeCloseTo(0, 9);
    // Each alone lies on its middle meridian, at opposite latitudes.
    const [n, s] = [polygonCentroid([polygon(north)])!, polygonCentroid([polygon(south)])!];
    expect(n[0]).toBeCloseTo(0, 9);
    expect(s[0]).toBeCloseTo(90, 9);
    expect(n[1]).toBeCloseTo(-s[1], 9);
    expect(n[1]).toBeGreaterThan(10);
  });

  it('is the direction of ∫ p dA swept along meridians through geo_point_in_polygon', () => {
    const shapes: [string, LngLatPolygon[]][] = [
      ['cap of 85°', [polygon(regularCap(100, 20, 85, 36))]],
      ['cap of 30°', [polygon(regularCap(-40, -50, 30, 12))]],
      ['band 0..5', [polygon(band(steps(-170, 34, 11), 0, 5))]],
      [
        'band with a hole',
        [
          polygon(band(steps(-170, 34, 11), -5, 5), [
            [
              [90, -2],
              [90, 2],
              [100, 2],
              [100, -2],
            ],
          ]),
        ],
      ],
      [
        'C shape',
        [
          polygon([
            [-80, 0],
            [0, -80],
            [80, 0],
            [80, 10],
            [0, -70],
            [-80, 10],
          ]),
        ],
      ],
      [
        'two wide bands',
        [polygon(band(steps(-100, 20, 11), 10, 30)), polygon(band(steps(-10, 20, 11), -30, -10))],
      ],
    ];
    for (const [name, shape] of shapes) {
      const swept = sweptMoment((lng, lat) => polygonContains(shape, lng, lat)!);
      const [lng, lat] = polygonCentroid(shape)!;
      const c = toVec(lng, lat);
      // The part of the swept moment across the centroid's direction, per steradian of the shape (the
      // sweep's own error is under 1e-5 of the area on these; the fan's answers were 0.1 to 1 off).
      const across = norm(add(swept, scale(c, -dot(swept, c)))) / (polygonArea(shape)! / R2);
      expect([name, dot(swept, c) > 0, across < 2e-5]).toEqual([name, true, true]);
    }
  });

  it("keeps the fan's answer to the bit where it is within 1e-6 radians of the exact one", () => {
    // Shells up to about a degree across their center (Kusto's examples are a few hundred meters).
    const star = fc.record({
      lng: fc.double({ min: -179, max: 179, noNaN: true }),
      lat: fc.double({ min: -70, max: 70, noNaN: true }),
      size: fc.constantFrom(1e-9, 1e-7, 1e-4, 0.01, 0.5),
      radii: fc.array(fc.double({ min: 0.3, max: 1, noNaN: true }), { minLength: 3, maxLength: 12 }),
    });
    fc.assert(
      fc.property(star, ({ lng, lat, size, radii }) => {
        const shell = radii.map((r, i): LngLat => {
          const a = (2 * Math.PI * i) / radii.length;
          return [
            wrapLng(lng + (size * r * Math.cos(a)) / Math.cos(lat * RAD)),
            lat + size * r * Math.sin(a),
          ];
        });
        expect(polygonCentroid([polygon(shell)])).toEqual(fanCentroid(polygon(shell)));
      }),
      { numRuns: 300 },
    );
    // A cap of 10°: the fan is 0.025° (2.8 km) off, so the exact centroid, the center, is the answer.
    const cap = polygon(regularCap(20, 30, 10, 36));
    expect(degreesApart(fanCentroid(cap)!, [20, 30])).toBeGreaterThan(0.02);
    expect(degreesApart(polygonCentroid([cap])!, [20, 30])).toBeLessThan(1e-12);
  });
});
