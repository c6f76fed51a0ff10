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
 * polygon-clipping answers only areas; where the boundaries of two polygons also touch outside their
 * common area (a shared vertex or edge), those points and stretches are found as line intersections of
 * the rings and returned beside it, as Kusto's page shows.
 */
import {
  intersection,
  union,
  type MultiPolygon as PlanarMultiPolygon,
  type Pair,
  type Polygon as PlanarPolygon,
} from 'polygon-clipping';
import { cubeIntersection, cubeUnion } from './geo-cube';
import { dynamicArgument, readPolygons, type LngLatPolygon } from './geo-geojson';
import { readLineShape } from './geo-lines';
import {
  add,
  angleBetween,
  gnomonicAbout,
  normalize,
  pointInPlanarRing,
  project,
  toLngLat,
  toVec,
  unproject,
  type Gnomonic,
  type LngLat,
  type Vec3,
} from './geo-sphere';
import { EMPTY_COLLECTION, linesGeoJson, unionLinesArray } from './geo-union-lines';

/** A polygon on the sphere: its shell, then its holes (any orientation), without closing vertices. */
export type SphereRings = Vec3[][];

/** A polygon as GeoJSON coordinates: closed rings of [lng, lat]. */
export type PolygonCoordinates = [number, number][][];

/** Vertices farther than this from the projection center (cosine of ~84°) are refused. */
const MIN_COS_FROM_CENTER = 0.1;

const GRID = 2 ** 48;
const snap = (x: number): number => Math.round(x * GRID) / GRID;

/** The rings of parsed GeoJSON polygons as unit vectors. */
export function sphereRings(polygons: readonly LngLatPolygon[]): SphereRings[] {
  return polygons.map((p) => [p.shell, ...p.holes].map((ring) => ring.map((q) => toVec(q[0], q[1]))));
}

/** The projection used for a set of shapes, with the map back to exact input coordinates. */
export interface Plane {
  g: Gnomonic;
  original: Map<string, LngLat>;
}

export function planeFor(shapes: readonly SphereRings[]): Plane | null {
  let sum: Vec3 = [0, 0, 0];
  for (const shape of shapes) for (const ring of shape) for (const v of ring) sum = add(sum, v);
  const center = normalize(sum);
  return center === null ? null : { g: gnomonicAbout(center), original: new Map() };
}

/** A shape's planar image (closed rings), or null when a vertex is too far from the projection center. */
export function toPlane(
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
  const cube = (): PolygonCoordinates[] | null =>
    cubeUnion(shapes.map((rings, i) => ({ rings, lngLats: lngLats?.[i] })));
  const plane = planeFor(shapes);
  if (plane === null) return cube();
  const planar: PlanarPolygon[] = [];
  for (let i = 0; i < shapes.length; i++) {
    const p = toPlane(plane, shapes[i], lngLats?.[i]);
    // Too far from one center for one projection: face by face on the cube (geo-cube.ts).
    if (p === null) return cube();
    planar.push(p);
  }
  const united = safeUnion(planar);
  // polygon-clipping can fail on nearly degenerate input (vertices 1e-13° apart): the faces, projected
  // and snapped apart from each other, may still work.
  return united === null ? cube() : fromPlane(plane, united);
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
  const value = dynamicArgument(v);
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
  const l1 = ringsOf(p1);
  const l2 = ringsOf(p2);
  // Too far from one center for one projection: the common area face by face on the cube (geo-cube.ts).
  const cube = (): unknown => {
    const points: [number, number][] = [];
    const pieces: [number, number][][] = [];
    let failed = false;
    const areas = cubeIntersection(
      s1.map((rings, i) => ({ rings, lngLats: l1[i] })),
      s2.map((rings, i) => ({ rings, lngLats: l2[i] })),
      (view, common) => {
        // The touching points and stretches of the rings' parts in this face, in its plane.
        const face: Plane = { g: view.g, original: new Map() };
        const inFace = (rings: readonly LngLat[][]): PlanarLine[] => {
          const out: PlanarLine[] = [];
          for (const ring of rings)
            for (const piece of view.clipLine([...ring, ring[0]])) {
              const line = projectLine(face, piece);
              if (line === null) failed = true;
              else out.push(line);
            }
          return out;
        };
        const touch = touchingOutside(face, inFace(l1.flat()), inFace(l2.flat()), common);
        points.push(...touch.points);
        pieces.push(...touch.lines);
      },
    );
    if (areas === null || failed) return null;
    // A stretch across a face boundary comes in one piece per face: joined here where they meet.
    const inputVertices = new Set([...l1, ...l2].flat(2).map((p) => `${p[0]},${p[1]}`));
    const lines = joinPieces(pieces, inputVertices);
    // A point on a face boundary is found in both faces (in two planes: equal to about 1e-15).
    const near = (p: readonly [number, number], q: readonly [number, number]): boolean =>
      angleBetween(toVec(p[0], p[1]), toVec(q[0], q[1])) < 1e-12;
    const isolated: [number, number][] = [];
    for (const p of points)
      if (!isolated.some((q) => near(p, q)) && !lines.some((l) => l.some((q) => near(p, q))))
        isolated.push(p);
    return intersectionGeoJson(isolated, lines, areas);
  };
  const plane = planeFor([...s1, ...s2]);
  if (plane === null) return cube();
  const planar1: PlanarPolygon[] = [];
  const planar2: PlanarPolygon[] = [];
  for (let i = 0; i < s1.length; i++) {
    const p = toPlane(plane, s1[i], l1[i]);
    if (p === null) return cube();
    planar1.push(p);
  }
  for (let i = 0; i < s2.length; i++) {
    const p = toPlane(plane, s2[i], l2[i]);
    if (p === null) return cube();
    planar2.push(p);
  }
  // Each side's polygons are united first (a MultiPolygon's parts may overlap).
  const u1 = safeUnion(planar1);
  const u2 = safeUnion(planar2);
  const common = u1 === null || u2 === null ? null : safeIntersection(u1, u2);
  if (common === null) return cube();
  // Where the boundaries also touch outside the common area: points and shared edges, as Kusto's page
  // shows (polygons meeting in a vertex intersect in that Point).
  const boundary = (rings: readonly LngLat[][]): PlanarLine[] | null => {
    const out: PlanarLine[] = [];
    for (const ring of rings) {
      const line = projectLine(plane, [...ring, ring[0]]);
      if (line === null) return null;
      out.push(line);
    }
    return out;
  };
  const b1 = boundary(l1.flat());
  const b2 = boundary(l2.flat());
  if (b1 === null || b2 === null) return null;
  const { points, lines } = touchingOutside(plane, b1, b2, common);
  return intersectionGeoJson(points, lines, fromPlane(plane, common));
}

/** Points, then lines, then areas: one of them alone, a GeometryCollection of several, or the empty one. */
function intersectionGeoJson(
  points: readonly [number, number][],
  lines: readonly [number, number][][],
  areas: readonly PolygonCoordinates[],
): unknown {
  const parts: unknown[] = [];
  if (points.length > 0) parts.push(pointsGeoJson(points));
  if (lines.length > 0) parts.push(linesGeoJson(lines));
  if (areas.length > 0) parts.push(polygonsGeoJson(areas));
  if (parts.length === 0) return EMPTY_COLLECTION;
  return parts.length === 1 ? parts[0] : { type: 'GeometryCollection', geometries: parts };
}

/**
 * Where two polygons' boundaries (b1, b2: projected rings) touch outside their common area (`common`, in
 * the same plane): isolated points and shared stretches, as Kusto's page shows them beside the area.
 */
function touchingOutside(
  plane: Plane,
  b1: readonly PlanarLine[],
  b2: readonly PlanarLine[],
  common: PlanarMultiPolygon,
): { points: [number, number][]; lines: [number, number][][] } {
  const touch = contacts(plane, b1, b2);
  const coveredVec = (v: Vec3): boolean => {
    const q = project(plane.g, v);
    if (q === null) return false;
    return common.some(
      (poly) =>
        (pointInPlanarRing(q[0], q[1], poly[0].slice(0, -1)) &&
          !poly.slice(1).some((h) => pointInPlanarRing(q[0], q[1], h.slice(0, -1)))) ||
        poly.some((ring) => ring.some((v, i) => i + 1 < ring.length && nearSegment(q, v, ring[i + 1]))),
    );
  };
  const covered = (p: readonly [number, number]): boolean => coveredVec(toVec(p[0], p[1]));
  // A stretch is covered when the middle of each of its edges is (the geodesic midpoint).
  const middleCovered = (p: readonly [number, number], q: readonly [number, number]): boolean => {
    const m = normalize(add(toVec(p[0], p[1]), toVec(q[0], q[1])));
    return m !== null && coveredVec(m);
  };
  return {
    points: touch.isolated.filter((p) => !covered(p)),
    lines: touch.lines.filter((l) => !l.every((p, i) => i === 0 || middleCovered(l[i - 1], p))),
  };
}

/** Whether q lies on the segment a–b (within about 1e-12 of the plane's unit). */
function nearSegment(q: Pair, a: Pair, b: Pair): boolean {
  const rx = b[0] - a[0];
  const ry = b[1] - a[1];
  const len2 = rx * rx + ry * ry;
  if (!(len2 > 0)) return Math.hypot(q[0] - a[0], q[1] - a[1]) < 1e-12;
  const t = Math.max(0, Math.min(1, ((q[0] - a[0]) * rx + (q[1] - a[1]) * ry) / len2));
  return Math.hypot(q[0] - a[0] - t * rx, q[1] - a[1] - t * ry) < 1e-12;
}

// ---- Lines: intersections with lines and with polygons, in the same gnomonic plane ----

/** A projected line: planar vertices with their input [lng, lat]. */
interface PlanarLine {
  xy: Pair[];
  lngLat: LngLat[];
}

/** Relative tolerance for parameters along a planar segment. */
const EPS = 1e-12;

function projectLine(plane: Plane, line: readonly LngLat[]): PlanarLine | null {
  const xy: Pair[] = [];
  for (const p of line) {
    const v = toVec(p[0], p[1]);
    const q = project(plane.g, v);
    if (q === null || dot3(v, plane.g.c) < MIN_COS_FROM_CENTER) return null;
    xy.push(q);
  }
  return { xy, lngLat: [...line] };
}

const dot3 = (a: Vec3, b: Vec3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const crossZ = (ax: number, ay: number, bx: number, by: number): number => ax * by - ay * bx;

/** The [lng, lat] of the point at parameter t of edge i (an end comes back as given). */
function pointAt(plane: Plane, line: PlanarLine, i: number, t: number): [number, number] {
  if (t <= EPS) return [line.lngLat[i][0], line.lngLat[i][1]];
  if (t >= 1 - EPS) return [line.lngLat[i + 1][0], line.lngLat[i + 1][1]];
  const [ax, ay] = line.xy[i];
  const [bx, by] = line.xy[i + 1];
  const p = toLngLat(unproject(plane.g, ax + t * (bx - ax), ay + t * (by - ay)));
  return [p[0], p[1]];
}

/** The parameter of p along a–b when p lies on that segment (within ~1e-14 of the plane), else null. */
function paramOn(p: Pair, a: Pair, b: Pair): number | null {
  const rx = b[0] - a[0];
  const ry = b[1] - a[1];
  const len = Math.hypot(rx, ry);
  if (len === 0) return null;
  const px = p[0] - a[0];
  const py = p[1] - a[1];
  if (Math.abs(crossZ(px, py, rx, ry)) > 1e-14 * len) return null;
  const t = (px * rx + py * ry) / (len * len);
  return t >= -EPS && t <= 1 + EPS ? Math.min(1, Math.max(0, t)) : null;
}

/** Parameters along a–b where it meets c–d (one for a crossing or touch, two for a collinear overlap). */
export function meetParams(
  a: Pair,
  b: Pair,
  c: Pair,
  d: Pair,
): { t: number[]; u: number[]; overlap: boolean } {
  const rx = b[0] - a[0];
  const ry = b[1] - a[1];
  // A repeated position (or one so close that the squared length underflows) is no edge.
  if (!(rx * rx + ry * ry > 0)) return { t: [], u: [], overlap: false };
  const sx = d[0] - c[0];
  const sy = d[1] - c[1];
  const denom = crossZ(rx, ry, sx, sy);
  const scale = Math.hypot(rx, ry) * Math.hypot(sx, sy);
  const qx = c[0] - a[0];
  const qy = c[1] - a[1];
  if (Math.abs(denom) > EPS * scale) {
    // An end lying on the other edge is the meeting point itself: for nearly parallel edges the
    // crossing computed below is ill-conditioned.
    const onAb = paramOn(c, a, b);
    if (onAb !== null) return { t: [onAb], u: [0], overlap: false };
    const dOnAb = paramOn(d, a, b);
    if (dOnAb !== null) return { t: [dOnAb], u: [1], overlap: false };
    const aOnCd = paramOn(a, c, d);
    if (aOnCd !== null) return { t: [0], u: [aOnCd], overlap: false };
    const bOnCd = paramOn(b, c, d);
    if (bOnCd !== null) return { t: [1], u: [bOnCd], overlap: false };
    const t = crossZ(qx, qy, sx, sy) / denom;
    const u = crossZ(qx, qy, rx, ry) / denom;
    if (t >= -EPS && t <= 1 + EPS && u >= -EPS && u <= 1 + EPS)
      return { t: [Math.min(1, Math.max(0, t))], u: [Math.min(1, Math.max(0, u))], overlap: false };
    return { t: [], u: [], overlap: false };
  }
  // Parallel: collinear when c lies on a–b's line.
  const len2 = rx * rx + ry * ry;
  if (Math.abs(crossZ(qx, qy, rx, ry)) > EPS * Math.max(scale, len2)) return { t: [], u: [], overlap: false };
  const tc = (qx * rx + qy * ry) / len2;
  const td = ((d[0] - a[0]) * rx + (d[1] - a[1]) * ry) / len2;
  const lo = Math.max(0, Math.min(tc, td));
  const hi = Math.min(1, Math.max(tc, td));
  if (hi < lo - EPS) return { t: [], u: [], overlap: false };
  return { t: hi - lo > EPS ? [lo, hi] : [lo], u: [], overlap: hi - lo > EPS };
}

/** Pieces (as [lng, lat] pairs) joined into chains where one ends where the next starts. */
function chainPieces(pieces: readonly [number, number][][]): [number, number][][] {
  const out: [number, number][][] = [];
  for (const piece of pieces) {
    const last = out[out.length - 1];
    const end = last?.[last.length - 1];
    if (end !== undefined && end[0] === piece[0][0] && end[1] === piece[0][1]) last.push(...piece.slice(1));
    else out.push([...piece]);
  }
  return out;
}

/**
 * Pieces joined end to start wherever one ends where another starts (in any order). The joining point is
 * dropped unless `keep` holds it: pieces cut at a face boundary meet on the input edge they both lie on.
 */
function joinPieces(
  pieces: readonly [number, number][][],
  keep: Pick<ReadonlySet<string>, 'has'>,
): [number, number][][] {
  const key = (p: readonly [number, number]): string => `${p[0]},${p[1]}`;
  const lines = pieces.map((p) => [...p]);
  for (let merged = true; merged;) {
    merged = false;
    for (let i = 0; i < lines.length && !merged; i++)
      for (let j = 0; j < lines.length && !merged; j++) {
        if (i === j) continue;
        const a = lines[i];
        const b = lines[j];
        if (key(a[a.length - 1]) === key(b[0])) {
          if (!keep.has(key(b[0])) && a.length > 1 && b.length > 1) a.pop();
          a.push(...b.slice(1));
          lines.splice(j, 1);
          merged = true;
        }
      }
  }
  return lines;
}

const pointsGeoJson = (points: readonly [number, number][]): unknown =>
  points.length === 1
    ? { type: 'Point', coordinates: points[0] }
    : { type: 'MultiPoint', coordinates: points };

function lineVecs(lines: readonly (readonly LngLat[])[]): SphereRings[] {
  return lines.map((l) => [l.map((p) => toVec(p[0], p[1]))]);
}

/** A cut of a line edge: its parameter, whether a ring meets it there, and the ring vertex it is at. */
interface Cut {
  t: number;
  contact: boolean;
  at?: LngLat;
}

/** Planar points equal within about 1e-12 of the plane's unit (a ring vertex met by a line). */
const samePoint = (p: Pair, q: Pair): boolean => Math.hypot(p[0] - q[0], p[1] - q[1]) < 1e-12;

/**
 * geo_intersection_line_with_polygon: the line's points in the closed (multi)polygon (Kusto's page: "Polygon
 * contains its vertices"), so its boundary counts. Stretches inside or along a ring edge come as a
 * LineString or MultiLineString (a stretch along an edge that continues inside is one line); points where
 * the line only touches the boundary (a vertex on an edge, a crossing at a polygon vertex from outside to
 * outside) as a Point or MultiPoint; both: a GeometryCollection of the points, then the lines, in the
 * order geo_intersection_2polygons uses for its page's mixed example; nothing: the empty
 * GeometryCollection. Each edge is cut where it meets a ring edge and a piece is kept when its middle is
 * inside or on a ring edge.
 */
export function intersectLineWithPolygon(lineArg: unknown, polygonArg: unknown): unknown {
  const shape = readLineShape(lineArg);
  const polygons = readPolygons(polygonArg);
  if (shape === null || polygons === null) return null;
  const ringLngLats = ringsOf(polygons);
  const plane = planeFor([...lineVecs(shape.lines), ...sphereRings(polygons)]);
  const fits = (): PlanarLine[][][] | null => {
    if (plane === null) return null;
    // Projected like the line (not snapped to toPlane's grid), so a line along a ring edge is collinear
    // with it in the plane too.
    const out: PlanarLine[][][] = [];
    for (const rings of ringLngLats) {
      const planar: PlanarLine[][] = [];
      for (const ring of rings) {
        const p = projectLine(plane, [...ring, ring[0]]);
        if (p === null) return null;
        planar.push([p]);
      }
      out.push(planar);
    }
    for (const l of shape.lines) if (projectLine(plane, l) === null) return null;
    return out;
  };
  const planarPolygons = fits();
  if (plane === null || planarPolygons === null) return lineWithPolygonOnCube(shape.lines, polygons);
  const inside = (x: number, y: number): boolean =>
    planarPolygons.some(
      (rings) =>
        pointInPlanarRing(x, y, rings[0][0].xy.slice(0, -1)) &&
        !rings.slice(1).some((h) => pointInPlanarRing(x, y, h[0].xy.slice(0, -1))),
    );
  const lines = shape.lines.map((l) => projectLine(plane, l) as PlanarLine);
  const { pieces, touches } = cutLines(plane, lines, planarPolygons.flat(2), inside);
  return lineResult(chainPieces(pieces), pieces, touches, nearPoint);
}

/**
 * Two answers' points closer than 1e-12 rad (6 µm) are one: a point on a cube face boundary is found in both
 * faces, and a ring vertex that the line passes within ~1e-14 of counts as a contact while the crossing of
 * the next edge, a few ulps away, ends the piece inside.
 */
const nearPoint = (p: readonly [number, number], q: readonly [number, number]): boolean =>
  angleBetween(toVec(p[0], p[1]), toVec(q[0], q[1])) < 1e-12;

/** Points, then lines: one kind alone, a GeometryCollection of both, or the empty one. */
function lineResult(
  lines: [number, number][][],
  pieces: readonly [number, number][][],
  touches: readonly [number, number][],
  same: (p: readonly [number, number], q: readonly [number, number]) => boolean,
): unknown {
  // A contact point at the end of a kept piece is part of the lines; the others are points of their own.
  const points: [number, number][] = [];
  for (const p of touches)
    if (!points.some((q) => same(p, q)) && !pieces.some((l) => l.some((q) => same(p, q)))) points.push(p);
  if (lines.length === 0 && points.length === 0) return EMPTY_COLLECTION;
  if (points.length === 0) return linesGeoJson(lines);
  if (lines.length === 0) return pointsGeoJson(points);
  return { type: 'GeometryCollection', geometries: [pointsGeoJson(points), linesGeoJson(lines)] };
}

/**
 * The line's pieces in the closed polygon and its touching points, in one plane: each line edge is cut
 * where it meets a ring edge (`edges`: the rings, or their parts in a cube face, as polylines), and a piece
 * is kept when its middle is inside or on a ring edge.
 */
function cutLines(
  plane: Plane,
  lines: readonly PlanarLine[],
  edges: readonly PlanarLine[],
  inside: (x: number, y: number) => boolean,
): { pieces: [number, number][][]; touches: [number, number][] } {
  const pieces: [number, number][][] = [];
  const touches: [number, number][] = [];
  for (const line of lines) {
    for (let i = 0; i + 1 < line.xy.length; i++) {
      const a = line.xy[i];
      const b = line.xy[i + 1];
      // Cut parameters (from ring edges: boundary contacts) and stretches along ring edges.
      // A cut at a ring vertex remembers that vertex, so it comes back with its input coordinates.
      const cuts: Cut[] = [
        { t: 0, contact: false },
        { t: 1, contact: false },
      ];
      const along: [number, number][] = [];
      for (const edge of edges) {
        const given = edge.lngLat;
        for (let k = 0; k + 1 < edge.xy.length; k++) {
          const c = edge.xy[k];
          const d = edge.xy[k + 1];
          const m = meetParams(a, b, c, d);
          if (m.overlap) {
            along.push([m.t[0], m.t[1]]);
            for (const t of m.t) {
              const q: Pair = [a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])];
              const at = samePoint(q, c) ? given[k] : samePoint(q, d) ? given[k + 1] : undefined;
              cuts.push({ t, contact: true, at });
            }
          } else if (m.t.length === 1) {
            const u = m.u[0];
            const at =
              u === undefined ? undefined : u <= EPS ? given[k] : u >= 1 - EPS ? given[k + 1] : undefined;
            cuts.push({ t: m.t[0], contact: true, at });
          }
        }
      }
      cuts.sort((x, y) => x.t - y.t);
      // Parameters within EPS of each other are one point (a ring vertex meets two ring edges).
      const merged: Cut[] = [];
      for (const c of cuts) {
        const last = merged[merged.length - 1];
        if (last !== undefined && c.t - last.t <= EPS) {
          last.contact ||= c.contact;
          last.at ??= c.at;
        } else merged.push({ ...c });
      }
      // The line's own vertices come back as given; other cuts at a ring vertex as that vertex.
      const at = (c: Cut): [number, number] =>
        c.t > EPS && c.t < 1 - EPS && c.at !== undefined ? [c.at[0], c.at[1]] : pointAt(plane, line, i, c.t);
      for (const c of merged) if (c.contact) touches.push(at(c));
      for (let k = 0; k + 1 < merged.length; k++) {
        const t0 = merged[k].t;
        const t1 = merged[k + 1].t;
        const tm = (t0 + t1) / 2;
        const onEdge = along.some(([lo, hi]) => tm >= lo && tm <= hi);
        if (onEdge || inside(a[0] + tm * (b[0] - a[0]), a[1] + tm * (b[1] - a[1])))
          pieces.push([at(merged[k]), at(merged[k + 1])]);
      }
    }
  }
  return { pieces, touches };
}

/**
 * geo_intersection_line_with_polygon for shapes too wide for one projection: face by face on the cube
 * (geo-cube.ts). In each face the polygon is its planar region there, and the line and the rings are cut
 * to the face; pieces that meet at a face boundary are joined again.
 */
export function lineWithPolygonOnCube(
  lines: readonly LngLat[][],
  polygons: readonly LngLatPolygon[],
): unknown {
  const pieces: [number, number][][] = [];
  const touches: [number, number][] = [];
  let failed = false;
  const rings = ringsOf(polygons);
  const areas = cubeUnion(
    sphereRings(polygons).map((r, i) => ({ rings: r, lngLats: rings[i] })),
    (view, region) => {
      const face: Plane = { g: view.g, original: new Map() };
      const project = (line: readonly LngLat[]): PlanarLine[] => {
        const out: PlanarLine[] = [];
        for (const piece of view.clipLine(line)) {
          const p = projectLine(face, piece);
          if (p === null) failed = true;
          else out.push(p);
        }
        return out;
      };
      const inside = (x: number, y: number): boolean =>
        region.some(
          (poly) =>
            pointInPlanarRing(x, y, poly[0].slice(0, -1)) &&
            !poly.slice(1).some((h) => pointInPlanarRing(x, y, h.slice(0, -1))),
        );
      const edges = rings.flat().flatMap((ring) => project([...ring, ring[0]]));
      const cut = cutLines(face, lines.flatMap(project), edges, inside);
      pieces.push(...cut.pieces);
      touches.push(...cut.touches);
    },
  );
  if (areas === null || failed) return null;
  const inputVertices = new Set([...lines.flat(), ...rings.flat(2)].map((p) => `${p[0]},${p[1]}`));
  return lineResult(joinPieces(pieces, inputVertices), pieces, touches, nearPoint);
}

/** Where two sets of projected lines meet: isolated points and shared stretches (joined into lines). */
function contacts(
  plane: Plane,
  l1: readonly PlanarLine[],
  l2: readonly PlanarLine[],
): { isolated: [number, number][]; lines: [number, number][][] } {
  const points: [number, number][] = [];
  const segments: [number, number][][] = [];
  for (const a of l1)
    for (let i = 0; i + 1 < a.xy.length; i++)
      for (const b of l2)
        for (let j = 0; j + 1 < b.xy.length; j++) {
          const m = meetParams(a.xy[i], a.xy[i + 1], b.xy[j], b.xy[j + 1]);
          if (m.overlap) {
            // An end of the shared stretch at a vertex of the second line comes back as given.
            const end = (t: number): [number, number] => {
              const p = a.xy[i];
              const q = a.xy[i + 1];
              const xy: Pair = [p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])];
              if (t > EPS && t < 1 - EPS)
                for (const k of [j, j + 1])
                  if (samePoint(xy, b.xy[k])) return [b.lngLat[k][0], b.lngLat[k][1]];
              return pointAt(plane, a, i, t);
            };
            segments.push([end(m.t[0]), end(m.t[1])]);
          } else if (m.t.length === 1) {
            // A vertex of the second line comes back as given, too.
            const u = m.u[0];
            const onB = u !== undefined && (u <= EPS || u >= 1 - EPS);
            points.push(onB ? pointAt(plane, b, j, u) : pointAt(plane, a, i, m.t[0]));
          }
        }
  // Stretches joined wherever one ends where another starts, in whatever order the edges found them.
  const lines = joinPieces(segments, { has: () => true });
  const onLines = new Set(lines.flatMap((l) => l.map((p) => `${p[0]},${p[1]}`)));
  const seen = new Set<string>();
  const isolated = points.filter((p) => {
    const key = `${p[0]},${p[1]}`;
    if (seen.has(key) || onLines.has(key)) return false;
    seen.add(key);
    return true;
  });
  return { isolated, lines };
}

/**
 * geo_intersection_2lines: crossing points and shared stretches. Points only: a Point or MultiPoint;
 * stretches only: a LineString or MultiLineString; both: a GeometryCollection of the two; nothing: the
 * empty GeometryCollection.
 */
export function intersectLines(aArg: unknown, bArg: unknown): unknown {
  const s1 = readLineShape(aArg);
  const s2 = readLineShape(bArg);
  if (s1 === null || s2 === null) return null;
  const plane = planeFor([...lineVecs(s1.lines), ...lineVecs(s2.lines)]);
  if (plane === null) return linesOnCube(s1.lines, s2.lines);
  const l1: PlanarLine[] = [];
  const l2: PlanarLine[] = [];
  for (const l of s1.lines) {
    const p = projectLine(plane, l);
    // Too wide for one projection: face by face on the cube.
    if (p === null) return linesOnCube(s1.lines, s2.lines);
    l1.push(p);
  }
  for (const l of s2.lines) {
    const p = projectLine(plane, l);
    if (p === null) return linesOnCube(s1.lines, s2.lines);
    l2.push(p);
  }
  const { isolated, lines } = contacts(plane, l1, l2);
  if (lines.length === 0 && isolated.length === 0) return EMPTY_COLLECTION;
  if (lines.length === 0) return pointsGeoJson(isolated);
  if (isolated.length === 0) return linesGeoJson(lines);
  return { type: 'GeometryCollection', geometries: [pointsGeoJson(isolated), linesGeoJson(lines)] };
}

/**
 * geo_intersection_2lines for lines too wide for one projection: each face of the cube (geo-cube.ts) finds
 * the crossings and shared stretches of the lines' parts inside it; stretches cut at a face boundary are
 * joined again and points found in two faces kept once.
 */
function linesOnCube(a: readonly LngLat[][], b: readonly LngLat[][]): unknown {
  const pieces: [number, number][][] = [];
  const touches: [number, number][] = [];
  let failed = false;
  const done = cubeUnion([], (view) => {
    const face: Plane = { g: view.g, original: new Map() };
    const inFace = (lines: readonly LngLat[][]): PlanarLine[] => {
      const out: PlanarLine[] = [];
      for (const line of lines)
        for (const piece of view.clipLine(line)) {
          const p = projectLine(face, piece);
          if (p === null) failed = true;
          else out.push(p);
        }
      return out;
    };
    const found = contacts(face, inFace(a), inFace(b));
    pieces.push(...found.lines);
    touches.push(...found.isolated);
  });
  if (done === null || failed) return null;
  const inputVertices = new Set([...a, ...b].flat().map((p) => `${p[0]},${p[1]}`));
  const near = (p: readonly [number, number], q: readonly [number, number]): boolean =>
    angleBetween(toVec(p[0], p[1]), toVec(q[0], q[1])) < 1e-12;
  return lineResult(joinPieces(pieces, inputVertices), pieces, touches, near);
}

export const GEO_BOOLEAN_FUNCTIONS: Record<string, (args: unknown[]) => unknown> = {
  geo_union_polygons_array: ([polygons]) => unionPolygonsArray(polygons),
  geo_intersection_2polygons: ([a, b]) => intersectPolygons(a, b),
  geo_intersection_2lines: ([a, b]) => intersectLines(a, b),
  geo_union_lines_array: ([lines]) => unionLinesArray(lines),
  geo_intersection_line_with_polygon: ([line, polygon]) => intersectLineWithPolygon(line, polygon),
};
