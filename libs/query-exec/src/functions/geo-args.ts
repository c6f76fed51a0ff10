import type { ColumnKind } from '@quarry/contracts';
import { isValidLat, isValidLng, type LngLat } from './geo-sphere';
import { num } from './scalar-impl';

/** Arguments shared by the geo_* functions (geo.ts, geo-cells.ts). */

export const point = (p: LngLat): { type: 'Point'; coordinates: [number, number] } => ({
  type: 'Point',
  coordinates: [p[0], p[1]],
});

/** Arguments `i` and `i + 1` as a valid (longitude, latitude), else null. */
export function lngLatAt(args: unknown[], kinds: ColumnKind[], i: number): LngLat | null {
  const lng = num(args[i], kinds[i]);
  const lat = num(args[i + 1], kinds[i + 1]);
  if (lng === null || lat === null || !isValidLng(lng) || !isValidLat(lat)) return null;
  return [lng, lat];
}

/** An optional integer argument: its default when absent, null when null or out of [min, max]. */
export function levelAt(
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
