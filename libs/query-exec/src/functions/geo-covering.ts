/**
 * geo_polygon_to_s2cells, geo_line_to_s2cells and geo_polygon_to_h3cells.
 *
 * geo_polygon_to_s2cells (Kusto's geo-polygon-to-s2cells-function page): every S2 cell of the level that
 * meets the (multi)polygon, whose edges are geodesics. The cells are found by a flood from the cells of
 * the polygons' vertices through neighbouring cells (edge and corner), each tested exactly in the
 * gnomonic plane of geo-boolean.ts (a cell meets a polygon when a corner of either is inside the other
 * or their edges meet). Listed in cell id order; more than 65,536 cells is null (the page's limit).
 *
 * geo_polygon_to_h3cells (Kusto's geo-polygon-to-h3cells-function page): the H3 cells of one resolution
 * whose centroids are inside the (multi)polygon, through h3-js's polygonToCells, which reads edges as
 * straight lines in longitude/latitude as the page says. With a positive `radius` the polygon is first
 * buffered (geo-buffers.ts, default 10 m tolerance). More than 61,680 cells is null (the page's limit);
 * the count is estimated from the area before any cell is listed, so a huge request stays cheap.
 * Cells come in h3-js's order, which is not the page's (its example lists the same 13 cells).
 */
import type { ColumnKind } from '@quarry/contracts';
import { getHexagonAreaAvg, polygonToCells } from 'h3-js';
import { S2Cell, S2CellId, S2LatLng, type S2Point } from 'nodes2ts';
import { meetParams, planeFor, sphereRings, toPlane, type Plane } from './geo-boolean';
import { linesLength, readLineShape } from './geo-lines';
import { levelAt } from './geo-args';
import { lineBuffer, polygonBuffer } from './geo-buffers';
import { readPolygons, type LngLatPolygon } from './geo-geojson';
import { polygonArea } from './geo-polygon';
import { EARTH_RADIUS_M, pointInPlanarRing, project, toVec, type LngLat, type Vec3 } from './geo-sphere';
import { num, type ScalarImpl } from './scalar-impl';

export const MAX_H3_CELLS = 61_680;

const closed = (ring: readonly (readonly [number, number])[]): number[][] => [
  ...ring.map((p) => [p[0], p[1]]),
  [ring[0][0], ring[0][1]],
];

export const MAX_S2_CELLS = 65_536;

/** The polygons of args[0], buffered by the optional radius at args[2] (meters, ≥ 0); null when invalid. */
function polygonsArg(args: unknown[], kinds: ColumnKind[]): LngLatPolygon[] | null {
  const polygons = readPolygons(args[0]);
  if (polygons === null || args.length <= 2) return polygons;
  const radius = num(args[2], kinds[2]);
  if (radius === null || !Number.isFinite(radius) || radius < 0) return null;
  if (radius === 0) return polygons;
  const buffered = polygonBuffer([args[0], radius], ['dynamic', 'real']);
  return buffered === null ? null : readPolygons(buffered);
}

const vec = (p: S2Point): Vec3 => [p.x, p.y, p.z];

export function polygonToS2Cells(args: unknown[], kinds: ColumnKind[]): unknown {
  const polygons = polygonsArg(args, kinds);
  const level = levelAt(args, kinds, 1, 11, 0, 30);
  if (polygons === null || level === null) return null;
  const area = polygonArea(polygons);
  if (area === null) return null;
  const cellArea = (4 * Math.PI * EARTH_RADIUS_M * EARTH_RADIUS_M) / (6 * 4 ** level);
  // S2 cells of one level vary in area by a factor of about two around the average.
  if (area / cellArea > 2 * MAX_S2_CELLS) return null;
  const shapes = sphereRings(polygons);
  const plane = planeFor(shapes);
  if (plane === null) return null;
  const planar: [number, number][][][] = [];
  for (const shape of shapes) {
    const p = toPlane(plane, shape);
    if (p === null) return null;
    planar.push(p.map((ring) => ring.slice(0, -1)));
  }
  const inside = (x: number, y: number): boolean =>
    planar.some(
      (rings) => pointInPlanarRing(x, y, rings[0]) && !rings.slice(1).some((h) => pointInPlanarRing(x, y, h)),
    );
  // The cells holding the vertices (S2's own rule for a point on a cell's border).
  const vertexCells = new Set(
    polygons.flatMap((p) =>
      [p.shell, ...p.holes].flatMap((ring) =>
        ring.map((q) =>
          S2CellId.fromPoint(S2LatLng.fromDegrees(q[1], q[0]).toPoint()).parentL(level).toToken(),
        ),
      ),
    ),
  );
  const meets = (id: S2CellId): boolean => {
    if (vertexCells.has(id.toToken())) return true;
    const quad = cellQuad(plane, id);
    if (quad === null) return false; // a cell reaching behind the projection's hemisphere is far from the shapes
    if (quad.some(([x, y]) => inside(x, y))) return true;
    for (const rings of planar)
      for (const ring of rings)
        for (let i = 0; i < ring.length; i++) {
          if (pointInPlanarRing(ring[i][0], ring[i][1], quad)) return true;
          for (let k = 0; k < 4; k++)
            if (meetParams(ring[i], ring[(i + 1) % ring.length], quad[k], quad[(k + 1) % 4]).t.length > 0)
              return true;
        }
    return false;
  };
  return floodS2(
    polygons.map((p) => p.shell[0]),
    level,
    meets,
  );
}

/**
 * The cells of `level` that `meets` accepts, found by a flood from the cells of the seed points through
 * neighbouring cells (edge and corner); in cell id order, null past the limit.
 */
function floodS2(seeds: readonly LngLat[], level: number, meets: (id: S2CellId) => boolean): string[] | null {
  const found: S2CellId[] = [];
  const seen = new Set<string>();
  const queue: S2CellId[] = [];
  for (const p of seeds) {
    const seed = S2CellId.fromPoint(S2LatLng.fromDegrees(p[1], p[0]).toPoint()).parentL(level);
    if (!seen.has(seed.toToken())) {
      seen.add(seed.toToken());
      queue.push(seed);
    }
  }
  while (queue.length > 0) {
    const id = queue.pop() as S2CellId;
    if (!meets(id)) continue;
    found.push(id);
    if (found.length > MAX_S2_CELLS) return null;
    for (const n of id.getAllNeighbors(level)) {
      const token = n.toToken();
      if (!seen.has(token)) {
        seen.add(token);
        queue.push(n);
      }
    }
  }
  found.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return found.map((id) => id.toToken());
}

/** A cell's corners in the plane, or null when one is behind the projection's hemisphere. */
function cellQuad(plane: Plane, id: S2CellId): [number, number][] | null {
  const cell = new S2Cell(id);
  const quad: [number, number][] = [];
  for (let k = 0; k < 4; k++) {
    const q = project(plane.g, vec(cell.getVertex(k)));
    if (q === null) return null;
    quad.push(q);
  }
  return quad;
}

/**
 * geo_line_to_s2cells: every cell of the level that the line or multiline (geodesic edges) meets; with a
 * positive `radius`, the cells of its buffer (geo_line_buffer) instead.
 */
export function lineToS2Cells(args: unknown[], kinds: ColumnKind[]): unknown {
  const shape = readLineShape(args[0]);
  const level = levelAt(args, kinds, 1, 11, 0, 30);
  if (shape === null || level === null) return null;
  if (args.length > 2) {
    const radius = num(args[2], kinds[2]);
    if (radius === null || !Number.isFinite(radius) || radius < 0) return null;
    if (radius > 0) {
      const buffered = lineBuffer([args[0], radius], ['dynamic', 'real']);
      return buffered === null ? null : polygonToS2Cells([buffered, level], ['dynamic', 'long']);
    }
  }
  // At least length / (2 × the average cell edge) cells: past the limit, answer before any is listed.
  const cellEdge = Math.sqrt((4 * Math.PI * EARTH_RADIUS_M * EARTH_RADIUS_M) / (6 * 4 ** level));
  if (linesLength(shape.lines) / (2 * cellEdge) > MAX_S2_CELLS) return null;
  // The cells holding the vertices (S2's own rule for a point on a cell's border).
  const vertexCells = new Set(
    shape.lines.flatMap((l) =>
      l.map((p) => S2CellId.fromPoint(S2LatLng.fromDegrees(p[1], p[0]).toPoint()).parentL(level).toToken()),
    ),
  );
  const chains = shape.lines.map((l) => [l.map((p) => toVec(p[0], p[1]))]);
  const plane = planeFor(chains);
  if (plane === null) return null;
  const planar: [number, number][][] = [];
  for (const [chain] of chains) {
    const xy: [number, number][] = [];
    for (const v of chain) {
      const q = project(plane.g, v);
      if (q === null) return null;
      xy.push(q);
    }
    planar.push(xy);
  }
  const meets = (id: S2CellId): boolean => {
    if (vertexCells.has(id.toToken())) return true;
    const quad = cellQuad(plane, id);
    if (quad === null) return false;
    for (const line of planar)
      for (let i = 0; i < line.length; i++) {
        if (pointInPlanarRing(line[i][0], line[i][1], quad)) return true;
        if (i + 1 < line.length)
          for (let k = 0; k < 4; k++)
            if (meetParams(line[i], line[i + 1], quad[k], quad[(k + 1) % 4]).t.length > 0) return true;
      }
    return false;
  };
  return floodS2(
    shape.lines.map((l) => l[0]),
    level,
    meets,
  );
}

export function polygonToH3Cells(args: unknown[], kinds: ColumnKind[]): unknown {
  const polygons = polygonsArg(args, kinds);
  const resolution = levelAt(args, kinds, 1, 6, 0, 15);
  if (polygons === null || resolution === null) return null;
  const area = polygonArea(polygons);
  if (area === null) return null;
  // Cells of one resolution vary in area by about a factor of two around the average.
  if (area / getHexagonAreaAvg(resolution, 'm2') > 2 * MAX_H3_CELLS) return null;
  const cells = new Set<string>();
  for (const p of polygons) {
    let found: string[];
    try {
      found = polygonToCells([closed(p.shell), ...p.holes.map(closed)], resolution, true);
    } catch {
      return null;
    }
    for (const c of found) cells.add(c);
    if (cells.size > MAX_H3_CELLS) return null;
  }
  return [...cells];
}

export const GEO_COVERING_FUNCTIONS: Record<string, ScalarImpl> = {
  geo_polygon_to_s2cells: polygonToS2Cells,
  geo_line_to_s2cells: lineToS2Cells,
  geo_polygon_to_h3cells: polygonToH3Cells,
};
