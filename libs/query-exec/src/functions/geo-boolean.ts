/**
 * Union and intersection of polygons with geodesic edges (Kusto's geo_union_polygons_array and
 * geo_intersection_2polygons pages), and the union step of the buffer functions (geo-buffers.ts).
 *
 * The shapes are taken to the plane by the gnomonic projection about the center of all their vertices:
 * it maps great circles to straight lines, so polygons with geodesic edges are exactly planar polygons
 * there, and polygon-clipping's planar union / intersection is the spherical one (up to rounding). New
 * vertices (edge crossings) are projected back to the sphere; input vertices keep their input
 * coordinates exactly. Shapes that do not fit well inside one hemisphere about that center (a vertex
 * more than about 84° from it) are not supported and give null.
 *
 * Limitation: polygon-clipping answers only areas. Where two polygons meet in a point or along an edge
 * only, Kusto's intersection is that Point, LineString or a GeometryCollection holding them; here the
 * intersection is then the empty GeometryCollection.
 */
import {
  intersection,
  union,
  type MultiPolygon as PlanarMultiPolygon,
  type Pair,
  type Polygon as PlanarPolygon,
} from 'polygon-clipping';
import { readPolygons, type LngLatPolygon } from './geo-geojson';
import {
  add,
  gnomonicAbout,
  normalize,
  project,
  toLngLat,
  toVec,
  unproject,
  type Gnomonic,
  type LngLat,
  type Vec3,
} from './geo-sphere';

/** A polygon on the sphere: its shell, then its holes (any orientation), without closing vertices. */
export type SphereRings = Vec3[][];

/** A polygon as GeoJSON coordinates: closed rings of [lng, lat]. */
export type PolygonCoordinates = [number, number][][];

/** Vertices farther than this from the projection center (cosine of ~84°) are refused. */
const MIN_COS_FROM_CENTER = 0.1;

const EMPTY_COLLECTION = { type: 'GeometryCollection', geometries: [] as unknown[] };

const GRID = 2 ** 48;
const snap = (x: number): number => Math.round(x * GRID) / GRID;

/** The rings of parsed GeoJSON polygons as unit vectors. */
export function sphereRings(polygons: readonly LngLatPolygon[]): SphereRings[] {
  return polygons.map((p) => [p.shell, ...p.holes].map((ring) => ring.map((q) => toVec(q[0], q[1]))));
}

/** The projection used for a set of shapes, with the map back to exact input coordinates. */
interface Plane {
  g: Gnomonic;
  original: Map<string, LngLat>;
}

function planeFor(shapes: readonly SphereRings[]): Plane | null {
  let sum: Vec3 = [0, 0, 0];
  for (const shape of shapes) for (const ring of shape) for (const v of ring) sum = add(sum, v);
  const center = normalize(sum);
  return center === null ? null : { g: gnomonicAbout(center), original: new Map() };
}

/** A shape's planar image (closed rings), or null when a vertex is too far from the projection center. */
function toPlane(
  plane: Plane,
  shape: SphereRings,
  lngLats?: readonly (readonly LngLat[])[],
): PlanarPolygon | null {
  const out: PlanarPolygon = [];
  for (let r = 0; r < shape.length; r++) {
    const ring: Pair[] = [];
    for (let i = 0; i < shape[r].length; i++) {
      const v = shape[r][i];
      const projected = project(plane.g, v);
      if (projected === null) return null;
      // Snapped to a grid of 2^-48 (about 25 nm on the ground): near-coincident vertices from different
      // shapes become equal, which keeps polygon-clipping's sweep line out of its degenerate cases.
      const q: Pair = [snap(projected[0]), snap(projected[1])];
      if (v[0] * plane.g.c[0] + v[1] * plane.g.c[1] + v[2] * plane.g.c[2] < MIN_COS_FROM_CENTER) return null;
      if (lngLats !== undefined) plane.original.set(`${q[0]},${q[1]}`, lngLats[r][i]);
      ring.push(q);
    }
    ring.push(ring[0]);
    out.push(ring);
  }
  return out;
}

/**
 * Planar polygons back on the sphere as GeoJSON polygon coordinates (closed rings). Neighbouring
 * vertices that land on the same [lng, lat] are merged; a ring left with fewer than three vertices
 * (a sliver below the rounding) is dropped, and a polygon whose shell is dropped with it.
 */
function fromPlane(plane: Plane, planar: PlanarMultiPolygon): PolygonCoordinates[] {
  const out: PolygonCoordinates[] = [];
  for (const poly of planar) {
    const rings: [number, number][][] = [];
    for (const ring of poly) {
      const points: [number, number][] = [];
      // polygon-clipping closes each ring: the repeated vertex is left out here and added back below.
      for (const [x, y] of ring.slice(0, -1)) {
        const known = plane.original.get(`${x},${y}`);
        const p = known ?? toLngLat(unproject(plane.g, x, y));
        const last = points[points.length - 1];
        if (last === undefined || last[0] !== p[0] || last[1] !== p[1]) points.push([p[0], p[1]]);
      }
      while (
        points.length > 1 &&
        points[0][0] === points[points.length - 1][0] &&
        points[0][1] === points[points.length - 1][1]
      )
        points.pop();
      if (points.length >= 3) rings.push([...points, points[0]]);
      else if (rings.length === 0) break;
    }
    if (rings.length > 0) out.push(rings);
  }
  return out;
}

/**
 * polygon-clipping's union, which can throw on nearly degenerate input ("Unable to find segment ... in
 * SweepLine tree"): then the shapes are added one at a time, a failing step retried in the other
 * order; null when that fails too.
 */
function safeUnion(polygons: readonly PlanarPolygon[]): PlanarMultiPolygon | null {
  try {
    return union(polygons[0], ...polygons.slice(1));
  } catch {
    let acc: PlanarMultiPolygon = [polygons[0]];
    for (const p of polygons.slice(1)) {
      try {
        acc = union(acc, p);
      } catch {
        try {
          acc = union(p, acc);
        } catch {
          return null;
        }
      }
    }
    return acc;
  }
}

function safeIntersection(a: PlanarMultiPolygon, b: PlanarMultiPolygon): PlanarMultiPolygon | null {
  try {
    return intersection(a, b);
  } catch {
    try {
      return intersection(b, a);
    } catch {
      return null;
    }
  }
}

/** The union of shapes on the sphere, or null when they do not fit one projection. */
export function unionSphere(
  shapes: readonly SphereRings[],
  lngLats?: readonly (readonly (readonly LngLat[])[])[],
): PolygonCoordinates[] | null {
  if (shapes.length === 0) return [];
  const plane = planeFor(shapes);
  if (plane === null) return null;
  const planar: PlanarPolygon[] = [];
  for (let i = 0; i < shapes.length; i++) {
    const p = toPlane(plane, shapes[i], lngLats?.[i]);
    if (p === null) return null;
    planar.push(p);
  }
  const united = safeUnion(planar);
  return united === null ? null : fromPlane(plane, united);
}

/** GeoJSON for polygons: one Polygon, a MultiPolygon, or the empty GeometryCollection for none. */
export function polygonsGeoJson(polygons: readonly PolygonCoordinates[]): unknown {
  if (polygons.length === 0) return EMPTY_COLLECTION;
  return polygons.length === 1
    ? { type: 'Polygon', coordinates: polygons[0] }
    : { type: 'MultiPolygon', coordinates: polygons };
}

const ringsOf = (polygons: readonly LngLatPolygon[]): LngLat[][][] =>
  polygons.map((p) => [p.shell, ...p.holes]);

/** geo_union_polygons_array: null unless an array of valid polygons / multipolygons. */
export function unionPolygonsArray(v: unknown): unknown {
  let value = v;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return null;
    }
  }
  if (!Array.isArray(value)) return null;
  const shapes: SphereRings[] = [];
  const lngLats: LngLat[][][] = [];
  for (const item of value) {
    const polygons = readPolygons(item);
    if (polygons === null) return null;
    shapes.push(...sphereRings(polygons));
    lngLats.push(...ringsOf(polygons));
  }
  const united = unionSphere(shapes, lngLats);
  return united === null ? null : polygonsGeoJson(united);
}

/** geo_intersection_2polygons: the common area (see the limitation above), null for invalid shapes. */
export function intersectPolygons(a: unknown, b: unknown): unknown {
  const p1 = readPolygons(a);
  const p2 = readPolygons(b);
  if (p1 === null || p2 === null) return null;
  const s1 = sphereRings(p1);
  const s2 = sphereRings(p2);
  const plane = planeFor([...s1, ...s2]);
  if (plane === null) return null;
  const l1 = ringsOf(p1);
  const l2 = ringsOf(p2);
  const planar1: PlanarPolygon[] = [];
  const planar2: PlanarPolygon[] = [];
  for (let i = 0; i < s1.length; i++) {
    const p = toPlane(plane, s1[i], l1[i]);
    if (p === null) return null;
    planar1.push(p);
  }
  for (let i = 0; i < s2.length; i++) {
    const p = toPlane(plane, s2[i], l2[i]);
    if (p === null) return null;
    planar2.push(p);
  }
  // Each side's polygons are united first (a MultiPolygon's parts may overlap).
  const u1 = safeUnion(planar1);
  const u2 = safeUnion(planar2);
  const common = u1 === null || u2 === null ? null : safeIntersection(u1, u2);
  return common === null ? null : polygonsGeoJson(fromPlane(plane, common));
}

export const GEO_BOOLEAN_FUNCTIONS: Record<string, (args: unknown[]) => unknown> = {
  geo_union_polygons_array: ([polygons]) => unionPolygonsArray(polygons),
  geo_intersection_2polygons: ([a, b]) => intersectPolygons(a, b),
};
