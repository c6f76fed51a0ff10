/**
 * The geo_* functions of Kusto (Quarry extensions: Axiom's APL has none of them). Each follows its Kusto
 * reference page: coordinates are (longitude, latitude) in degrees, valid in [-180, 180] × [-90, 90];
 * shapes are GeoJSON; an invalid coordinate, shape, level or cell token gives null.
 */
import { cellToLatLng, cellToParent, getResolution, isValidCell, latLngToCell } from 'h3-js';
import { S2CellId, S2LatLng } from 'nodes2ts';
import { geohashDecode, geohashEncode, geohashNeighbors, GEOHASH_MAX_LENGTH } from './geo-geohash';
import { readLines, readPolygons } from './geo-geojson';
import { polygonArea, polygonCentroid, polygonContains, polygonPerimeter } from './geo-polygon';
import {
  angleBetween,
  angleToArc,
  EARTH_RADIUS_M,
  isValidLat,
  isValidLng,
  spheroidDistance,
  toVec,
  type LngLat,
} from './geo-sphere';
import { num, str, type ScalarImpl } from './scalar-impl';
import type { ColumnKind } from '@quarry/contracts';

const point = (p: LngLat): { type: 'Point'; coordinates: [number, number] } => ({
  type: 'Point',
  coordinates: [p[0], p[1]],
});

/** Arguments `i` and `i + 1` as a valid (longitude, latitude), else null. */
function lngLatAt(args: unknown[], kinds: ColumnKind[], i: number): LngLat | null {
  const lng = num(args[i], kinds[i]);
  const lat = num(args[i + 1], kinds[i + 1]);
  if (lng === null || lat === null || !isValidLng(lng) || !isValidLat(lat)) return null;
  return [lng, lat];
}

/** An optional integer argument: its default when absent, null when null or out of [min, max]. */
function levelAt(
  args: unknown[],
  kinds: ColumnKind[],
  i: number,
  fallback: number,
  min: number,
  max: number,
): number | null {
  if (args.length <= i) return fallback;
  const v = num(args[i], kinds[i]);
  if (v === null || !Number.isInteger(v) || v < min || v > max) return null;
  return v;
}

/** Great-circle distance in meters. */
export function sphereDistance(a: LngLat, b: LngLat): number {
  return angleBetween(toVec(a[0], a[1]), toVec(b[0], b[1])) * EARTH_RADIUS_M;
}

const S2_TOKEN = /^[0-9a-f]{1,16}$/i;

function s2CellOf(token: string): S2CellId | null {
  if (!S2_TOKEN.test(token)) return null;
  try {
    const cell = S2CellId.fromToken(token.toLowerCase());
    return cell.isValid() ? cell : null;
  } catch {
    return null;
  }
}

const h3Cell = (v: unknown, k: ColumnKind): string | null => {
  const s = str(v, k)?.trim().toLowerCase() ?? null;
  return s !== null && /^[0-9a-f]{15,16}$/.test(s) && isValidCell(s) ? s : null;
};

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
  // S2 (default level 11, valid 0..30)
  geo_point_to_s2cell: (args, kinds) => {
    const p = lngLatAt(args, kinds, 0);
    const level = levelAt(args, kinds, 2, 11, 0, 30);
    if (p === null || level === null) return null;
    return S2CellId.fromPoint(S2LatLng.fromDegrees(p[1], p[0]).toPoint()).parentL(level).toToken();
  },
  geo_s2cell_to_central_point: ([v], [k]) => {
    const s = str(v, k);
    const cell = s === null ? null : s2CellOf(s.trim());
    if (cell === null) return null;
    const ll = S2LatLng.fromPoint(cell.toPoint());
    return point([ll.lngDegrees, ll.latDegrees]);
  },
  // H3 (default resolution 6, valid 0..15)
  geo_point_to_h3cell: (args, kinds) => {
    const p = lngLatAt(args, kinds, 0);
    const resolution = levelAt(args, kinds, 2, 6, 0, 15);
    return p === null || resolution === null ? null : latLngToCell(p[1], p[0], resolution);
  },
  geo_h3cell_to_central_point: ([v], [k]) => {
    const cell = h3Cell(v, k);
    if (cell === null) return null;
    const [lat, lng] = cellToLatLng(cell);
    return point([lng, lat]);
  },
  geo_h3cell_level: ([v], [k]) => {
    const cell = h3Cell(v, k);
    return cell === null ? null : getResolution(cell);
  },
  geo_h3cell_parent: (args, kinds) => {
    const cell = h3Cell(args[0], kinds[0]);
    if (cell === null) return null;
    const level = getResolution(cell);
    const parent = levelAt(args, kinds, 1, level - 1, 0, 14);
    if (parent === null || parent < 0 || parent > level) return null;
    return cellToParent(cell, parent);
  },
};
