/**
 * geo_polygon_to_h3cells (Kusto's geo-polygon-to-h3cells-function page): the H3 cells of one resolution
 * whose centroids are inside the (multi)polygon, through h3-js's polygonToCells, which reads edges as
 * straight lines in longitude/latitude as the page says. With a positive `radius` the polygon is first
 * buffered (geo-buffers.ts, default 10 m tolerance). More than 61,680 cells is null (the page's limit);
 * the count is estimated from the area before any cell is listed, so a huge request stays cheap.
 * Cells come in h3-js's order, which is not the page's (its example lists the same 13 cells).
 */
import type { ColumnKind } from '@quarry/contracts';
import { getHexagonAreaAvg, polygonToCells } from 'h3-js';
import { levelAt } from './geo-args';
import { polygonBuffer } from './geo-buffers';
import { readPolygons, type LngLatPolygon } from './geo-geojson';
import { polygonArea } from './geo-polygon';
import { num, type ScalarImpl } from './scalar-impl';

export const MAX_H3_CELLS = 61_680;

const closed = (ring: readonly (readonly [number, number])[]): number[][] => [
  ...ring.map((p) => [p[0], p[1]]),
  [ring[0][0], ring[0][1]],
];

export function polygonToH3Cells(args: unknown[], kinds: ColumnKind[]): unknown {
  let polygons: LngLatPolygon[] | null = readPolygons(args[0]);
  const resolution = levelAt(args, kinds, 1, 6, 0, 15);
  if (polygons === null || resolution === null) return null;
  if (args.length > 2) {
    const radius = num(args[2], kinds[2]);
    if (radius === null || !Number.isFinite(radius) || radius < 0) return null;
    if (radius > 0) {
      const buffered = polygonBuffer([args[0], radius], ['dynamic', 'real']);
      polygons = buffered === null ? null : readPolygons(buffered);
      if (polygons === null) return null;
    }
  }
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
  geo_polygon_to_h3cells: polygonToH3Cells,
};
