/**
 * Measures of polygons with geodesic edges (Kusto's geo_point_in_polygon, geo_polygon_area,
 * geo_polygon_centroid and geo_polygon_perimeter pages): each ring bounds the smaller of the two regions
 * it divides the sphere into, holes are cut from their shell, and a MultiPolygon is measured as the union
 * of its polygons.
 */
import { union, type MultiPolygon as PlanarMultiPolygon, type Pair } from 'polygon-clipping';
import type { LngLatPolygon } from './geo-geojson';
import {
  add,
  EARTH_RADIUS_M,
  gnomonicAbout,
  normalize,
  pointInPlanarRing,
  project,
  ringLength,
  ringMoment,
  ringSignedArea,
  toLngLat,
  toVec,
  unproject,
  type Gnomonic,
  type LngLat,
  type Vec3,
} from './geo-sphere';

/** A polygon on the sphere: shell counterclockwise, holes clockwise (seen from outside the sphere). */
interface SpherePolygon {
  center: Vec3;
  shell: Vec3[];
  holes: Vec3[][];
}

const ringVecs = (ring: readonly LngLat[]): Vec3[] => ring.map((p) => toVec(p[0], p[1]));

function centerOf(rings: readonly Vec3[][]): Vec3 | null {
  let sum: Vec3 = [0, 0, 0];
  for (const ring of rings) for (const v of ring) sum = add(sum, v);
  return normalize(sum);
}

/** The ring turned to the wanted orientation (the region it bounds is the smaller one, see readRing). */
function oriented(ring: Vec3[], counterclockwise: boolean): Vec3[] {
  const positive = ringSignedArea(ring) > 0;
  return positive === counterclockwise ? ring : [...ring].reverse();
}

function toSphere(p: LngLatPolygon): SpherePolygon | null {
  const shell = ringVecs(p.shell);
  const center = centerOf([shell]);
  if (center === null) return null;
  return {
    center,
    shell: oriented(shell, true),
    holes: p.holes.map((h) => oriented(ringVecs(h), false)),
  };
}

/** The planar image of rings in one projection, or null when a vertex falls outside its hemisphere. */
function projectRings(g: Gnomonic, rings: readonly Vec3[][]): Pair[][] | null {
  const out: Pair[][] = [];
  for (const ring of rings) {
    const planar: Pair[] = [];
    for (const v of ring) {
      const q = project(g, v);
      if (q === null) return null;
      planar.push(q);
    }
    out.push(planar);
  }
  return out;
}

/**
 * The polygons of a (multi)polygon with overlaps merged: several polygons are united in one gnomonic
 * projection (straight edges there are geodesics here, so the union is exact up to rounding). Polygons
 * that do not fit in one hemisphere are measured separately, as if they did not overlap.
 */
const unitedCache = new WeakMap<readonly LngLatPolygon[], SpherePolygon[] | null>();

/** unitePolygons once per polygons array (readPolygons hands out the same array for the same argument). */
function unitedPolygons(polygons: readonly LngLatPolygon[]): SpherePolygon[] | null {
  let united = unitedCache.get(polygons);
  if (united === undefined) {
    united = unitePolygons(polygons);
    unitedCache.set(polygons, united);
  }
  return united;
}

function unitePolygons(polygons: readonly LngLatPolygon[]): SpherePolygon[] | null {
  const sphere: SpherePolygon[] = [];
  for (const p of polygons) {
    const s = toSphere(p);
    if (s === null) return null;
    sphere.push(s);
  }
  if (sphere.length < 2) return sphere;
  const center = centerOf(sphere.map((s) => s.shell));
  if (center === null) return sphere;
  const g = gnomonicAbout(center);
  const planar: Pair[][][] = [];
  for (const s of sphere) {
    const rings = projectRings(g, [s.shell, ...s.holes]);
    if (rings === null) return sphere;
    planar.push(rings.map((r) => [...r, r[0]]));
  }
  const merged: PlanarMultiPolygon = union(planar[0], ...planar.slice(1));
  const out: SpherePolygon[] = [];
  for (const poly of merged) {
    // polygon-clipping closes each ring; drop the repeated vertex.
    const rings = poly.map((ring) => ring.slice(0, -1).map(([x, y]) => unproject(g, x, y)));
    const shellCenter = centerOf([rings[0]]) ?? center;
    out.push({
      center: shellCenter,
      shell: oriented(rings[0], true),
      holes: rings.slice(1).map((h) => oriented(h, false)),
    });
  }
  return out;
}

/** Area in square meters, or null for an invalid shape. */
export function polygonArea(polygons: readonly LngLatPolygon[]): number | null {
  const united = unitedPolygons(polygons);
  if (united === null) return null;
  let steradians = 0;
  for (const p of united) {
    steradians += ringSignedArea(p.shell);
    for (const h of p.holes) steradians += ringSignedArea(h);
  }
  return steradians * EARTH_RADIUS_M * EARTH_RADIUS_M;
}

/** Perimeter in meters (holes included), or null for an invalid shape. */
export function polygonPerimeter(polygons: readonly LngLatPolygon[]): number | null {
  const united = unitedPolygons(polygons);
  if (united === null) return null;
  let radians = 0;
  for (const p of united) for (const ring of [p.shell, ...p.holes]) radians += ringLength(ring);
  return radians * EARTH_RADIUS_M;
}

/** The centroid (of the area, on the sphere) as [lng, lat], or null for an invalid shape. */
export function polygonCentroid(polygons: readonly LngLatPolygon[]): LngLat | null {
  const united = unitedPolygons(polygons);
  if (united === null) return null;
  let moment: Vec3 = [0, 0, 0];
  for (const p of united) for (const ring of [p.shell, ...p.holes]) moment = add(moment, ringMoment(ring));
  const direction = normalize(moment);
  return direction === null ? null : toLngLat(direction);
}

/** A polygon ready for point tests: its projection and its rings in the plane. */
interface PreparedPolygon {
  g: Gnomonic;
  shell: Pair[];
  holes: Pair[][];
}

/** Prepared once per polygon object (readPolygons hands out the same objects for the same argument). */
const preparedPolygons = new WeakMap<LngLatPolygon, PreparedPolygon | null>();

function prepare(polygon: LngLatPolygon): PreparedPolygon | null {
  let p = preparedPolygons.get(polygon);
  if (p !== undefined) return p;
  p = null;
  const s = toSphere(polygon);
  if (s !== null) {
    const g = gnomonicAbout(s.center);
    const rings = projectRings(g, [s.shell, ...s.holes]);
    // A shell reaching past the hemisphere about its own center encloses more than half the sphere.
    if (rings !== null) p = { g, shell: rings[0], holes: rings.slice(1) };
  }
  preparedPolygons.set(polygon, p);
  return p;
}

/** Whether the point is inside the polygon (its shell and none of its holes); null for invalid shapes. */
export function polygonContains(
  polygons: readonly LngLatPolygon[],
  lng: number,
  lat: number,
): boolean | null {
  const v = toVec(lng, lat);
  let inside = false;
  for (const polygon of polygons) {
    const p = prepare(polygon);
    if (p === null) return null;
    if (inside) continue;
    const q = project(p.g, v);
    if (q === null || !pointInPlanarRing(q[0], q[1], p.shell)) continue;
    inside = !p.holes.some((h) => pointInPlanarRing(q[0], q[1], h));
  }
  return inside;
}
