/**
 * Geometry on the sphere for the geo_* functions. Kusto measures on a sphere of S2's Earth radius
 * (6371.01 km: its geo_distance_2points example, Seattle to Los Angeles = 1546754.35197381 m, comes out
 * only with that radius) and draws polygon and line edges as geodesics (great-circle arcs).
 *
 * Polygons are handled through the gnomonic projection about a point of the polygon: it maps great
 * circles to straight lines, so a polygon with geodesic edges is exactly a planar polygon there, and
 * containment and union (polygon-clipping) are planar problems. Areas, perimeters and centroids are
 * measured back on the sphere.
 */

export const EARTH_RADIUS_M = 6371010;

export type Vec3 = readonly [number, number, number];
export type LngLat = readonly [number, number];

export const isValidLng = (x: number): boolean => Number.isFinite(x) && x >= -180 && x <= 180;
export const isValidLat = (y: number): boolean => Number.isFinite(y) && y >= -90 && y <= 90;

const RAD = Math.PI / 180;

export function toVec(lng: number, lat: number): Vec3 {
  const phi = lat * RAD;
  const lambda = lng * RAD;
  const c = Math.cos(phi);
  return [c * Math.cos(lambda), c * Math.sin(lambda), Math.sin(phi)];
}

export function toLngLat(v: Vec3): LngLat {
  return [Math.atan2(v[1], v[0]) / RAD, Math.atan2(v[2], Math.hypot(v[0], v[1])) / RAD];
}

export const dot = (a: Vec3, b: Vec3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
export const cross = (a: Vec3, b: Vec3): Vec3 => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];
export const norm = (a: Vec3): number => Math.hypot(a[0], a[1], a[2]);
export const scale = (a: Vec3, k: number): Vec3 => [a[0] * k, a[1] * k, a[2] * k];
export const add = (a: Vec3, b: Vec3): Vec3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];

export function normalize(a: Vec3): Vec3 | null {
  const n = norm(a);
  return n > 1e-300 ? scale(a, 1 / n) : null;
}

/** The angle between two unit vectors, accurate for tiny and for near-antipodal angles. */
export const angleBetween = (a: Vec3, b: Vec3): number => Math.atan2(norm(cross(a, b)), dot(a, b));

/** Whether two unit vectors are (numerically) antipodal: the arc between them is not unique. */
export const isAntipodal = (a: Vec3, b: Vec3): boolean => dot(a, b) < -1 + 1e-15;

/**
 * The angle from `p` to the great-circle arc from `a` to `b` (shorter than 180°): to the arc's circle when
 * the foot of the perpendicular falls between the ends, else to the nearer end.
 */
export function angleToArc(p: Vec3, a: Vec3, b: Vec3): number {
  const n = normalize(cross(a, b));
  if (n === null) return angleBetween(p, a);
  // p's projection onto the arc's plane lies between a and b exactly when both hold.
  if (dot(p, cross(n, a)) >= 0 && dot(p, cross(b, n)) >= 0) {
    const off = dot(p, n);
    const inPlane = norm([p[0] - off * n[0], p[1] - off * n[1], p[2] - off * n[2]]);
    return Math.atan2(Math.abs(off), inPlane);
  }
  return Math.min(angleBetween(p, a), angleBetween(p, b));
}

/** Area (steradians) of the spherical triangle a, b, c, by l'Huilier's theorem (as S2 measures it). */
export function triangleArea(a: Vec3, b: Vec3, c: Vec3): number {
  const sa = angleBetween(b, c);
  const sb = angleBetween(c, a);
  const sc = angleBetween(a, b);
  const s = (sa + sb + sc) / 2;
  const t = Math.tan(s / 2) * Math.tan((s - sa) / 2) * Math.tan((s - sb) / 2) * Math.tan((s - sc) / 2);
  return 4 * Math.atan(Math.sqrt(Math.max(0, t)));
}

/** The triangle's area, positive when a → b → c turns counterclockwise seen from outside the sphere. */
export function signedTriangleArea(a: Vec3, b: Vec3, c: Vec3): number {
  const area = triangleArea(a, b, c);
  return dot(a, cross(b, c)) < 0 ? -area : area;
}

/**
 * Signed area of a closed ring (vertices without the repeated first one), summed over the fan of
 * triangles from its first vertex, as S2 does: Kusto's geo_polygon_area example (Central Park,
 * 3475207.28346606 m²) is reproduced to all its digits this way.
 */
export function ringSignedArea(ring: readonly Vec3[]): number {
  let sum = 0;
  for (let i = 1; i + 1 < ring.length; i++) sum += signedTriangleArea(ring[0], ring[i], ring[i + 1]);
  return sum;
}

/**
 * The area (steradians) of the region left of a ring (vertices without the repeated first one), by
 * Gauss–Bonnet: 2π minus the sum of the turns at its vertices. Unlike the fan of ringSignedArea it holds for
 * rings of any size: a fan's triangles degenerate when the ring reaches the antipode of its first vertex.
 */
export function ringLeftArea(ring: readonly Vec3[]): number {
  let turns = 0;
  for (let i = 0; i < ring.length; i++) {
    const p = ring[(i + ring.length - 1) % ring.length];
    const v = ring[i];
    const n = ring[(i + 1) % ring.length];
    const inPlane = normalize(cross(p, v));
    const outPlane = normalize(cross(v, n));
    if (inPlane === null || outPlane === null) continue;
    // Directions of travel at v: arriving from p, leaving toward n; the turn between them about v.
    const dIn = cross(inPlane, v);
    const dOut = cross(outPlane, v);
    turns += Math.atan2(dot(cross(dIn, dOut), v), dot(dIn, dOut));
  }
  return 2 * Math.PI - turns;
}

/** Length of a closed ring (radians). */
export function ringLength(ring: readonly Vec3[]): number {
  let sum = 0;
  for (let i = 0; i < ring.length; i++) sum += angleBetween(ring[i], ring[(i + 1) % ring.length]);
  return sum;
}

/**
 * A ring's area-weighted centroid vector over the same fan: each triangle contributes its signed area
 * times the mean of its corners. This is how Kusto's geo_polygon_centroid examples come out (to about
 * 1e-11 degrees); the exact spherical centroid differs from them by about a millimetre. The error grows
 * as the cube of the ring's size (on the sphere the mean of a triangle's corners is its centroid only in
 * the limit of small triangles, and the fan's grow with the ring): polygonCentroid keeps this answer only
 * where it is within 1e-6 radians of ringTrueMoment's.
 */
export function ringMoment(ring: readonly Vec3[]): Vec3 {
  let m: Vec3 = [0, 0, 0];
  for (let i = 1; i + 1 < ring.length; i++) {
    const a = ring[0];
    const b = ring[i];
    const c = ring[i + 1];
    m = add(m, scale(add(add(a, b), c), signedTriangleArea(a, b, c) / 3));
  }
  return m;
}

/** θ / sin θ − 1 for an arc of angle θ whose ends' cross product has length `sine`; exact for small θ too. */
function arcOverSineLess1(theta: number, sine: number): number {
  if (theta < 0.01) {
    // The series to θ⁶: the next term, 127θ⁸/604800, is at most about 1e-15 of the sum here.
    const t2 = theta * theta;
    return t2 * (1 / 6 + t2 * (7 / 360 + (t2 * 31) / 15120));
  }
  return theta / sine - 1;
}

/**
 * A ring's exact first moment ∫ p dA over the region left of it (p the unit position vector), for rings
 * of any extent: ½ Σ θ·n̂ over its edges, θ an edge's angle and n̂ = (a × b) / |a × b| the unit normal of
 * its great circle. It is the region's vector area ½ ∮ p × dp, which on the unit sphere is its moment
 * (S2's TrueCentroid summed over a fan of triangles comes to the same, the fan's own edges cancelling).
 * The moment of the whole sphere is 0, so unlike an area it needs no reduction modulo the sphere however
 * far the ring reaches; counterclockwise around a small cap it points to the cap's center. Computed as
 * θ·n̂ = a × b + (θ / sin θ − 1)·(a × b), with Σ a × b = Σ (a − r₀) × (b − r₀) about the first vertex
 * r₀: the terms are then no longer the size of the ring cancelling to a sum the size of its area, so
 * small rings keep their digits (a relative error about 1e-16 / size rather than 1e-16 / size²).
 */
export function ringTrueMoment(ring: readonly Vec3[]): Vec3 {
  const o = ring[0];
  let m: Vec3 = [0, 0, 0];
  for (let i = 0; i < ring.length; i++) {
    const a = ring[i];
    const b = ring[(i + 1) % ring.length];
    const ab = cross(a, b);
    const sine = norm(ab);
    if (sine > 0) m = add(m, scale(ab, arcOverSineLess1(Math.atan2(sine, dot(a, b)), sine)));
    // (a − r₀) × (b − r₀) is 0 for the two edges at r₀.
    if (i > 0 && i + 1 < ring.length)
      m = add(m, cross([a[0] - o[0], a[1] - o[1], a[2] - o[2]], [b[0] - o[0], b[1] - o[1], b[2] - o[2]]));
  }
  return scale(m, 0.5);
}

/** The gnomonic projection about `c`: plane coordinates on a right-handed basis (east, north at c). */
export interface Gnomonic {
  c: Vec3;
  e1: Vec3;
  e2: Vec3;
}

export function gnomonicAbout(c: Vec3): Gnomonic {
  const east = normalize(cross([0, 0, 1], c)) ?? ([0, 1, 0] as Vec3);
  return { c, e1: east, e2: cross(c, east) };
}

/** Plane coordinates of `v`, or null when `v` is not in the open hemisphere about the center. */
export function project(g: Gnomonic, v: Vec3): [number, number] | null {
  const d = dot(v, g.c);
  if (d <= 1e-12) return null;
  return [dot(v, g.e1) / d, dot(v, g.e2) / d];
}

export function unproject(g: Gnomonic, x: number, y: number): Vec3 {
  const v: Vec3 = [
    g.c[0] + x * g.e1[0] + y * g.e2[0],
    g.c[1] + x * g.e1[1] + y * g.e2[1],
    g.c[2] + x * g.e1[2] + y * g.e2[2],
  ];
  return normalize(v) ?? g.c;
}

/** Even-odd rule on a planar ring (vertices without the repeated first one). */
export function pointInPlanarRing(
  x: number,
  y: number,
  ring: readonly (readonly [number, number])[],
): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i];
    const [xj, yj] = ring[j];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/**
 * Distance in meters on the WGS-84 ellipsoid (Vincenty's inverse formula), for `use_spheroid = true`;
 * null where the iteration does not converge (nearly antipodal points).
 */
export function spheroidDistance(lng1: number, lat1: number, lng2: number, lat2: number): number | null {
  const a = 6378137;
  const f = 1 / 298.257223563;
  const b = a * (1 - f);
  const L = (lng2 - lng1) * RAD;
  const U1 = Math.atan((1 - f) * Math.tan(lat1 * RAD));
  const U2 = Math.atan((1 - f) * Math.tan(lat2 * RAD));
  const sinU1 = Math.sin(U1);
  const cosU1 = Math.cos(U1);
  const sinU2 = Math.sin(U2);
  const cosU2 = Math.cos(U2);
  let lambda = L;
  for (let iter = 0; iter < 200; iter++) {
    const sinLambda = Math.sin(lambda);
    const cosLambda = Math.cos(lambda);
    const sinSigma = Math.hypot(cosU2 * sinLambda, cosU1 * sinU2 - sinU1 * cosU2 * cosLambda);
    if (sinSigma === 0) return 0;
    const cosSigma = sinU1 * sinU2 + cosU1 * cosU2 * cosLambda;
    const sigma = Math.atan2(sinSigma, cosSigma);
    const sinAlpha = (cosU1 * cosU2 * sinLambda) / sinSigma;
    const cos2Alpha = 1 - sinAlpha * sinAlpha;
    const cos2SigmaM = cos2Alpha === 0 ? 0 : cosSigma - (2 * sinU1 * sinU2) / cos2Alpha;
    const C = (f / 16) * cos2Alpha * (4 + f * (4 - 3 * cos2Alpha));
    const prev = lambda;
    lambda =
      L +
      (1 - C) *
        f *
        sinAlpha *
        (sigma + C * sinSigma * (cos2SigmaM + C * cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)));
    if (Math.abs(lambda - prev) < 1e-12) {
      const u2 = (cos2Alpha * (a * a - b * b)) / (b * b);
      const A = 1 + (u2 / 16384) * (4096 + u2 * (-768 + u2 * (320 - 175 * u2)));
      const B = (u2 / 1024) * (256 + u2 * (-128 + u2 * (74 - 47 * u2)));
      const deltaSigma =
        B *
        sinSigma *
        (cos2SigmaM +
          (B / 4) *
            (cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM) -
              (B / 6) * cos2SigmaM * (-3 + 4 * sinSigma * sinSigma) * (-3 + 4 * cos2SigmaM * cos2SigmaM)));
      return b * A * (sigma - deltaSigma);
    }
  }
  return null;
}
