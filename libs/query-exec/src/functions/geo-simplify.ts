/**
 * Simplification on the sphere (Kusto's geo_line_simplify, geo_polygon_simplify and
 * geo_simplify_polygons_array pages): Douglas–Peucker with geodesic edges and spherical distances,
 * followed by a pass that drops a vertex closer than `tolerance` to the one kept before it (the pages:
 * "no two vertices with distance less than tolerance"). Kept vertices are input vertices, with their
 * input coordinates. A line or ring left with too few vertices disappears (a line needs two, a ring
 * three); a polygon whose shell disappears disappears; when everything disappears the result is null.
 *
 * Approximations: the lines of a MultiLineString and the polygons of a MultiPolygon (or of the array)
 * are simplified one by one, not as their union, and a shared border of two polygons is simplified
 * once per polygon (the same vertices are kept when both rings start at the same vertex of it, not in
 * general). Simplified rings are not checked for self-crossing.
 */
import type { ColumnKind } from '@quarry/contracts';
import { dynamicArgument, readPolygons, type LngLatPolygon } from './geo-geojson';
import { readLineShape } from './geo-lines';
import { angleBetween, angleToArc, EARTH_RADIUS_M, toVec, type LngLat, type Vec3 } from './geo-sphere';
import { num, type ScalarImpl } from './scalar-impl';

export const SIMPLIFY_TOLERANCE_DEFAULT_M = 10;
/** geo_line_simplify and geo_simplify_polygons_array: [0, ~7,800,000] meters. */
const WIDE_TOLERANCE = { min: 0, max: 7_800_000 };
/** geo_polygon_simplify: [0.1, 10000] meters. */
const POLYGON_TOLERANCE = { min: 0.1, max: 10_000 };

/** The optional tolerance at args[i] as an angle, or null when out of range. */
function toleranceAt(
  args: unknown[],
  kinds: ColumnKind[],
  i: number,
  range: { min: number; max: number },
): number | null {
  if (args.length <= i) return SIMPLIFY_TOLERANCE_DEFAULT_M / EARTH_RADIUS_M;
  const t = num(args[i], kinds[i]);
  if (t === null || !(t >= range.min && t <= range.max)) return null;
  return t / EARTH_RADIUS_M;
}

/** Douglas–Peucker over points[from..to] (indices into `points`), marking the kept ones. */
function douglasPeucker(
  points: readonly Vec3[],
  order: readonly number[],
  tolerance: number,
  keep: boolean[],
) {
  const stack: [number, number][] = [[0, order.length - 1]];
  while (stack.length > 0) {
    const [lo, hi] = stack.pop() as [number, number];
    if (hi - lo < 2) continue;
    const a = points[order[lo]];
    const b = points[order[hi]];
    let worst = -1;
    let worstAt = -1;
    for (let k = lo + 1; k < hi; k++) {
      const d = angleToArc(points[order[k]], a, b);
      if (d > worst) {
        worst = d;
        worstAt = k;
      }
    }
    if (worst > tolerance) {
      keep[order[worstAt]] = true;
      stack.push([lo, worstAt], [worstAt, hi]);
    }
  }
}

/** The kept indices of an open line, or null when it disappears. */
export function simplifyLineIndices(points: readonly Vec3[], tolerance: number): number[] | null {
  const keep = points.map(() => false);
  keep[0] = true;
  keep[points.length - 1] = true;
  douglasPeucker(
    points,
    points.map((_, i) => i),
    tolerance,
    keep,
  );
  const end = points.length - 1;
  const kept: number[] = [0];
  for (let i = 1; i < end; i++)
    if (keep[i] && angleBetween(points[kept[kept.length - 1]], points[i]) >= tolerance) kept.push(i);
  // The end vertex stays: the vertices kept just before it that are too close to it give way.
  while (kept.length > 1 && angleBetween(points[kept[kept.length - 1]], points[end]) < tolerance) kept.pop();
  if (angleBetween(points[0], points[end]) < tolerance) return null;
  kept.push(end);
  return kept.length >= 2 ? kept : null;
}

/** The kept indices of a closed ring (vertices without the repeated first one), or null when it disappears. */
export function simplifyRingIndices(points: readonly Vec3[], tolerance: number): number[] | null {
  const n = points.length;
  let far = 1;
  for (let i = 2; i < n; i++)
    if (angleBetween(points[0], points[i]) > angleBetween(points[0], points[far])) far = i;
  const keep = points.map(() => false);
  keep[0] = true;
  keep[far] = true;
  const first: number[] = [];
  for (let i = 0; i <= far; i++) first.push(i);
  const second: number[] = [];
  for (let i = far; i <= n; i++) second.push(i % n);
  douglasPeucker(points, first, tolerance, keep);
  douglasPeucker(points, second, tolerance, keep);
  const kept: number[] = [];
  for (let i = 0; i < n; i++) {
    if (!keep[i]) continue;
    const last = kept[kept.length - 1];
    if (last !== undefined && angleBetween(points[last], points[i]) < tolerance) continue;
    kept.push(i);
  }
  while (kept.length > 1 && angleBetween(points[kept[kept.length - 1]], points[kept[0]]) < tolerance)
    kept.pop();
  return kept.length >= 3 ? kept : null;
}

const positions = (ring: readonly LngLat[], idx: readonly number[]): [number, number][] =>
  idx.map((i) => [ring[i][0], ring[i][1]]);

/** A polygon's simplified rings (closed), or null when its shell disappears. */
function simplifyPolygon(p: LngLatPolygon, tolerance: number): [number, number][][] | null {
  const rings: [number, number][][] = [];
  for (const [r, ring] of [p.shell, ...p.holes].entries()) {
    const idx = simplifyRingIndices(
      ring.map((q) => toVec(q[0], q[1])),
      tolerance,
    );
    if (idx === null) {
      if (r === 0) return null;
      continue;
    }
    const out = positions(ring, idx);
    rings.push([...out, out[0]]);
  }
  return rings;
}

function polygonsResult(polygons: readonly LngLatPolygon[], tolerance: number): unknown {
  const out: [number, number][][][] = [];
  for (const p of polygons) {
    const s = simplifyPolygon(p, tolerance);
    if (s !== null) out.push(s);
  }
  if (out.length === 0) return null;
  return out.length === 1
    ? { type: 'Polygon', coordinates: out[0] }
    : { type: 'MultiPolygon', coordinates: out };
}

export function lineSimplify(args: unknown[], kinds: ColumnKind[]): unknown {
  const shape = readLineShape(args[0]);
  const tolerance = toleranceAt(args, kinds, 1, WIDE_TOLERANCE);
  if (shape === null || tolerance === null) return null;
  const lines: [number, number][][] = [];
  for (const line of shape.lines) {
    const idx = simplifyLineIndices(
      line.map((q) => toVec(q[0], q[1])),
      tolerance,
    );
    if (idx !== null) lines.push(positions(line, idx));
  }
  if (lines.length === 0) return null;
  return lines.length === 1
    ? { type: 'LineString', coordinates: lines[0] }
    : { type: 'MultiLineString', coordinates: lines };
}

export function polygonSimplify(args: unknown[], kinds: ColumnKind[]): unknown {
  const polygons = readPolygons(args[0]);
  const tolerance = toleranceAt(args, kinds, 1, POLYGON_TOLERANCE);
  return polygons === null || tolerance === null ? null : polygonsResult(polygons, tolerance);
}

export function simplifyPolygonsArray(args: unknown[], kinds: ColumnKind[]): unknown {
  const value = dynamicArgument(args[0]);
  const tolerance = toleranceAt(args, kinds, 1, WIDE_TOLERANCE);
  if (!Array.isArray(value) || value.length === 0 || tolerance === null) return null;
  const all: LngLatPolygon[] = [];
  for (const item of value) {
    const polygons = readPolygons(item);
    if (polygons === null) return null;
    all.push(...polygons);
  }
  return polygonsResult(all, tolerance);
}

export const GEO_SIMPLIFY_FUNCTIONS: Record<string, ScalarImpl> = {
  geo_line_simplify: lineSimplify,
  geo_polygon_simplify: polygonSimplify,
  geo_simplify_polygons_array: simplifyPolygonsArray,
};
