/**
 * The S2 and H3 cell functions of Kusto (geo_point_to_s2cell, geo_s2cell_*, geo_point_to_h3cell,
 * geo_h3cell_*), on Google's S2 through nodes2ts and Uber's H3 through h3-js. Tokens are the libraries'
 * own (S2: the cell id in hex without trailing zeros; H3: the 15-digit index); invalid input is null.
 */
import {
  cellToBoundary,
  cellToChildren,
  cellToLatLng,
  cellToParent,
  getResolution,
  gridDisk,
  gridDiskDistances,
  isValidCell,
  latLngToCell,
} from 'h3-js';
import { S2Cell, S2CellId, S2LatLng } from 'nodes2ts';
import type { ColumnKind } from '@quarry/contracts';
import { levelAt, lngLatAt, point } from './geo-args';
import { num, str, type ScalarImpl } from './scalar-impl';

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

const s2Token = (v: unknown, k: ColumnKind): S2CellId | null => {
  const s = str(v, k);
  return s === null ? null : s2CellOf(s.trim());
};

/** The cell's corners, counterclockwise from S2's vertex 0, closed (as Kusto's geo_s2cell_to_polygon page). */
function s2Polygon(id: S2CellId): { type: 'Polygon'; coordinates: number[][][] } {
  const cell = new S2Cell(id);
  const ring: number[][] = [];
  for (let k = 0; k < 4; k++) {
    const ll = S2LatLng.fromPoint(cell.getVertex(k));
    ring.push([ll.lngDegrees, ll.latDegrees]);
  }
  ring.push(ring[0]);
  return { type: 'Polygon', coordinates: [ring] };
}

export const GEO_CELL_FUNCTIONS: Record<string, ScalarImpl> = {
  // S2 (default level 11, valid 0..30)
  geo_point_to_s2cell: (args, kinds) => {
    const p = lngLatAt(args, kinds, 0);
    const level = levelAt(args, kinds, 2, 11, 0, 30);
    if (p === null || level === null) return null;
    return S2CellId.fromPoint(S2LatLng.fromDegrees(p[1], p[0]).toPoint()).parentL(level).toToken();
  },
  geo_s2cell_to_central_point: ([v], [k]) => {
    const cell = s2Token(v, k);
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
  geo_s2cell_to_polygon: ([v], [k]) => {
    const cell = s2Token(v, k);
    return cell === null ? null : s2Polygon(cell);
  },
  // The eight cells around (edge and corner neighbors), in S2's own order (AppendAllNeighbors).
  geo_s2cell_neighbors: ([v], [k]) => {
    const cell = s2Token(v, k);
    if (cell === null) return null;
    return cell.getAllNeighbors(cell.level()).map((n) => n.toToken());
  },
  geo_h3cell_to_polygon: ([v], [k]) => {
    const cell = h3Cell(v, k);
    return cell === null ? null : { type: 'Polygon', coordinates: [cellToBoundary(cell, true)] };
  },
  // Children at a finer resolution (default the next), at most 5 levels down (up to 16807 cells).
  geo_h3cell_children: (args, kinds) => {
    const cell = h3Cell(args[0], kinds[0]);
    if (cell === null) return null;
    const level = getResolution(cell);
    const child = levelAt(args, kinds, 1, level + 1, 1, 15);
    if (child === null || child < level || child - level > 5) return null;
    return cellToChildren(cell, child);
  },
  // The six (five for a pentagon) cells around, in H3's grid-disk order.
  geo_h3cell_neighbors: ([v], [k]) => {
    const cell = h3Cell(v, k);
    return cell === null ? null : gridDisk(cell, 1).filter((n) => n !== cell);
  },
  // Rings 0..distance around the cell (distance 0..142), each in H3's order.
  geo_h3cell_rings: (args, kinds) => {
    const cell = h3Cell(args[0], kinds[0]);
    const distance = num(args[1], kinds[1]);
    if (cell === null || distance === null || !Number.isInteger(distance) || distance < 0 || distance > 142)
      return null;
    try {
      return gridDiskDistances(cell, distance);
    } catch {
      return null;
    }
  },
};
