/**
 * Reading the GeoJSON shapes the geo_* functions take (RFC 7946, as Kusto's pages constrain them):
 * a Polygon or MultiPolygon for the polygon functions, a LineString or MultiLineString for
 * geo_distance_point_to_line. Anything that breaks a documented constraint reads as null, which the
 * functions return as their null result.
 */
import { isAntipodal, isValidLat, isValidLng, toVec, type LngLat, type Vec3 } from './geo-sphere';

/** A polygon's rings as [lng, lat] vertices, without the repeated closing vertex. */
export interface LngLatPolygon {
  shell: LngLat[];
  holes: LngLat[][];
}

/** A dynamic argument: the value itself, or the value JSON text holds (undefined when it is not JSON). */
export function dynamicArgument(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v);
  } catch {
    return undefined;
  }
}

/** A dynamic argument: the value itself, or JSON text of it. */
export function shapeValue(v: unknown): Record<string, unknown> | null {
  const value = dynamicArgument(v);
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

/** `[lng, lat]` (further members, such as an altitude, are ignored) within the valid ranges. */
export function readPosition(v: unknown): LngLat | null {
  if (!Array.isArray(v) || v.length < 2) return null;
  const [lng, lat] = v as unknown[];
  if (typeof lng !== 'number' || typeof lat !== 'number') return null;
  return isValidLng(lng) && isValidLat(lat) ? [lng, lat] : null;
}

const samePosition = (a: LngLat, b: LngLat): boolean => a[0] === b[0] && a[1] === b[1];

/**
 * A linear ring: at least four positions, the last equal to the first, the others distinct (so at least
 * three vertices), and no edge between antipodal vertices.
 */
function readRing(v: unknown): LngLat[] | null {
  if (!Array.isArray(v) || v.length < 4) return null;
  const points: LngLat[] = [];
  for (const p of v) {
    const q = readPosition(p);
    if (q === null) return null;
    points.push(q);
  }
  if (!samePosition(points[0], points[points.length - 1])) return null;
  points.pop();
  const seen = new Set(points.map((p) => `${p[0]},${p[1]}`));
  if (seen.size !== points.length) return null;
  const vecs = points.map((p) => toVec(p[0], p[1]));
  for (let i = 0; i < vecs.length; i++) if (isAntipodal(vecs[i], vecs[(i + 1) % vecs.length])) return null;
  return points;
}

function readPolygonRings(v: unknown): LngLatPolygon | null {
  if (!Array.isArray(v) || v.length === 0) return null;
  const rings: LngLat[][] = [];
  for (const r of v) {
    const ring = readRing(r);
    if (ring === null) return null;
    rings.push(ring);
  }
  return { shell: rings[0], holes: rings.slice(1) };
}

/**
 * Shapes read once per argument value: a literal (or a column's repeated value) arrives as the same
 * object on every row, and reading and checking a polygon costs far more than testing a point against it.
 */
function cached<T>(read: (v: unknown) => T): (v: unknown) => T {
  const byObject = new WeakMap<object, T>();
  let lastText: string | undefined;
  let lastTextResult: T | undefined;
  return (v) => {
    if (v !== null && typeof v === 'object') {
      if (byObject.has(v)) return byObject.get(v) as T;
      const r = read(v);
      byObject.set(v, r);
      return r;
    }
    if (typeof v === 'string') {
      if (v !== lastText) {
        lastTextResult = read(v);
        lastText = v;
      }
      return lastTextResult as T;
    }
    return read(v);
  };
}

/** The polygons of a Polygon (one) or a MultiPolygon (one or more); the result must not be changed. */
export const readPolygons = cached(readPolygonsOnce);

/** The lines (as unit vectors) of a LineString or a MultiLineString; the result must not be changed. */
export const readLines = cached(readLinesOnce);

function readPolygonsOnce(v: unknown): LngLatPolygon[] | null {
  const shape = shapeValue(v);
  if (shape === null || !Array.isArray(shape.coordinates)) return null;
  if (shape.type === 'Polygon') {
    const p = readPolygonRings(shape.coordinates);
    return p === null ? null : [p];
  }
  if (shape.type !== 'MultiPolygon' || shape.coordinates.length === 0) return null;
  const out: LngLatPolygon[] = [];
  for (const c of shape.coordinates) {
    const p = readPolygonRings(c);
    if (p === null) return null;
    out.push(p);
  }
  return out;
}

function readLine(v: unknown): Vec3[] | null {
  if (!Array.isArray(v) || v.length < 2) return null;
  const out: Vec3[] = [];
  for (const p of v) {
    const q = readPosition(p);
    if (q === null) return null;
    out.push(toVec(q[0], q[1]));
  }
  for (let i = 0; i + 1 < out.length; i++) if (isAntipodal(out[i], out[i + 1])) return null;
  return out;
}

function readLinesOnce(v: unknown): Vec3[][] | null {
  const shape = shapeValue(v);
  if (shape === null || !Array.isArray(shape.coordinates)) return null;
  if (shape.type === 'LineString') {
    const line = readLine(shape.coordinates);
    return line === null ? null : [line];
  }
  if (shape.type !== 'MultiLineString' || shape.coordinates.length === 0) return null;
  const out: Vec3[][] = [];
  for (const c of shape.coordinates) {
    const line = readLine(c);
    if (line === null) return null;
    out.push(line);
  }
  return out;
}
