/**
 * geo_union_lines_array (Kusto's geo_union_lines_array page): the lines of an array as one network,
 * computed on the sphere, so lines of any extent are united (no projection, no limit on how far apart the
 * vertices are).
 *
 * Vertices are unit vectors and every edge is the minor great-circle arc between its ends (the readers
 * refuse an edge between antipodal points). Each edge is cut wherever another edge meets it: where an end
 * of the other edge lies on it (a touch; for two edges along one great circle, the ends of each lying on the
 * other, so a stretch they share becomes the same pieces on both and is kept once), else where the two
 * arcs cross, at the point along the cross product of their planes' normals that lies on both arcs. A
 * crossing is computed from the two edges in a canonical order and orientation, so it has the same bits
 * whichever of the two edges is being cut.
 *
 * Points closer than about 0.1 mm are one node (found by proximity, on a grid of the unit vectors, so the
 * antimeridian and the poles need no care: [180, 0] and [-180, 0] are one node). Input vertices come first
 * and keep their input coordinates; a new node (a crossing) is the crossing's [lng, lat].
 */
import { dynamicArgument } from './geo-geojson';
import { readLineShape } from './geo-lines';
import {
  add,
  angleBetween,
  cross,
  dot,
  norm,
  normalize,
  toLngLat,
  toVec,
  type LngLat,
  type Vec3,
} from './geo-sphere';

/** The empty result (also geo-boolean.ts's, for line and polygon intersections). */
export const EMPTY_COLLECTION = { type: 'GeometryCollection', geometries: [] as unknown[] };

/** Lines as GeoJSON: a LineString for one, else a MultiLineString. */
export const linesGeoJson = (lines: readonly [number, number][][]): unknown =>
  lines.length === 1
    ? { type: 'LineString', coordinates: lines[0] }
    : { type: 'MultiLineString', coordinates: lines };

/** A point this close (radians) to an arc lies on it: an end of one edge on another edge. */
const ON_ARC = 1e-14;
/** Great circles whose normals are this close (sine of the angle) are taken as one: no crossing is computed. */
const PARALLEL = 1e-12;
/** Points closer than this (chord of the unit sphere: 2^-36, about 0.1 mm on the ground) are one node. */
const NODE_TOLERANCE = 2 ** -36;

/** An edge: its ends (as given and in canonical order), its node ids, and its plane with the end tangents. */
interface Edge {
  a: Vec3;
  b: Vec3;
  nodeA: number;
  nodeB: number;
  /** The ends in lexicographic order of their vectors: crossings are computed from these. */
  lo: Vec3;
  hi: Vec3;
  /** Unit normal of the plane of lo → hi; null when the ends are the same vector. */
  n: Vec3 | null;
  /** n × lo and hi × n: a point p of the great circle is on the arc when p·fromLo ≥ 0 and p·fromHi ≥ 0. */
  fromLo: Vec3;
  fromHi: Vec3;
  /** lo + hi: every point of the arc is on its positive side (the arc is shorter than 180°). */
  mid: Vec3;
}

const before = (p: Vec3, q: Vec3): boolean =>
  p[0] !== q[0] ? p[0] < q[0] : p[1] !== q[1] ? p[1] < q[1] : p[2] < q[2];

function edgeOf(a: Vec3, b: Vec3, nodeA: number, nodeB: number): Edge {
  const [lo, hi] = before(b, a) ? [b, a] : [a, b];
  // (lo + hi) × (hi − lo) = 2 (lo × hi), but exact to rounding for a short arc, where lo × hi cancels.
  const n = normalize(cross(add(lo, hi), [hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]]));
  const zero: Vec3 = [0, 0, 0];
  return {
    a,
    b,
    nodeA,
    nodeB,
    lo,
    hi,
    n,
    fromLo: n === null ? zero : cross(n, lo),
    fromHi: n === null ? zero : cross(hi, n),
    mid: add(lo, hi),
  };
}

/** Whether p, a point of the edge's great circle, is beyond neither end of its arc (by more than `slack`). */
const between = (p: Vec3, e: Edge, slack: number): boolean =>
  dot(p, e.fromLo) >= -slack && dot(p, e.fromHi) >= -slack && dot(p, e.mid) > 0;

/** Whether p lies on the edge's arc (within ON_ARC). */
const onArc = (p: Vec3, e: Edge): boolean =>
  e.n !== null && Math.abs(dot(p, e.n)) <= ON_ARC && between(p, e, ON_ARC);

const sameVec = (p: Vec3, q: Vec3): boolean => p[0] === q[0] && p[1] === q[1] && p[2] === q[2];
const edgeBefore = (e: Edge, f: Edge): boolean =>
  sameVec(e.lo, f.lo) ? before(e.hi, f.hi) : before(e.lo, f.lo);

/** Where the arcs of two edges cross (inside both), computed the same way for either order; else null. */
function crossing(e: Edge, f: Edge): Vec3 | null {
  const [p, q] = edgeBefore(f, e) ? [f, e] : [e, f];
  if (p.n === null || q.n === null) return null;
  const m = cross(p.n, q.n);
  if (norm(m) < PARALLEL) return null;
  const x = normalize(m);
  if (x === null) return null;
  // The circles meet at x and -x: the one on p's side is the only candidate on p's arc.
  const c: Vec3 = dot(x, p.mid) < 0 ? [-x[0], -x[1], -x[2]] : x;
  return between(c, p, 0) && between(c, q, 0) ? c : null;
}

/** The points where edge f meets edge e, other than e's own ends: with f's node id where it is an end of f. */
function meets(e: Edge, f: Edge): { v: Vec3; node?: number }[] {
  const out: { v: Vec3; node?: number }[] = [];
  if (onArc(f.a, e)) out.push({ v: f.a, node: f.nodeA });
  if (onArc(f.b, e)) out.push({ v: f.b, node: f.nodeB });
  // An end of e on f: the edges meet at that end (the crossing computed below would be ill-conditioned).
  if (out.length > 0 || onArc(e.a, f) || onArc(e.b, f)) return out;
  const x = crossing(e, f);
  return x === null ? out : [{ v: x }];
}

/** The nodes of the network: points within NODE_TOLERANCE of a node are that node. */
class Nodes {
  readonly at: [number, number][] = [];
  private readonly vecs: Vec3[] = [];
  private readonly cells = new Map<string, number[]>();

  /** The node of v (the nearest within tolerance), or a new one at `at`. */
  add(v: Vec3, at: readonly [number, number]): number {
    const cell = v.map((x) => Math.floor(x / NODE_TOLERANCE));
    let best: number | undefined;
    let bestDistance = NODE_TOLERANCE;
    for (let i = -1; i <= 1; i++)
      for (let j = -1; j <= 1; j++)
        for (let k = -1; k <= 1; k++)
          for (const id of this.cells.get(`${cell[0] + i},${cell[1] + j},${cell[2] + k}`) ?? []) {
            const w = this.vecs[id];
            const d = Math.hypot(v[0] - w[0], v[1] - w[1], v[2] - w[2]);
            if (d < bestDistance) {
              best = id;
              bestDistance = d;
            }
          }
    if (best !== undefined) return best;
    const id = this.at.length;
    this.at.push([at[0], at[1]]);
    this.vecs.push(v);
    const key = cell.join(',');
    const ids = this.cells.get(key);
    if (ids === undefined) this.cells.set(key, [id]);
    else ids.push(id);
    return id;
  }
}

/** A crossing's [lng, lat] (without negative zeros). */
function crossingLngLat(v: Vec3): [number, number] {
  const p = toLngLat(v);
  return [p[0] + 0, p[1] + 0];
}

const pieceKey = (p: number, q: number): string => (p < q ? `${p}|${q}` : `${q}|${p}`);

/**
 * The network's pieces: every edge cut at the points where the others meet it, each piece between two nodes
 * kept once (in either direction). Gives each node's neighbours, and the nodes in order of appearance.
 */
function pieces(edges: readonly Edge[], nodes: Nodes): { adjacency: Map<number, number[]>; order: number[] } {
  const adjacency = new Map<number, number[]>();
  const order: number[] = [];
  const seen = new Set<string>();
  const link = (from: number, to: number): void => {
    if (!adjacency.has(from)) {
      adjacency.set(from, []);
      order.push(from);
    }
    adjacency.get(from)?.push(to);
  };
  for (const e of edges) {
    if (e.n === null || e.nodeA === e.nodeB) continue;
    const cuts = [
      { along: 0, node: e.nodeA },
      { along: angleBetween(e.a, e.b), node: e.nodeB },
    ];
    for (const f of edges)
      if (f !== e)
        for (const m of meets(e, f))
          cuts.push({ along: angleBetween(e.a, m.v), node: m.node ?? nodes.add(m.v, crossingLngLat(m.v)) });
    cuts.sort((x, y) => x.along - y.along);
    let prev = e.nodeA;
    for (const { node } of cuts.slice(1)) {
      if (node === prev) continue;
      const key = pieceKey(prev, node);
      if (!seen.has(key)) {
        seen.add(key);
        link(prev, node);
        link(node, prev);
      }
      prev = node;
    }
  }
  return { adjacency, order };
}

/**
 * The network walked into lines: from nodes that are not simple pass-throughs first (ends and nodes where
 * three or more pieces meet), each line running on through nodes of two pieces; then around leftover loops.
 */
function walk(adjacency: ReadonlyMap<number, readonly number[]>, order: readonly number[]): number[][] {
  const used = new Set<string>();
  const out: number[][] = [];
  const follow = (start: number, next: number): void => {
    const chain = [start];
    let from = start;
    let to = next;
    for (;;) {
      used.add(pieceKey(from, to));
      chain.push(to);
      const onward = adjacency.get(to) ?? [];
      if (onward.length !== 2) break;
      const further = onward[0] === from ? onward[1] : onward[0];
      if (used.has(pieceKey(to, further))) break;
      from = to;
      to = further;
    }
    out.push(chain);
  };
  for (const pass of [true, false])
    for (const start of order) {
      if (pass && adjacency.get(start)?.length === 2) continue;
      for (const next of adjacency.get(start) ?? [])
        if (!used.has(pieceKey(start, next))) follow(start, next);
    }
  return out;
}

/**
 * geo_union_lines_array: the lines of the array as one network. Every edge is cut where it meets
 * another, shared stretches are kept once, and the pieces are joined into the longest lines that pass
 * no node where three or more pieces meet: a LineString when that is one line, else a MultiLineString.
 * Null unless an array of valid LineStrings / MultiLineStrings; the empty array gives the empty
 * GeometryCollection.
 */
export function unionLinesArray(v: unknown): unknown {
  const value = dynamicArgument(v);
  if (!Array.isArray(value)) return null;
  const all: LngLat[][] = [];
  for (const item of value) {
    const shape = readLineShape(item);
    if (shape === null) return null;
    all.push(...shape.lines);
  }
  if (all.length === 0) return EMPTY_COLLECTION;
  // Input vertices are nodes first, so they keep their coordinates.
  const nodes = new Nodes();
  const edges: Edge[] = [];
  for (const line of all) {
    const vecs = line.map((p) => toVec(p[0], p[1]));
    const ids = line.map((p, i) => nodes.add(vecs[i], p));
    for (let i = 0; i + 1 < line.length; i++) edges.push(edgeOf(vecs[i], vecs[i + 1], ids[i], ids[i + 1]));
  }
  const { adjacency, order } = pieces(edges, nodes);
  const out = walk(adjacency, order).map((chain) => chain.map((id) => nodes.at[id]));
  return out.length === 0 ? EMPTY_COLLECTION : linesGeoJson(out);
}
