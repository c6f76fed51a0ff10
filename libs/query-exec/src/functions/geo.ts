/**
 * The geo_* functions of Kusto (Quarry extensions: Axiom's APL has none of them). Each follows its Kusto
 * reference page: coordinates are (longitude, latitude) in degrees, valid in [-180, 180] × [-90, 90];
 * shapes are GeoJSON; an invalid coordinate, shape, level or cell token gives null.
 */
import { levelAt, lngLatAt, point } from './geo-args';
import { GEO_CELL_FUNCTIONS } from './geo-cells';
import { geohashDecode, geohashEncode, geohashNeighbors, GEOHASH_MAX_LENGTH } from './geo-geohash';
import { readLines, readPolygons } from './geo-geojson';
import {
  DENSIFY_TOLERANCE,
  densifyChain,
  distanceToPolygons,
  lineIntersectsPolygons,
  lineInterpolate,
  lineLocate,
  linesCentroid,
  linesIntersect,
  linesLength,
  polygonsIntersect,
  readLineShape,
} from './geo-lines';
import { polygonArea, polygonCentroid, polygonContains, polygonPerimeter } from './geo-polygon';
import {
  angleBetween,
  angleToArc,
  EARTH_RADIUS_M,
  isAntipodal,
  spheroidDistance,
  toVec,
  type LngLat,
} from './geo-sphere';
import type { ColumnKind } from '@quarry/contracts';
import { num, str, type ScalarImpl } from './scalar-impl';

/** Great-circle distance in meters. */
export function sphereDistance(a: LngLat, b: LngLat): number {
  return angleBetween(toVec(a[0], a[1]), toVec(b[0], b[1])) * EARTH_RADIUS_M;
}

/**
 * The initial bearing of the geodesic from `a` to `b`, clockwise from north, in radians in [0, 2π)
 * (Kusto's geo_azimuth page); null for equal or antipodal points, where no single geodesic exists.
 */
export function azimuth(a: LngLat, b: LngLat): number | null {
  const va = toVec(a[0], a[1]);
  const vb = toVec(b[0], b[1]);
  if (angleBetween(va, vb) < 1e-15 || isAntipodal(va, vb)) return null;
  const phi1 = (a[1] * Math.PI) / 180;
  const phi2 = (b[1] * Math.PI) / 180;
  const dLambda = ((b[0] - a[0]) * Math.PI) / 180;
  const theta = Math.atan2(
    Math.sin(dLambda) * Math.cos(phi2),
    Math.cos(phi1) * Math.sin(phi2) - Math.sin(phi1) * Math.cos(phi2) * Math.cos(dLambda),
  );
  return (theta + 2 * Math.PI) % (2 * Math.PI);
}

export const GEO_FUNCTIONS: Record<string, ScalarImpl> = {
  geo_distance_2points: (args, kinds) => {
    const a = lngLatAt(args, kinds, 0);
    const b = lngLatAt(args, kinds, 2);
    if (a === null || b === null) return null;
    if (args.length > 4) {
      const spheroid = args[4];
      if (spheroid === null || spheroid === undefined) return null;
      if (spheroid === true) return spheroidDistance(a[0], a[1], b[0], b[1]);
    }
    return sphereDistance(a, b);
  },
  geo_azimuth: (args, kinds) => {
    const a = lngLatAt(args, kinds, 0);
    const b = lngLatAt(args, kinds, 2);
    return a === null || b === null ? null : azimuth(a, b);
  },
  geo_angle: (args, kinds) => {
    const a = lngLatAt(args, kinds, 0);
    const b = lngLatAt(args, kinds, 2);
    const c = lngLatAt(args, kinds, 4);
    if (a === null || b === null || c === null) return null;
    const back = azimuth(b, a);
    const ahead = azimuth(b, c);
    if (back === null || ahead === null) return null;
    return (ahead - back + 2 * Math.PI) % (2 * Math.PI);
  },
  geo_point_in_circle: (args, kinds) => {
    const p = lngLatAt(args, kinds, 0);
    const c = lngLatAt(args, kinds, 2);
    const radius = num(args[4], kinds[4]);
    if (p === null || c === null || radius === null || !(radius > 0) || !Number.isFinite(radius)) return null;
    return sphereDistance(p, c) <= radius;
  },
  geo_distance_point_to_line: (args, kinds) => {
    const p = lngLatAt(args, kinds, 0);
    const lines = readLines(args[2]);
    if (p === null || lines === null) return null;
    const v = toVec(p[0], p[1]);
    let best = Infinity;
    for (const line of lines)
      for (let i = 0; i + 1 < line.length; i++) best = Math.min(best, angleToArc(v, line[i], line[i + 1]));
    return best * EARTH_RADIUS_M;
  },
  geo_point_in_polygon: (args, kinds) => {
    const p = lngLatAt(args, kinds, 0);
    const polygons = readPolygons(args[2]);
    if (p === null || polygons === null) return null;
    return polygonContains(polygons, p[0], p[1]);
  },
  geo_polygon_area: ([v]) => {
    const polygons = readPolygons(v);
    return polygons === null ? null : polygonArea(polygons);
  },
  geo_polygon_perimeter: ([v]) => {
    const polygons = readPolygons(v);
    return polygons === null ? null : polygonPerimeter(polygons);
  },
  geo_polygon_centroid: ([v]) => {
    const polygons = readPolygons(v);
    const c = polygons === null ? null : polygonCentroid(polygons);
    return c === null ? null : point(c);
  },
  // geohash (default accuracy 5, valid 1..18)
  geo_point_to_geohash: (args, kinds) => {
    const p = lngLatAt(args, kinds, 0);
    const accuracy = levelAt(args, kinds, 2, 5, 1, GEOHASH_MAX_LENGTH);
    return p === null || accuracy === null ? null : geohashEncode(p[0], p[1], accuracy);
  },
  geo_geohash_to_central_point: ([v], [k]) => {
    const s = str(v, k);
    const box = s === null ? null : geohashDecode(s);
    return box === null ? null : point([(box.west + box.east) / 2, (box.south + box.north) / 2]);
  },
  geo_geohash_to_polygon: ([v], [k]) => {
    const s = str(v, k);
    const box = s === null ? null : geohashDecode(s);
    if (box === null) return null;
    const { west, east, south, north } = box;
    return {
      type: 'Polygon',
      coordinates: [
        [
          [west, south],
          [east, south],
          [east, north],
          [west, north],
          [west, south],
        ],
      ],
    };
  },
  geo_geohash_neighbors: ([v], [k]) => {
    const s = str(v, k);
    return s === null ? null : geohashNeighbors(s);
  },
  // lines (geo-lines.ts)
  geo_line_length: ([v]) => {
    const shape = readLineShape(v);
    return shape === null ? null : linesLength(shape.lines);
  },
  geo_line_centroid: ([v]) => {
    const shape = readLineShape(v);
    const c = shape === null ? null : linesCentroid(shape.lines);
    return c === null ? null : point(c);
  },
  geo_line_interpolate_point: (args, kinds) => {
    const line = singleLine(args[0]);
    const fraction = num(args[1], kinds[1]);
    if (line === null || fraction === null) return null;
    const p = lineInterpolate(line, fraction);
    return p === null ? null : point(p);
  },
  geo_line_locate_point: (args, kinds) => {
    const line = singleLine(args[0]);
    const p = lngLatAt(args, kinds, 1);
    // use_spheroid: the fraction is measured on the sphere either way (docs/apl.md); null stays null.
    if (line === null || p === null || (args.length > 3 && typeof args[3] !== 'boolean')) return null;
    return lineLocate(line, p);
  },
  geo_line_densify: (args, kinds) => {
    const shape = readLineShape(args[0]);
    const options = densifyOptions(args, kinds);
    if (shape === null || options === null) return null;
    const lines: unknown[] = [];
    for (const line of shape.lines) {
      const d = densifyChain(line, options.tolerance, options.crossing);
      if (d === null) return null;
      lines.push(d.map((p) => [p[0], p[1]]));
    }
    return shape.multi
      ? { type: 'MultiLineString', coordinates: lines }
      : { type: 'LineString', coordinates: lines[0] };
  },
  geo_polygon_densify: (args, kinds) => {
    const polygons = readPolygons(args[0]);
    const options = densifyOptions(args, kinds);
    if (polygons === null || options === null) return null;
    const out: unknown[] = [];
    for (const polygon of polygons) {
      const rings: unknown[] = [];
      for (const ring of [polygon.shell, ...polygon.holes]) {
        const d = densifyChain([...ring, ring[0]], options.tolerance, options.crossing);
        if (d === null) return null;
        rings.push(d.map((p) => [p[0], p[1]]));
      }
      out.push(rings);
    }
    return isMultiPolygon(args[0])
      ? { type: 'MultiPolygon', coordinates: out }
      : { type: 'Polygon', coordinates: out[0] };
  },
  geo_distance_point_to_polygon: (args, kinds) => {
    const p = lngLatAt(args, kinds, 0);
    const polygons = readPolygons(args[2]);
    return p === null || polygons === null ? null : distanceToPolygons(polygons, p);
  },
  geo_intersects_2lines: ([a, b]) => {
    const l1 = readLineShape(a);
    const l2 = readLineShape(b);
    return l1 === null || l2 === null ? null : linesIntersect(l1.lines, l2.lines);
  },
  geo_intersects_line_with_polygon: ([a, b]) => {
    const line = readLineShape(a);
    const polygons = readPolygons(b);
    return line === null || polygons === null ? null : lineIntersectsPolygons(line.lines, polygons);
  },
  geo_intersects_2polygons: ([a, b]) => {
    const p1 = readPolygons(a);
    const p2 = readPolygons(b);
    return p1 === null || p2 === null ? null : polygonsIntersect(p1, p2);
  },
  ...GEO_CELL_FUNCTIONS,
};

/** The one line of a LineString (or of a MultiLineString holding one line): the interpolate/locate input. */
function singleLine(v: unknown): LngLat[] | null {
  const shape = readLineShape(v);
  return shape === null || shape.lines.length !== 1 ? null : shape.lines[0];
}

/** `tolerance` (meters, default 10, valid 0.1–10000) and `preserve_crossing` (default false), else null. */
function densifyOptions(
  args: unknown[],
  kinds: ColumnKind[],
): { tolerance: number; crossing: boolean } | null {
  let tolerance = DENSIFY_TOLERANCE.fallback;
  if (args.length > 1) {
    const t = num(args[1], kinds[1]);
    if (t === null || !(t >= DENSIFY_TOLERANCE.min && t <= DENSIFY_TOLERANCE.max)) return null;
    tolerance = t;
  }
  let crossing = false;
  if (args.length > 2) {
    if (typeof args[2] !== 'boolean') return null;
    crossing = args[2];
  }
  return { tolerance, crossing };
}

function isMultiPolygon(v: unknown): boolean {
  let shape = v;
  if (typeof shape === 'string') {
    try {
      shape = JSON.parse(shape);
    } catch {
      return false;
    }
  }
  return (shape as { type?: unknown } | null)?.type === 'MultiPolygon';
}
