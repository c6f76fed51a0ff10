/**
 * Lines on the sphere and the shape predicates built on them (Kusto's geo_line_length, geo_line_centroid,
 * geo_line_densify, geo_polygon_densify, geo_line_interpolate_point, geo_line_locate_point,
 * geo_distance_point_to_polygon and geo_intersects_* pages). Edges are geodesics (great-circle arcs) on
 * the sphere of geo-sphere.ts, except in the densify functions, whose input edges are straight lines in
 * (longitude, latitude) and whose output is a chain of geodesics within `tolerance` meters of them.
 */
import { readPosition, shapeValue, type LngLatPolygon } from './geo-geojson';
import { polygonContains } from './geo-polygon';
import {
  add,
  angleBetween,
  angleToArc,
  cross,
  dot,
  EARTH_RADIUS_M,
  isAntipodal,
  normalize,
  scale,
  toLngLat,
  toVec,
  type LngLat,
  type Vec3,
} from './geo-sphere';

/** A LineString's positions: at least two, each valid; no edge between antipodal points. */
function readLinePositions(v: unknown): LngLat[] | null {
  if (!Array.isArray(v) || v.length < 2) return null;
  const out: LngLat[] = [];
  for (const p of v) {
    const q = readPosition(p);
    if (q === null) return null;
    out.push(q);
  }
  for (let i = 0; i + 1 < out.length; i++)
    if (isAntipodal(toVec(out[i][0], out[i][1]), toVec(out[i + 1][0], out[i + 1][1]))) return null;
  return out;
}

/** A LineString or MultiLineString as its lines of [lng, lat] positions, with the type it came as. */
export function readLineShape(v: unknown): { multi: boolean; lines: LngLat[][] } | null {
  const shape = shapeValue(v);
  if (shape === null || !Array.isArray(shape.coordinates)) return null;
  if (shape.type === 'LineString') {
    const line = readLinePositions(shape.coordinates);
    return line === null ? null : { multi: false, lines: [line] };
  }
  if (shape.type !== 'MultiLineString' || shape.coordinates.length === 0) return null;
  const lines: LngLat[][] = [];
  for (const c of shape.coordinates) {
    const line = readLinePositions(c);
    if (line === null) return null;
    lines.push(line);
  }
  return { multi: true, lines };
}

const vecs = (line: readonly LngLat[]): Vec3[] => line.map((p) => toVec(p[0], p[1]));

/** Length of a line of unit vectors, in radians. */
export function lineAngle(line: readonly Vec3[]): number {
  let sum = 0;
  for (let i = 0; i + 1 < line.length; i++) sum += angleBetween(line[i], line[i + 1]);
  return sum;
}

/** Total length in meters (the lines of a MultiLineString summed). */
export function linesLength(lines: readonly (readonly LngLat[])[]): number {
  let sum = 0;
  for (const line of lines) sum += lineAngle(vecs(line));
  return sum * EARTH_RADIUS_M;
}

/**
 * The centroid of the lines as [lng, lat]: each geodesic edge weighs as its length, and the integral of
 * the unit vector along an arc of angle θ is the arc's midpoint direction times 2·sin(θ/2). Null when
 * the lines have no length or their moments cancel.
 */
export function linesCentroid(lines: readonly (readonly LngLat[])[]): LngLat | null {
  let moment: Vec3 = [0, 0, 0];
  for (const line of lines) {
    const v = vecs(line);
    for (let i = 0; i + 1 < v.length; i++) {
      const mid = normalize(add(v[i], v[i + 1]));
      if (mid === null) continue;
      moment = add(moment, scale(mid, 2 * Math.sin(angleBetween(v[i], v[i + 1]) / 2)));
    }
  }
  const c = normalize(moment);
  return c === null ? null : toLngLat(c);
}

/** The point at fraction `t` of the geodesic from `a` to `b` (spherical linear interpolation). */
export function slerp(a: Vec3, b: Vec3, t: number): Vec3 {
  const theta = angleBetween(a, b);
  if (theta < 1e-15) return a;
  const s = Math.sin(theta);
  const p = add(scale(a, Math.sin((1 - t) * theta) / s), scale(b, Math.sin(t * theta) / s));
  return normalize(p) ?? a;
}

/**
 * The point at `fraction` (0..1) of the line's length, or null for a fraction outside [0, 1].
 * The vertices themselves are returned as given (no round trip through vectors).
 */
export function lineInterpolate(line: readonly LngLat[], fraction: number): LngLat | null {
  if (!(fraction >= 0 && fraction <= 1)) return null;
  const v = vecs(line);
  const lengths: number[] = [];
  let total = 0;
  for (let i = 0; i + 1 < v.length; i++) {
    const len = angleBetween(v[i], v[i + 1]);
    lengths.push(len);
    total += len;
  }
  if (fraction === 0 || total === 0) return line[0];
  if (fraction === 1) return line[line.length - 1];
  let remaining = fraction * total;
  for (let i = 0; i < lengths.length; i++) {
    if (remaining <= lengths[i]) return toLngLat(slerp(v[i], v[i + 1], remaining / lengths[i]));
    remaining -= lengths[i];
  }
  return line[line.length - 1];
}

/** The point of the arc a–b nearest to p, and its angle from a along the arc. */
function nearestOnArc(p: Vec3, a: Vec3, b: Vec3): { along: number; off: number } {
  // (a + b) × (b − a) = 2 (a × b), but exact to rounding for a short arc, where a × b cancels (S2's
  // RobustCrossProd): the arc's normal off by 1e-9 moved the nearest point of a metre-long line by µm.
  const n = normalize(cross(add(a, b), [b[0] - a[0], b[1] - a[1], b[2] - a[2]]));
  if (n !== null && dot(p, cross(n, a)) >= 0 && dot(p, cross(b, n)) >= 0) {
    const h = dot(p, n);
    const foot = normalize([p[0] - h * n[0], p[1] - h * n[1], p[2] - h * n[2]]);
    if (foot !== null) return { along: angleBetween(a, foot), off: angleBetween(p, foot) };
  }
  const toA = angleBetween(p, a);
  const toB = angleBetween(p, b);
  return toA <= toB ? { along: 0, off: toA } : { along: angleBetween(a, b), off: toB };
}

/**
 * The fraction of the line's length from its start to the point of the line nearest to (lng, lat); the
 * first such point when several are equally near. A line of zero length answers 0.
 */
export function lineLocate(line: readonly LngLat[], p: LngLat): number {
  // Distances this close (about 6 µm on the ground) are rounding noise of the arc arithmetic: a line that
  // comes back to within that of an earlier point ties with it, and the earlier point wins.
  const TIE_RADIANS = 1e-12;
  const v = vecs(line);
  const q = toVec(p[0], p[1]);
  let best = Infinity;
  let bestAlong = 0;
  let before = 0;
  for (let i = 0; i + 1 < v.length; i++) {
    const { along, off } = nearestOnArc(q, v[i], v[i + 1]);
    if (off < best - TIE_RADIANS) {
      best = off;
      bestAlong = before + along;
    }
    before += angleBetween(v[i], v[i + 1]);
  }
  if (before === 0) return 0;
  return Math.min(1, bestAlong / before);
}

/** Points along a densified chain are capped, as Kusto caps them (10485760); beyond that: null. */
const MAX_DENSIFIED_POINTS = 10485760;

/**
 * The planar edge from `a` to `b` (straight in longitude/latitude; across the antimeridian when
 * `crossing` and the edge is shorter that way) as a chain of geodesics: the edge is halved until the
 * planar midpoint of each piece is within `tolerance` (radians) of the geodesic between its ends. The
 * added points lie on the planar edge. Returns the points after `a`, up to and including `b`; false when
 * the cap is passed.
 */
function densifyEdge(a: LngLat, b: LngLat, tolerance: number, crossing: boolean, out: LngLat[]): boolean {
  let bx = b[0];
  if (crossing && Math.abs(bx - a[0]) > 180) bx += bx < a[0] ? 360 : -360;
  const wrap = (x: number): number => (x > 180 ? x - 360 : x < -180 ? x + 360 : x);
  const split = (ax: number, ay: number, cx: number, cy: number, depth: number): boolean => {
    const mx = (ax + cx) / 2;
    const my = (ay + cy) / 2;
    const va = toVec(wrap(ax), ay);
    const vc = toVec(wrap(cx), cy);
    // A piece at most twice the tolerance long is done: its midpoint lies within half its length of
    // either end, so within the tolerance of the geodesic. Below that, `off` is rounding noise, which
    // could split a short edge to the point cap (seconds, then null; fast-check seed 2103879912).
    const off = angleBetween(va, vc) > 2 * tolerance ? angleToArc(toVec(wrap(mx), my), va, vc) : 0;
    if (off > tolerance && depth < 40) {
      if (!split(ax, ay, mx, my, depth + 1)) return false;
      return split(mx, my, cx, cy, depth + 1);
    }
    if (out.length >= MAX_DENSIFIED_POINTS) return false;
    out.push([wrap(cx), cy]);
    return true;
  };
  return split(a[0], a[1], bx, b[1], 0);
}

/** A chain of positions densified edge by edge (the first position kept), or null past the cap. */
export function densifyChain(
  points: readonly LngLat[],
  toleranceM: number,
  crossing: boolean,
): LngLat[] | null {
  const out: LngLat[] = [points[0]];
  const tolerance = toleranceM / EARTH_RADIUS_M;
  for (let i = 0; i + 1 < points.length; i++) {
    if (!densifyEdge(points[i], points[i + 1], tolerance, crossing, out)) return null;
    // The original vertex exactly as given (the chain's last point is it, up to the ±360 wrap).
    out[out.length - 1] = points[i + 1];
  }
  return out;
}

/** Tolerance in meters for the densify functions: default 10, valid 0.1–10000. */
export const DENSIFY_TOLERANCE = { fallback: 10, min: 0.1, max: 10000 };

/** Whether the arcs a–b and c–d (each shorter than 180°) share a point. */
export function arcsIntersect(a: Vec3, b: Vec3, c: Vec3, d: Vec3): boolean {
  const EPS = 1e-13;
  // Touching: an end of one arc on the other (this also covers overlapping arcs of one great circle).
  if (
    angleToArc(a, c, d) < EPS ||
    angleToArc(b, c, d) < EPS ||
    angleToArc(c, a, b) < EPS ||
    angleToArc(d, a, b) < EPS
  )
    return true;
  const n1 = normalize(cross(a, b));
  const n2 = normalize(cross(c, d));
  if (n1 === null || n2 === null) return false;
  const x = normalize(cross(n1, n2));
  if (x === null) return false; // one great circle, and no end of one arc on the other
  const onArc = (p: Vec3, s: Vec3, e: Vec3, n: Vec3): boolean =>
    dot(p, cross(n, s)) >= 0 && dot(p, cross(e, n)) >= 0;
  for (const p of [x, scale(x, -1)]) if (onArc(p, a, b, n1) && onArc(p, c, d, n2)) return true;
  return false;
}

function edgesOf(lines: readonly (readonly LngLat[])[]): [Vec3, Vec3][] {
  const out: [Vec3, Vec3][] = [];
  for (const line of lines) {
    const v = vecs(line);
    for (let i = 0; i + 1 < v.length; i++) out.push([v[i], v[i + 1]]);
  }
  return out;
}

/** The edges of every ring (closing edge included) of the polygons. */
function ringEdges(polygons: readonly LngLatPolygon[]): [Vec3, Vec3][] {
  const rings: LngLat[][] = [];
  for (const p of polygons) for (const r of [p.shell, ...p.holes]) rings.push([...r, r[0]]);
  return edgesOf(rings);
}

function anyEdgesCross(e1: readonly [Vec3, Vec3][], e2: readonly [Vec3, Vec3][]): boolean {
  for (const [a, b] of e1) for (const [c, d] of e2) if (arcsIntersect(a, b, c, d)) return true;
  return false;
}

export function linesIntersect(l1: readonly LngLat[][], l2: readonly LngLat[][]): boolean {
  return anyEdgesCross(edgesOf(l1), edgesOf(l2));
}

/** A line meets a polygon when one of its vertices is inside or one of its edges meets a ring's edge. */
export function lineIntersectsPolygons(
  lines: readonly LngLat[][],
  polygons: readonly LngLatPolygon[],
): boolean | null {
  for (const line of lines)
    for (const p of line) {
      const inside = polygonContains(polygons, p[0], p[1]);
      if (inside === null) return null;
      if (inside) return true;
    }
  return anyEdgesCross(edgesOf(lines), ringEdges(polygons));
}

/** Two (multi)polygons meet when a vertex of one is inside the other or their rings' edges meet. */
export function polygonsIntersect(
  p1: readonly LngLatPolygon[],
  p2: readonly LngLatPolygon[],
): boolean | null {
  for (const [from, to] of [
    [p1, p2],
    [p2, p1],
  ] as const)
    for (const poly of from)
      for (const v of poly.shell) {
        const inside = polygonContains(to, v[0], v[1]);
        if (inside === null) return null;
        if (inside) return true;
      }
  return anyEdgesCross(ringEdges(p1), ringEdges(p2));
}

/** Meters from the point to the (multi)polygon: 0 inside, else to the nearest ring edge. */
export function distanceToPolygons(polygons: readonly LngLatPolygon[], p: LngLat): number | null {
  const inside = polygonContains(polygons, p[0], p[1]);
  if (inside === null) return null;
  if (inside) return 0;
  const q = toVec(p[0], p[1]);
  let best = Infinity;
  for (const [a, b] of ringEdges(polygons)) best = Math.min(best, angleToArc(q, a, b));
  return best * EARTH_RADIUS_M;
}
