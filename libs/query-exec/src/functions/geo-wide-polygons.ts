/**
 * Polygons measured on the sphere itself, without a projection, for shapes of any extent: a shell may
 * reach any distance from the mean of its vertices as long as it is the smaller side of its ring (Kusto's
 * pages: a shell encloses at most half the sphere). geo-polygon.ts keeps its gnomonic projection where it
 * works (its answers stay bit for bit the same) and comes here where it does not; geo-cube.ts decides with
 * the same containment test which side of a clipped ring is inside.
 */
import { angleToArc, cross, dot, normalize, ringLeftArea, ringSignedArea, type Vec3 } from './geo-sphere';

const FULL = 4 * Math.PI;

/**
 * Within this angle (radians) of the antipode of a ring's first vertex, the fan of ringSignedArea has a
 * triangle whose sides add up to nearly 360°: l'Huilier's formula then loses digits (about 4e-15 / angle
 * steradians, measured) and the triangle's sign is a coin toss. 0.1 (5.7°) keeps that error near 4e-14 sr.
 */
const FAN_CLEARANCE = 0.1;

/** Whether the ring keeps FAN_CLEARANCE away from the antipode of its first vertex. */
function clearOfAntipode(ring: readonly Vec3[]): boolean {
  const a = ring[0];
  // Vertices all within 90° of a: every edge stays in that (convex) hemisphere, 90° from the antipode.
  if (ring.every((v) => dot(v, a) >= 0)) return true;
  const antipode: Vec3 = [-a[0], -a[1], -a[2]];
  for (let i = 0; i < ring.length; i++)
    if (angleToArc(antipode, ring[i], ring[(i + 1) % ring.length]) < FAN_CLEARANCE) return false;
  return true;
}

/**
 * The signed area (steradians) of a ring's smaller side: positive when the ring runs counterclockwise
 * around it (seen from outside the sphere), negative when clockwise; in (-2π, 2π].
 *
 * The fan of ringSignedArea (S2's way, exact to rounding for rings of any size, which Kusto's examples
 * reproduce to all digits) counts the region left of the ring plus -4π when the antipode of the fan's apex
 * lies in it, so its sum is right modulo 4π as long as the ring stays clear of that antipode. Where it
 * does not (only rings reaching about 180° across), Gauss–Bonnet (ringLeftArea) measures the left side
 * from the turns at the vertices: no apex, an absolute error of about 1e-15 sr per vertex, which is
 * nothing beside the area of a ring that wide (for small rings it would lose digits to the cancellation of
 * 2π against the turns, so the fan stays the measure wherever it holds).
 */
export function smallSideArea(ring: readonly Vec3[]): number {
  if (clearOfAntipode(ring)) {
    const fan = ringSignedArea(ring);
    // Exactly the fan's sum for every ring whose sum is already in range: existing answers stay the same.
    return fan > 2 * Math.PI || fan <= -2 * Math.PI ? fan - FULL * Math.round(fan / FULL) : fan;
  }
  return smallSideAreaByTurns(ring);
}

/** smallSideArea by Gauss–Bonnet alone (for rings of any size; loses relative precision on small ones). */
export function smallSideAreaByTurns(ring: readonly Vec3[]): number {
  const left = ringLeftArea(ring);
  return left > 2 * Math.PI ? left - FULL : left;
}

/**
 * Containment on the sphere for rings of any size (each ring bounds the smaller of its two sides, as
 * Kusto's pages define shells and holes): the parity of ring edges crossed on the way from a reference
 * point just left of an edge, whose side is known, to the point.
 */
export interface RingTest {
  ring: Vec3[];
  /** Reference points just left of two edges (two, so one is far from any point's antipode). */
  refs: Vec3[];
  /** Whether the ring's left side is its smaller side. */
  leftIsSmall: boolean;
}

/** A polygon's rings (shell first) as containment tests. */
export type SpherePolygonTest = RingTest[];

/** Offset (radians) of a reference point from the middle of its edge. */
const REF_OFFSET = 1e-9;

function ringTest(ring: readonly Vec3[]): RingTest | null {
  const refs: Vec3[] = [];
  for (const i of [0, Math.floor(ring.length / 2)]) {
    const a = ring[i];
    const b = ring[(i + 1) % ring.length];
    const m = normalize([a[0] + b[0], a[1] + b[1], a[2] + b[2]]);
    const n = normalize(cross(a, b));
    if (m === null || n === null) return null;
    const o = normalize([m[0] + REF_OFFSET * n[0], m[1] + REF_OFFSET * n[1], m[2] + REF_OFFSET * n[2]]);
    if (o === null) return null;
    refs.push(o);
  }
  return { ring: [...ring], refs, leftIsSmall: ringLeftArea(ring) < 2 * Math.PI };
}

/** The containment test of a polygon's rings (shell first); null for a ring with a degenerate edge. */
export function prepareTest(rings: readonly Vec3[][]): SpherePolygonTest | null {
  const out: RingTest[] = [];
  for (const ring of rings) {
    const t = ringTest(ring);
    if (t === null) return null;
    out.push(t);
  }
  return out;
}

/** Whether the arcs p–q and a–b (each under 180°) cross. */
function arcsCross(p: Vec3, q: Vec3, a: Vec3, b: Vec3): boolean {
  const n1 = cross(a, b);
  const n2 = cross(p, q);
  if (dot(p, n1) * dot(q, n1) >= 0 || dot(a, n2) * dot(b, n2) >= 0) return false;
  // The great circles meet at x and -x: the arcs cross when both hold the same one.
  const x = cross(n1, n2);
  const onAb = dot(cross(a, x), n1) > 0 && dot(cross(x, b), n1) > 0;
  const onPq = dot(cross(p, x), n2) > 0 && dot(cross(x, q), n2) > 0;
  return onAb === onPq;
}

/** Whether v is on the smaller side of the ring. */
function inRing(t: RingTest, v: Vec3): boolean {
  // The reference farther from v's antipode (the arc to it is then well defined).
  const ref = dot(t.refs[0], v) >= dot(t.refs[1], v) ? t.refs[0] : t.refs[1];
  let left = true;
  for (let i = 0; i < t.ring.length; i++)
    if (arcsCross(ref, v, t.ring[i], t.ring[(i + 1) % t.ring.length])) left = !left;
  return left === t.leftIsSmall;
}

/** Whether v is inside the shell and outside every hole. */
export function insideTest(t: SpherePolygonTest, v: Vec3): boolean {
  return inRing(t[0], v) && !t.slice(1).some((h) => inRing(h, v));
}
