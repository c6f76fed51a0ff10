/**
 * Union and intersection of polygons too large for one gnomonic projection (geo-boolean.ts uses one plane
 * about the shapes' center while every vertex is within about 84° of it).
 *
 * The sphere is split along the six faces of a cube. A face is the intersection of four hemispheres whose
 * great-circle boundaries pass through the cube's edges, and the gnomonic projection about the face center
 * maps it to the square [-1, 1]², with geodesics as straight lines. Each polygon is clipped to a face on the
 * sphere (Sutherland–Hodgman against the four great circles: a hemisphere is convex for arcs under 180°),
 * projected, and the planar operation (polygon-clipping) runs per face. The faces' results are joined on the
 * sphere: their edges along face boundaries come in opposite pairs wherever the result lies on both sides
 * and cancel; the remaining edges are linked into rings, and the vertices the clipping added where a ring
 * crosses a face boundary are dropped again (they lie on the input edge between their neighbours), so a
 * result crossing face boundaries is one polygon with the input's vertices.
 *
 * Which side of a clipped ring is inside cannot be read from the clipped ring alone (the ring left the face's
 * hemisphere), so the planar region of a polygon in a face is built from its rings by parity and then checked
 * at one test point against the polygon on the sphere (the smaller side of its shell, as Kusto's pages
 * define it; geo-wide-polygons.ts); on a mismatch the face's complement is taken. Crossing points on a face boundary are computed
 * from the input edge and the boundary plane in one canonical way, so both faces produce the same bits.
 *
 * Shells must lie within the hemisphere about the mean of their vertices (Kusto's pages: a shell "encloses
 * at most half of the sphere"); otherwise the answer is null.
 */
import {
  intersection,
  union,
  xor,
  type MultiPolygon as PlanarMultiPolygon,
  type Pair,
  type Polygon as PlanarPolygon,
} from 'polygon-clipping';
import {
  cross,
  dot,
  gnomonicAbout,
  normalize,
  pointInPlanarRing,
  project,
  ringLeftArea,
  toLngLat,
  toVec,
  unproject,
  type Gnomonic,
  type LngLat,
  type Vec3,
} from './geo-sphere';
import { insideTest, prepareTest, type SpherePolygonTest } from './geo-wide-polygons';

/** A polygon for the cube path: rings (shell first) as unit vectors, with the input [lng, lat] of each. */
export interface CubeShape {
  rings: Vec3[][];
  lngLats?: readonly (readonly LngLat[])[];
}

/** A polygon as GeoJSON coordinates: closed rings of [lng, lat]. */
type PolygonCoordinates = [number, number][][];

const GRID = 2 ** 48;
const snap = (x: number): number => Math.round(x * GRID) / GRID;
const R3 = 1 / Math.sqrt(3);
/** Distance (sine of the angle) within which a vertex counts as on a face-boundary plane. */
const ON_PLANE = 1e-15;
/** Cosine of the longest edge (150°) made by dropping a face-boundary vertex. */
const MAX_EDGE_COS = Math.cos((150 * Math.PI) / 180);

/** A vertex of a clipped ring: its vector, where it comes from, and what it lies on. */
interface ClipVertex {
  v: Vec3;
  /** 'input': a vertex of the polygon; 'clip': a face-boundary crossing; 'corner': a cube corner. */
  kind: 'input' | 'clip' | 'corner';
  lngLat?: LngLat;
  /** Input edges (index i: vertex i to i + 1) the vertex lies on. */
  arcs: number[];
  /** Face-boundary planes (as keys) the vertex lies on. */
  planes: string[];
}

/** A face-boundary plane through the origin: the half-space v·n ≥ 0 keeps the face. */
interface ClipPlane {
  n: Vec3;
  key: string;
}

interface Face {
  g: Gnomonic;
  planes: ClipPlane[];
}

/** The six faces: centers ±x, ±y, ±z; each bounded by the planes s·v_k = ±v_j. */
const FACES: Face[] = (() => {
  const faces: Face[] = [];
  for (let k = 0; k < 3; k++)
    for (const s of [1, -1]) {
      const c: [number, number, number] = [0, 0, 0];
      c[k] = s;
      const planes: ClipPlane[] = [];
      for (let j = 0; j < 3; j++) {
        if (j === k) continue;
        for (const t of [1, -1]) {
          const n: [number, number, number] = [0, 0, 0];
          n[k] = s;
          n[j] = -t;
          // The same plane bounds two faces with opposite normals: its key is sign-free.
          const first = n.find((x) => x !== 0) ?? 1;
          planes.push({ n, key: n.map((x) => x * first).join(',') });
        }
      }
      faces.push({ g: gnomonicAbout(c), planes });
    }
  return faces;
})();

const vecKey = (v: Vec3): string => `${v[0]},${v[1]},${v[2]}`;

/**
 * Where the input edge a–b crosses the plane n: computed from the edge in a fixed order and the plane with
 * a fixed sign, so the faces on both sides of the plane get the same bits.
 */
function crossing(a: Vec3, b: Vec3, n: Vec3): Vec3 {
  const [p, q] = vecKey(a) < vecKey(b) ? [a, b] : [b, a];
  const first = n.find((x) => x !== 0) ?? 1;
  const m: Vec3 = [n[0] * first, n[1] * first, n[2] * first];
  const dp = dot(p, m);
  const dq = dot(q, m);
  const raw: Vec3 = [p[0] * dq - q[0] * dp, p[1] * dq - q[1] * dp, p[2] * dq - q[2] * dp];
  const u = normalize(raw) ?? p;
  return dot(u, [p[0] + q[0], p[1] + q[1], p[2] + q[2]]) < 0 ? [-u[0], -u[1], -u[2]] : u;
}

/** The cube corner on two face-boundary planes, on the side of the face center c. */
function corner(m: Vec3, n: Vec3, c: Vec3): Vec3 {
  let d = cross(m, n);
  if (dot(d, c) < 0) d = [-d[0], -d[1], -d[2]];
  return [Math.sign(d[0]) * R3, Math.sign(d[1]) * R3, Math.sign(d[2]) * R3];
}

const common = <T>(a: readonly T[], b: readonly T[]): T | undefined => a.find((x) => b.includes(x));

/** A ring (no closing vertex) clipped to a face; an empty list when nothing is left. */
function clipRing(ring: readonly Vec3[], lngLats: readonly LngLat[] | undefined, face: Face): ClipVertex[] {
  const n = ring.length;
  let work: ClipVertex[] = ring.map((v, i) => ({
    v,
    kind: 'input',
    lngLat: lngLats?.[i],
    arcs: [(i + n - 1) % n, i],
    planes: [],
  }));
  const c = face.g.c;
  for (const plane of face.planes) {
    if (work.length === 0) break;
    // Vertices on this plane (within ON_PLANE) say so: an edge between two of them runs along it.
    work = work.map((w) =>
      Math.abs(dot(w.v, plane.n)) <= ON_PLANE && !w.planes.includes(plane.key)
        ? { ...w, planes: [...w.planes, plane.key] }
        : w,
    );
    const out: ClipVertex[] = [];
    for (let i = 0; i < work.length; i++) {
      const p = work[i];
      const q = work[(i + 1) % work.length];
      const dp = dot(p.v, plane.n);
      const dq = dot(q.v, plane.n);
      // A vertex within ON_PLANE of the plane is on it: kept, and itself the crossing of its edges (both
      // faces then share that vertex instead of crossings a rounding error apart).
      const pIn = dp >= -ON_PLANE;
      const qIn = dq >= -ON_PLANE;
      if (pIn) out.push(p);
      if (pIn !== qIn && Math.abs(dp) > ON_PLANE && Math.abs(dq) > ON_PLANE) {
        const arc = common(p.arcs, q.arcs);
        if (arc !== undefined) {
          out.push({
            v: crossing(ring[arc], ring[(arc + 1) % n], plane.n),
            kind: 'clip',
            arcs: [arc],
            planes: [plane.key],
          });
        } else {
          // An edge along an earlier face boundary meets this one at a cube corner.
          const along = common(p.planes, q.planes);
          const m = face.planes.find((x) => x.key === along)?.n;
          // (Otherwise the edge's own crossing, on its shorter arc.)
          const raw = normalize([
            p.v[0] * dq - q.v[0] * dp,
            p.v[1] * dq - q.v[1] * dp,
            p.v[2] * dq - q.v[2] * dp,
          ]);
          const onArc =
            raw === null
              ? p.v
              : dot(raw, [p.v[0] + q.v[0], p.v[1] + q.v[1], p.v[2] + q.v[2]]) < 0
                ? ([-raw[0], -raw[1], -raw[2]] as Vec3)
                : raw;
          const v = m !== undefined ? corner(m, plane.n, c) : onArc;
          out.push({
            v,
            kind: 'corner',
            arcs: [],
            planes: along !== undefined ? [along, plane.key] : [plane.key],
          });
        }
      }
    }
    work = out;
  }
  return work.length >= 3 ? work : [];
}

/** Test points inside a face (plane coordinates), tried in turn until one is clear of every edge. */
const PROBES: Pair[] = [
  [0.1234567, -0.2345678],
  [-0.3456789, 0.4567891],
  [0.5678912, 0.6789123],
  [-0.7891234, -0.8912345],
  [0.0312345, 0.8123456],
];

function distanceToSegment(p: Pair, a: Pair, b: Pair): number {
  const rx = b[0] - a[0];
  const ry = b[1] - a[1];
  const len2 = rx * rx + ry * ry;
  const t = len2 > 0 ? Math.max(0, Math.min(1, ((p[0] - a[0]) * rx + (p[1] - a[1]) * ry) / len2)) : 0;
  return Math.hypot(p[0] - a[0] - t * rx, p[1] - a[1] - t * ry);
}

function insidePlanar(m: PlanarMultiPolygon, p: Pair): boolean {
  return m.some(
    (poly) =>
      pointInPlanarRing(p[0], p[1], poly[0].slice(0, -1)) &&
      !poly.slice(1).some((h) => pointInPlanarRing(p[0], p[1], h.slice(0, -1))),
  );
}

const SQUARE: PlanarPolygon = [
  [
    [-1, -1],
    [1, -1],
    [1, 1],
    [-1, 1],
    [-1, -1],
  ],
];

/** What a face's planar points stand for on the sphere. */
interface Known {
  v: Vec3;
  kind: ClipVertex['kind'];
  lngLat?: LngLat;
}

/** One polygon's part in a face, as a planar region; null when the polygon is out of scope. */
function faceRegion(
  shape: CubeShape,
  test: SpherePolygonTest,
  face: Face,
  known: Map<string, Known>,
): PlanarMultiPolygon | null {
  const planarRings: Pair[][] = [];
  for (let r = 0; r < shape.rings.length; r++) {
    const clipped = clipRing(shape.rings[r], shape.lngLats?.[r], face);
    if (clipped.length === 0) continue;
    const ring: Pair[] = [];
    for (const cv of clipped) {
      const q = project(face.g, cv.v);
      if (q === null) return null;
      const s: Pair = [snap(q[0]), snap(q[1])];
      const key = `${s[0]},${s[1]}`;
      const prev = known.get(key);
      // An input vertex wins over a crossing computed at the same place.
      if (prev === undefined || (prev.kind !== 'input' && cv.kind === 'input'))
        known.set(key, { v: cv.v, kind: cv.kind, lngLat: cv.lngLat });
      ring.push(s);
    }
    planarRings.push(ring);
  }
  // Parity of the rings, each read by the non-zero rule (a clipped ring may run back along a face edge).
  let region: PlanarMultiPolygon = [];
  try {
    for (const ring of planarRings) {
      const one = union([[...ring, ring[0]]]);
      region = region.length === 0 ? one : xor(region, one);
    }
  } catch {
    return null;
  }
  const probe = PROBES.find((p) =>
    planarRings.every((ring) =>
      ring.every((a, i) => distanceToSegment(p, a, ring[(i + 1) % ring.length]) > 1e-7),
    ),
  );
  if (probe === undefined) return null;
  const onSphere = insideTest(test, unproject(face.g, probe[0], probe[1]));
  if (onSphere !== insidePlanar(region, probe)) {
    try {
      region = xor([SQUARE], region);
    } catch {
      return null;
    }
  }
  return region;
}

function tryOp(op: () => PlanarMultiPolygon): PlanarMultiPolygon | null {
  try {
    return op();
  } catch {
    return null;
  }
}

/** A directed edge of a face's result, between vertex ids. */
interface Edge {
  from: string;
  to: string;
  /** Whether both ends lie on the same face boundary (a candidate for cancelling). */
  boundary: boolean;
}

interface Vertex {
  v: Vec3;
  kind: Known['kind'] | 'new';
  lngLat?: LngLat;
}

/**
 * The united or intersected region of the shapes, as GeoJSON polygon coordinates; null when a shell is out
 * of scope (past a hemisphere) or the planar operation fails.
 */
function cubeOperation(
  groups: readonly (readonly CubeShape[])[],
  combine: (regions: PlanarMultiPolygon[]) => PlanarMultiPolygon | null,
  onFace?: (view: FaceView, result: PlanarMultiPolygon) => void,
): PolygonCoordinates[] | null {
  const tests: SpherePolygonTest[][] = [];
  for (const group of groups) {
    const ts: SpherePolygonTest[] = [];
    for (const shape of group) {
      const t = prepareTest(shape.rings);
      if (t === null) return null;
      ts.push(t);
    }
    tests.push(ts);
  }
  const vertices = new Map<string, Vertex>();
  const edges: Edge[] = [];
  for (const face of FACES) {
    const known = new Map<string, Known>();
    const perGroup: PlanarMultiPolygon[] = [];
    for (let gi = 0; gi < groups.length; gi++) {
      const parts: PlanarMultiPolygon[] = [];
      for (let si = 0; si < groups[gi].length; si++) {
        const region = faceRegion(groups[gi][si], tests[gi][si], face, known);
        if (region === null) return null;
        if (region.length > 0) parts.push(region);
      }
      const united = parts.length === 0 ? [] : tryOp(() => union(parts[0], ...parts.slice(1)));
      if (united === null) return null;
      perGroup.push(united);
    }
    const result = combine(perGroup);
    if (result === null) return null;
    onFace?.({ g: face.g, clipLine: (line) => clipLine(line, face) }, result);
    for (const poly of result)
      for (const ring of poly) {
        const ids: string[] = [];
        const xy = ring.slice(0, -1);
        for (const [x, y] of xy) {
          const k = known.get(`${x},${y}`);
          const v = k?.v ?? unproject(face.g, x, y);
          const id =
            k?.kind === 'input' && k.lngLat !== undefined
              ? `i${k.lngLat[0]},${k.lngLat[1]}`
              : `v${vecKey(v)}`;
          if (!vertices.has(id)) vertices.set(id, { v, kind: k?.kind ?? 'new', lngLat: k?.lngLat });
          ids.push(id);
        }
        for (let i = 0; i < ids.length; i++) {
          const j = (i + 1) % ids.length;
          const [ax, ay] = xy[i];
          const [bx, by] = xy[j];
          const boundary = (Math.abs(ax) === 1 && ax === bx) || (Math.abs(ay) === 1 && ay === by);
          edges.push({ from: ids[i], to: ids[j], boundary });
        }
      }
  }
  return joinFaces(vertices, splitAtBoundaryVertices(vertices, edges));
}

/**
 * Face-boundary edges split where another face's result has a vertex on them, so the two sides' edges
 * pair up exactly (a face may have dropped a vertex that is collinear there).
 */
function splitAtBoundaryVertices(vertices: Map<string, Vertex>, edges: readonly Edge[]): Edge[] {
  const onBoundary = new Set<string>();
  for (const e of edges)
    if (e.boundary) {
      onBoundary.add(e.from);
      onBoundary.add(e.to);
    }
  const out: Edge[] = [];
  for (const e of edges) {
    if (!e.boundary) {
      out.push(e);
      continue;
    }
    const a = vertices.get(e.from)?.v;
    const b = vertices.get(e.to)?.v;
    if (a === undefined || b === undefined) return [...edges];
    const n = normalize(cross(a, b));
    const between: { id: string; t: number }[] = [];
    if (n !== null)
      for (const id of onBoundary) {
        if (id === e.from || id === e.to) continue;
        const v = vertices.get(id)?.v;
        if (v === undefined || Math.abs(dot(v, n)) > 1e-14) continue;
        // On the arc between a and b: on the a side of b and the b side of a.
        if (dot(cross(a, v), n) <= 0 || dot(cross(v, b), n) <= 0) continue;
        between.push({ id, t: Math.atan2(dot(cross(a, v), n), dot(a, v)) });
      }
    between.sort((x, y) => x.t - y.t);
    let from = e.from;
    for (const { id } of between) {
      out.push({ from, to: id, boundary: true });
      from = id;
    }
    out.push({ from, to: e.to, boundary: true });
  }
  return out;
}

/** Cancels opposite face-boundary edges, links the rest into rings and sorts them into polygons. */
function joinFaces(vertices: Map<string, Vertex>, edges: readonly Edge[]): PolygonCoordinates[] | null {
  // An edge along a face boundary whose reverse the neighbouring face also has lies inside the result.
  const boundaryCount = new Map<string, number>();
  const outgoing = new Map<string, string[]>();
  const add = (from: string, to: string): void => {
    const list = outgoing.get(from) ?? [];
    list.push(to);
    outgoing.set(from, list);
  };
  for (const e of edges) {
    if (e.from === e.to) continue;
    if (e.boundary) boundaryCount.set(`${e.from}>${e.to}`, (boundaryCount.get(`${e.from}>${e.to}`) ?? 0) + 1);
    else add(e.from, e.to);
  }
  for (const [key, n] of boundaryCount) {
    const [from, to] = key.split('>');
    const keep = n - Math.min(n, boundaryCount.get(`${to}>${from}`) ?? 0);
    for (let i = 0; i < keep; i++) add(from, to);
  }
  // Walk the rings.
  const rings: string[][] = [];
  for (const start of [...outgoing.keys()]) {
    for (;;) {
      const firstList = outgoing.get(start);
      if (firstList === undefined || firstList.length === 0) break;
      const ring = [start];
      let at = firstList.pop() as string;
      let guard = 0;
      while (at !== start) {
        ring.push(at);
        const list = outgoing.get(at);
        if (list === undefined || list.length === 0 || ++guard > 10_000_000) return null;
        at = list.pop() as string;
      }
      rings.push(ring);
    }
  }
  // Drop the vertices the clipping added where they lie on the edge between their neighbours.
  const cleaned: Vertex[][] = [];
  for (const ids of rings) {
    // A spike (a, b, a: an edge and its reverse left over from two faces) encloses nothing.
    const spikeless: string[] = [];
    for (const id of ids) {
      spikeless.push(id);
      while (spikeless.length >= 3 && spikeless[spikeless.length - 1] === spikeless[spikeless.length - 3])
        spikeless.splice(spikeless.length - 2, 2);
    }
    for (;;) {
      const n = spikeless.length;
      if (n >= 3 && spikeless[1] === spikeless[n - 1]) {
        spikeless.shift();
        spikeless.pop();
      } else if (n >= 3 && spikeless[0] === spikeless[n - 2]) spikeless.splice(n - 2, 2);
      else break;
    }
    const ring = spikeless.map((id) => vertices.get(id) as Vertex);
    let changed = true;
    while (changed && ring.length > 3) {
      changed = false;
      for (let i = 0; i < ring.length && ring.length > 3; i++) {
        const cur = ring[i];
        if (cur.kind !== 'clip' && cur.kind !== 'corner') continue;
        const prev = ring[(i + ring.length - 1) % ring.length].v;
        const next = ring[(i + 1) % ring.length].v;
        // Kept where the edge left would be too long to be sure of (near 180°: its arc is ambiguous);
        // polygon-clipping drops collinear input vertices, so that edge need not be an input edge.
        if (dot(prev, next) < MAX_EDGE_COS) continue;
        const n = normalize(cross(prev, next));
        if (n === null || Math.abs(dot(cur.v, n)) > 1e-14) continue;
        if (dot(cross(prev, cur.v), n) <= 0 || dot(cross(cur.v, next), n) <= 0) continue;
        ring.splice(i, 1);
        changed = true;
        i--;
      }
    }
    if (ring.length >= 3) cleaned.push(ring);
  }
  // The result is left of every ring: a shell when that is the smaller side, else a hole.
  const shells: Vertex[][] = [];
  const holes: Vertex[][] = [];
  for (const ring of cleaned) (ringLeftArea(ring.map((x) => x.v)) < 2 * Math.PI ? shells : holes).push(ring);
  const polygons: Vertex[][][] = shells.map((s) => [s]);
  for (const hole of holes) {
    let owner = 0;
    if (shells.length > 1) {
      const tests = shells.map((s) => prepareTest([s.map((x) => x.v)]));
      const probe = hole.find((h) => !shells.some((s) => s.includes(h))) ?? hole[0];
      const found = tests.findIndex((t) => t !== null && insideTest(t, probe.v));
      owner = found < 0 ? 0 : found;
    }
    if (polygons.length === 0) return null;
    polygons[owner].push(hole);
  }
  return polygons.map((poly) =>
    poly.map((ring) => {
      const coords = ring.map((x): [number, number] => {
        const p = x.lngLat ?? toLngLat(x.v);
        return [p[0], p[1]];
      });
      return [...coords, coords[0]];
    }),
  );
}

/** The union of the shapes (each a polygon: shell and holes). */
export function cubeUnion(
  shapes: readonly CubeShape[],
  onFace?: (view: FaceView, united: PlanarMultiPolygon) => void,
): PolygonCoordinates[] | null {
  return cubeOperation([shapes], ([u]) => u, onFace);
}

/** The common area of two sets of polygons (each set united first). */
export function cubeIntersection(
  a: readonly CubeShape[],
  b: readonly CubeShape[],
  onFace?: (view: FaceView, common: PlanarMultiPolygon) => void,
): PolygonCoordinates[] | null {
  return cubeOperation(
    [a, b],
    ([u1, u2]) => (u1.length === 0 || u2.length === 0 ? [] : tryOp(() => intersection(u1, u2))),
    onFace,
  );
}

/** A face as the caller sees it: its projection, and lines cut to the face. */
export interface FaceView {
  g: Gnomonic;
  /**
   * The parts of a line ([lng, lat] vertices; geodesic edges) inside the face, as lines. Input vertices
   * come back as given; the ends where the line crosses a face boundary are computed as for polygons, so
   * the faces on both sides agree on them to the bit.
   */
  clipLine: (line: readonly LngLat[]) => LngLat[][];
}

function clipLine(line: readonly LngLat[], face: Face): LngLat[][] {
  const vecs = line.map((p) => toVec(p[0], p[1]));
  const out: LngLat[][] = [];
  for (let i = 0; i + 1 < line.length; i++) {
    const a = vecs[i];
    const b = vecs[i + 1];
    let from: { v: Vec3; at: LngLat } | null = { v: a, at: line[i] };
    let to: { v: Vec3; at: LngLat } | null = { v: b, at: line[i + 1] };
    for (const plane of face.planes) {
      if (from === null || to === null) break;
      const df = dot(from.v, plane.n);
      const dt = dot(to.v, plane.n);
      const fIn = df >= -ON_PLANE;
      const tIn = dt >= -ON_PLANE;
      if (!fIn && !tIn) from = to = null;
      else if (fIn !== tIn && Math.abs(df) > ON_PLANE && Math.abs(dt) > ON_PLANE) {
        const v = crossing(a, b, plane.n);
        const at = toLngLat(v);
        if (fIn) to = { v, at };
        else from = { v, at };
      } else if (!fIn) from = to;
      else if (!tIn) to = from;
    }
    if (from === null || to === null || from.v === to.v) continue;
    const last = out[out.length - 1];
    const end = last?.[last.length - 1];
    if (end !== undefined && end[0] === from.at[0] && end[1] === from.at[1]) last.push(to.at);
    else out.push([from.at, to.at]);
  }
  return out;
}
