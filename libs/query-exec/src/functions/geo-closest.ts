/**
 * The point of a shape nearest to a given point on the sphere (Kusto's geo_closest_point_on_line and
 * geo_closest_point_on_polygon pages). Edges are geodesics: the nearest point of an edge is the foot of
 * the perpendicular from the point to the edge's great circle when it falls between the edge's ends, else
 * the nearer end. A vertex comes back with its input coordinates; a point inside a polygon is its own
 * nearest point.
 */
import type { ColumnKind } from '@quarry/contracts';
import { lngLatAt, point } from './geo-args';
import { readPolygons } from './geo-geojson';
import { readLineShape } from './geo-lines';
import { polygonContains } from './geo-polygon';
import { angleBetween, cross, dot, normalize, toLngLat, toVec, type LngLat, type Vec3 } from './geo-sphere';
import type { ScalarImpl } from './scalar-impl';

/** The nearest point of a geodesic edge to p (as [lng, lat]; an end comes back as given), and its angle. */
export function closestOnEdge(p: Vec3, a: LngLat, b: LngLat): { at: LngLat; angle: number } {
  const va = toVec(a[0], a[1]);
  const vb = toVec(b[0], b[1]);
  const da = angleBetween(p, va);
  const db = angleBetween(p, vb);
  let best = da <= db ? { at: a, angle: da } : { at: b, angle: db };
  // (a + b) × (b − a) = 2 a × b, with far less rounding when a and b are close (S2's robust cross product).
  const n = normalize(
    cross([va[0] + vb[0], va[1] + vb[1], va[2] + vb[2]], [vb[0] - va[0], vb[1] - va[1], vb[2] - va[2]]),
  );
  if (n !== null && dot(p, cross(n, va)) > 0 && dot(p, cross(vb, n)) > 0) {
    const off = dot(p, n);
    const foot = normalize([p[0] - off * n[0], p[1] - off * n[1], p[2] - off * n[2]]);
    if (foot !== null) {
      const angle = angleBetween(p, foot);
      if (angle < best.angle) best = { at: toLngLat(foot), angle };
    }
  }
  return best;
}

/** The nearest point of chains of vertices (a ring's last vertex joins its first when `closed`). */
export function closestOnChains(
  p: Vec3,
  chains: readonly (readonly LngLat[])[],
  closed: boolean,
): LngLat | null {
  let best: { at: LngLat; angle: number } | null = null;
  for (const chain of chains) {
    const edges = closed ? chain.length : chain.length - 1;
    for (let i = 0; i < edges; i++) {
      const c = closestOnEdge(p, chain[i], chain[(i + 1) % chain.length]);
      if (best === null || c.angle < best.angle) best = c;
    }
  }
  return best === null ? null : best.at;
}

export function closestPointOnLine(args: unknown[], kinds: ColumnKind[]): unknown {
  const p = lngLatAt(args, kinds, 0);
  const shape = readLineShape(args[2]);
  if (p === null || shape === null) return null;
  const at = closestOnChains(toVec(p[0], p[1]), shape.lines, false);
  return at === null ? null : point(at);
}

export function closestPointOnPolygon(args: unknown[], kinds: ColumnKind[]): unknown {
  const p = lngLatAt(args, kinds, 0);
  const polygons = readPolygons(args[2]);
  if (p === null || polygons === null) return null;
  const inside = polygonContains(polygons, p[0], p[1]);
  if (inside === null) return null;
  if (inside) return point(p);
  const rings = polygons.flatMap((poly) => [poly.shell, ...poly.holes]);
  const at = closestOnChains(toVec(p[0], p[1]), rings, true);
  return at === null ? null : point(at);
}

export const GEO_CLOSEST_FUNCTIONS: Record<string, ScalarImpl> = {
  geo_closest_point_on_line: closestPointOnLine,
  geo_closest_point_on_polygon: closestPointOnPolygon,
};
