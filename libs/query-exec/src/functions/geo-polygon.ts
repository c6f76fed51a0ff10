/**
 * Measures of polygons with geodesic edges (Kusto's geo_point_in_polygon, geo_polygon_area,
 * geo_polygon_centroid and geo_polygon_perimeter pages): each ring bounds the smaller of the two regions
 * it divides the sphere into, holes are cut from their shell, and a MultiPolygon is measured as the union
 * of its polygons.
 *
 * Point tests and unions run in the gnomonic projection about the shapes' center where every vertex fits
 * in its hemisphere; shapes reaching farther go to the sphere itself (geo-wide-polygons.ts: containment
 * by crossing parity, no projection) or to the faces of a cube (geo-cube.ts: unions). Keeping the
 * projection where it works keeps those answers exactly as they were; the sphere path is exact too.
 * Centroids keep the corner-weighted fan Kusto's examples come out of where it is within 6.4 m of the
 * exact first moment of the region (ringTrueMoment), and take the exact one elsewhere.
 */
import { union, type MultiPolygon as PlanarMultiPolygon, type Pair } from 'polygon-clipping';
import { cubeUnion } from './geo-cube';
import type { LngLatPolygon } from './geo-geojson';
import {
  add,
  angleBetween,
  EARTH_RADIUS_M,
  gnomonicAbout,
  norm,
  normalize,
  pointInPlanarRing,
  project,
  ringLength,
  ringMoment,
  ringTrueMoment,
  toLngLat,
  toVec,
  unproject,
  type Gnomonic,
  type LngLat,
  type Vec3,
} from './geo-sphere';
import { insideTest, prepareTest, smallSideArea, type SpherePolygonTest } from './geo-wide-polygons';

/** A polygon on the sphere: shell counterclockwise, holes clockwise (seen from outside the sphere). */
interface SpherePolygon {
  /** The mean of the shell's vertices; null when they add up to nothing (then no projection is about it). */
  center: Vec3 | null;
  shell: Vec3[];
  holes: Vec3[][];
}

const ringVecs = (ring: readonly LngLat[]): Vec3[] => ring.map((p) => toVec(p[0], p[1]));

function centerOf(rings: readonly Vec3[][]): Vec3 | null {
  let sum: Vec3 = [0, 0, 0];
  for (const ring of rings) for (const v of ring) sum = add(sum, v);
  return normalize(sum);
}

/** The ring turned to the wanted orientation (the region it bounds is the smaller one). */
function oriented(ring: Vec3[], counterclockwise: boolean): Vec3[] {
  const positive = smallSideArea(ring) > 0;
  return positive === counterclockwise ? ring : [...ring].reverse();
}

function toSphere(p: LngLatPolygon): SpherePolygon {
  const shell = ringVecs(p.shell);
  return {
    center: centerOf([shell]),
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
 * that do not fit in one hemisphere are united on the faces of a cube (geo-cube.ts); only where that fails
 * too are they measured separately, as if they did not overlap.
 */
const unitedCache = new WeakMap<readonly LngLatPolygon[], SpherePolygon[]>();

/** unitePolygons once per polygons array (readPolygons hands out the same array for the same argument). */
function unitedPolygons(polygons: readonly LngLatPolygon[]): SpherePolygon[] {
  let united = unitedCache.get(polygons);
  if (united === undefined) {
    united = unitePolygons(polygons);
    unitedCache.set(polygons, united);
  }
  return united;
}

function unitePolygons(polygons: readonly LngLatPolygon[]): SpherePolygon[] {
  const sphere = polygons.map(toSphere);
  if (sphere.length < 2) return sphere;
  const center = centerOf(sphere.map((s) => s.shell));
  if (center === null) return uniteOnCube(sphere);
  const g = gnomonicAbout(center);
  const planar: Pair[][][] = [];
  for (const s of sphere) {
    const rings = projectRings(g, [s.shell, ...s.holes]);
    if (rings === null) return uniteOnCube(sphere);
    planar.push(rings.map((r) => [...r, r[0]]));
  }
  let merged: PlanarMultiPolygon;
  try {
    merged = union(planar[0], ...planar.slice(1));
  } catch {
    // polygon-clipping can fail on nearly degenerate input; the cube's faces project it differently.
    return uniteOnCube(sphere);
  }
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

/** The union of polygons too wide for one projection, face by face on a cube; unmerged if that fails. */
function uniteOnCube(sphere: SpherePolygon[]): SpherePolygon[] {
  const united = cubeUnion(sphere.map((s) => ({ rings: [s.shell, ...s.holes] })));
  if (united === null) return sphere;
  // GeoJSON rings from the cube: closed, so the repeated vertex is dropped.
  return united.map((rings) =>
    toSphere({ shell: rings[0].slice(0, -1), holes: rings.slice(1).map((h) => h.slice(0, -1)) }),
  );
}

/** Area in square meters, or null for an invalid shape. */
export function polygonArea(polygons: readonly LngLatPolygon[]): number | null {
  const united = unitedPolygons(polygons);
  let steradians = 0;
  for (const p of united) {
    steradians += smallSideArea(p.shell);
    for (const h of p.holes) steradians += smallSideArea(h);
  }
  return steradians * EARTH_RADIUS_M * EARTH_RADIUS_M;
}

/** Perimeter in meters (holes included), or null for an invalid shape. */
export function polygonPerimeter(polygons: readonly LngLatPolygon[]): number | null {
  const united = unitedPolygons(polygons);
  let radians = 0;
  for (const p of united) for (const ring of [p.shell, ...p.holes]) radians += ringLength(ring);
  return radians * EARTH_RADIUS_M;
}

/**
 * How far (radians; 6.4 m on Kusto's sphere) the corner-weighted fan of ringMoment may stray from the
 * exact centroid and still be the answer. Its error grows as the cube of a shell's size: about 1.5e-10
 * (a millimetre) on Kusto's examples, 5e-7 on shells 1° across their center, 5e-5 at 5°, 0.025° (2.8 km)
 * on a cap 10° in radius, 53° on one of 80° (measured), so this keeps Kusto's arithmetic, bit for bit, for
 * every shell up to about a degree from its center and the exact centroid beyond.
 */
const FAN_CENTROID_TOLERANCE = 1e-6;

/**
 * Below this total |moment| (steradians, about 40 cm² on Kusto's sphere) the fan is kept without
 * comparing: its error there is nothing, while ringTrueMoment's, which works with the rings' sag below
 * their chords (their size squared), is about 2e-16 / size and would reach the tolerance under a millimetre.
 */
const TINY_MOMENT = 1e-16;

/** Whether the rings fit in the gnomonic projection about the mean of the shells' vertices. */
function fitsOneProjection(shells: readonly Vec3[][], rings: readonly Vec3[][]): boolean {
  const center = centerOf(shells);
  return center !== null && projectRings(gnomonicAbout(center), rings) !== null;
}

/** The direction of the rings' summed exact moments; null when they add up to nothing. */
function trueDirection(rings: readonly Vec3[][]): Vec3 | null {
  let moment: Vec3 = [0, 0, 0];
  for (const ring of rings) moment = add(moment, ringTrueMoment(ring));
  return normalize(moment);
}

/** The direction of the rings' summed fans where it is within FAN_CENTROID_TOLERANCE of the exact one. */
function fanOrTrueDirection(rings: readonly Vec3[][]): Vec3 | null {
  let moment: Vec3 = [0, 0, 0];
  let gross = 0;
  for (const ring of rings) {
    const m = ringMoment(ring);
    moment = add(moment, m);
    gross += norm(m);
  }
  const fan = normalize(moment);
  if (fan === null || gross < TINY_MOMENT) return fan;
  const exact = trueDirection(rings);
  return exact === null || angleBetween(fan, exact) <= FAN_CENTROID_TOLERANCE ? fan : exact;
}

/**
 * The centroid (of the area, on the sphere) as [lng, lat], or null for an invalid shape.
 *
 * Kusto's examples come out of a fan of triangles from each ring's first vertex, each weighing its
 * corners' mean by its area (ringMoment), a fair approximation only for shells well within a hemisphere
 * (the fan's triangles grow with the shell). So that stays the answer where it is within
 * FAN_CENTROID_TOLERANCE of the exact centroid (ringTrueMoment: the first moment of the region, right for
 * rings of any extent), and the exact centroid is the answer elsewhere: for the shapes no one projection
 * holds (those geo_point_in_polygon and geo_polygon_area measure on the sphere: a vertex 90° or more from
 * the mean of the shells' vertices, or vertices adding up to nothing; MultiPolygons that wide) and for
 * shells the fan strays farther on. All the rings of a shape are measured the same way, so shells and
 * holes subtract consistently.
 */
export function polygonCentroid(polygons: readonly LngLatPolygon[]): LngLat | null {
  const united = unitedPolygons(polygons);
  const shells = united.map((p) => p.shell);
  const rings = united.flatMap((p) => [p.shell, ...p.holes]);
  const direction = fitsOneProjection(shells, rings) ? fanOrTrueDirection(rings) : trueDirection(rings);
  return direction === null ? null : toLngLat(direction);
}

/**
 * A polygon ready for point tests: its projection and its rings in the plane, or (when a vertex is 90° or
 * more from the shell's center, or the shell's vertices add up to nothing) its test on the sphere.
 */
type PreparedPolygon = { g: Gnomonic; shell: Pair[]; holes: Pair[][] } | { sphere: SpherePolygonTest };

/** Prepared once per polygon object (readPolygons hands out the same objects for the same argument). */
const preparedPolygons = new WeakMap<LngLatPolygon, PreparedPolygon | null>();

function prepare(polygon: LngLatPolygon): PreparedPolygon | null {
  let p = preparedPolygons.get(polygon);
  if (p !== undefined) return p;
  const s = toSphere(polygon);
  const g = s.center === null ? null : gnomonicAbout(s.center);
  const rings = g === null ? null : projectRings(g, [s.shell, ...s.holes]);
  if (g !== null && rings !== null) p = { g, shell: rings[0], holes: rings.slice(1) };
  else {
    const sphere = prepareTest([s.shell, ...s.holes]);
    p = sphere === null ? null : { sphere };
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
    if ('sphere' in p) {
      inside = insideTest(p.sphere, v);
      continue;
    }
    const q = project(p.g, v);
    if (q === null || !pointInPlanarRing(q[0], q[1], p.shell)) continue;
    inside = !p.holes.some((h) => pointInPlanarRing(q[0], q[1], h));
  }
  return inside;
}
