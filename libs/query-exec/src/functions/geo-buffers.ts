/**
 * Buffers on the sphere (Kusto's geo_point_buffer, geo_line_buffer and geo_polygon_buffer pages): the
 * polygon holding every point within `radius` meters of the shape, drawn with geodesic edges that
 * stray at most `tolerance` meters outside the ideal boundary (and never inside it).
 *
 * - A point's buffer is a regular polygon about it whose edges touch the circle of the radius from
 *   outside: with n vertices at angular distance R, the edges' midpoints are at ρ with
 *   tan ρ = tan R · cos(π/n); R is chosen so that ρ = radius, and n is the least count for which
 *   R - radius ≤ tolerance.
 * - A geodesic edge's buffer (apart from its round ends) is the band between two small circles at
 *   `radius` from its great circle; vertices placed on those small circles are joined by geodesics that
 *   bulge away from the edge, by at most `tolerance` with the spacing used here.
 * - A line's buffer is the union (geo-boolean.ts) of its vertices' buffers and its edges' bands; a
 *   polygon's is the union of the polygon and the buffers of its rings.
 */
import { readPolygons } from './geo-geojson';
import { readLineShape } from './geo-lines';
import { polygonsGeoJson, sphereRings, unionSphere, type SphereRings } from './geo-boolean';
import {
  angleBetween,
  cross,
  EARTH_RADIUS_M,
  gnomonicAbout,
  normalize,
  toLngLat,
  toVec,
  type Vec3,
} from './geo-sphere';
import type { ColumnKind } from '@quarry/contracts';
import { lngLatAt } from './geo-args';
import { num, type ScalarImpl } from './scalar-impl';

/** Radius and tolerance as angles (radians) on the sphere. */
export interface BufferSize {
  radius: number;
  tolerance: number;
}

export const BUFFER_TOLERANCE_DEFAULT_M = 10;
/** The least tolerance, relative to the radius (the pages: no lower than 0.0001% of the radius). */
const MIN_RELATIVE_TOLERANCE = 1e-6;
/** A tolerance above the radius is lowered to just below it. */
const MAX_RELATIVE_TOLERANCE = 1 - 1e-9;

/**
 * `radius` (meters, positive) and the optional `tolerance` (meters, default 10) at args[i], args[i+1];
 * null when invalid or when the buffer would not fit in a hemisphere.
 */
export function bufferSize(args: unknown[], kinds: ColumnKind[], i: number): BufferSize | null {
  const radius = num(args[i], kinds[i]);
  if (radius === null || !Number.isFinite(radius) || radius <= 0) return null;
  let tolerance = BUFFER_TOLERANCE_DEFAULT_M;
  if (args.length > i + 1) {
    const t = num(args[i + 1], kinds[i + 1]);
    if (t === null || !Number.isFinite(t) || t <= 0) return null;
    tolerance = t;
  }
  if (tolerance < radius * MIN_RELATIVE_TOLERANCE) return null;
  tolerance = Math.min(tolerance, radius * MAX_RELATIVE_TOLERANCE);
  const size = { radius: radius / EARTH_RADIUS_M, tolerance: tolerance / EARTH_RADIUS_M };
  return size.radius + size.tolerance < Math.PI / 2 ? size : null;
}

/**
 * The widest angle between neighbouring vertices on a circle (or small-circle side) of `radius` for
 * which the geodesic between them strays at most `tolerance` outside: cos(Δ/2) = tan r / tan(r + tol).
 */
export function vertexSpacing(size: BufferSize): number {
  const c = Math.tan(size.radius) / Math.tan(size.radius + size.tolerance);
  return 2 * Math.acos(Math.min(1, c));
}

/** Vertices of a point's buffer, counterclockwise seen from outside the sphere. */
export function circleRing(center: Vec3, size: BufferSize): Vec3[] {
  const n = Math.max(3, Math.ceil((2 * Math.PI) / vertexSpacing(size)));
  const outer = Math.atan(Math.tan(size.radius) / Math.cos(Math.PI / n));
  const { e1, e2 } = gnomonicAbout(center);
  const ring: Vec3[] = [];
  const c = Math.cos(outer);
  const s = Math.sin(outer);
  for (let k = 0; k < n; k++) {
    const t = (2 * Math.PI * k) / n;
    const d: Vec3 = [
      Math.cos(t) * e1[0] + Math.sin(t) * e2[0],
      Math.cos(t) * e1[1] + Math.sin(t) * e2[1],
      Math.cos(t) * e1[2] + Math.sin(t) * e2[2],
    ];
    ring.push([c * center[0] + s * d[0], c * center[1] + s * d[1], c * center[2] + s * d[2]]);
  }
  return ring;
}

/** The point at fraction f along the geodesic from a to b (angle `theta` apart). */
function slerp(a: Vec3, b: Vec3, theta: number, f: number): Vec3 {
  const s = Math.sin(theta);
  const wa = Math.sin((1 - f) * theta) / s;
  const wb = Math.sin(f * theta) / s;
  return [wa * a[0] + wb * b[0], wa * a[1] + wb * b[1], wa * a[2] + wb * b[2]];
}

/** The band within `radius` of the geodesic edge a–b (without its round ends), or null for a point. */
export function edgeBand(a: Vec3, b: Vec3, size: BufferSize): Vec3[] | null {
  const theta = angleBetween(a, b);
  const n = normalize(cross(a, b));
  if (theta < 1e-12 || n === null) return null;
  const steps = Math.max(1, Math.ceil(theta / vertexSpacing(size)));
  const c = Math.cos(size.radius);
  const s = Math.sin(size.radius);
  const left: Vec3[] = [];
  const right: Vec3[] = [];
  for (let i = 0; i <= steps; i++) {
    const p = slerp(a, b, theta, i / steps);
    left.push([c * p[0] + s * n[0], c * p[1] + s * n[1], c * p[2] + s * n[2]]);
    right.push([c * p[0] - s * n[0], c * p[1] - s * n[1], c * p[2] - s * n[2]]);
  }
  return [...left, ...right.reverse()];
}

/** The buffer pieces of a chain of vertices (closed: the last vertex joins the first). */
function chainPieces(chain: readonly Vec3[], closed: boolean, size: BufferSize): SphereRings[] {
  const pieces: SphereRings[] = chain.map((v) => [circleRing(v, size)]);
  const edges = closed ? chain.length : chain.length - 1;
  for (let i = 0; i < edges; i++) {
    const band = edgeBand(chain[i], chain[(i + 1) % chain.length], size);
    if (band !== null) pieces.push([band]);
  }
  return pieces;
}

export function pointBuffer(args: unknown[], kinds: ColumnKind[]): unknown {
  const p = lngLatAt(args, kinds, 0);
  const size = bufferSize(args, kinds, 2);
  if (p === null || size === null) return null;
  const ring = circleRing(toVec(p[0], p[1]), size).map((v) => {
    const q = toLngLat(v);
    return [q[0], q[1]];
  });
  return { type: 'Polygon', coordinates: [[...ring, ring[0]]] };
}

export function lineBuffer(args: unknown[], kinds: ColumnKind[]): unknown {
  const shape = readLineShape(args[0]);
  const size = bufferSize(args, kinds, 1);
  if (shape === null || size === null) return null;
  const pieces: SphereRings[] = [];
  for (const line of shape.lines)
    pieces.push(
      ...chainPieces(
        line.map((q) => toVec(q[0], q[1])),
        false,
        size,
      ),
    );
  const united = unionSphere(pieces);
  return united === null ? null : polygonsGeoJson(united);
}

export function polygonBuffer(args: unknown[], kinds: ColumnKind[]): unknown {
  const polygons = readPolygons(args[0]);
  const size = bufferSize(args, kinds, 1);
  if (polygons === null || size === null) return null;
  const pieces: SphereRings[] = [];
  for (const rings of sphereRings(polygons)) {
    pieces.push(rings);
    for (const ring of rings) pieces.push(...chainPieces(ring, true, size));
  }
  const united = unionSphere(pieces);
  return united === null ? null : polygonsGeoJson(united);
}

export const GEO_BUFFER_FUNCTIONS: Record<string, ScalarImpl> = {
  geo_point_buffer: pointBuffer,
  geo_line_buffer: lineBuffer,
  geo_polygon_buffer: polygonBuffer,
};
