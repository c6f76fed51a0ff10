/**
 * Geohash (https://en.wikipedia.org/wiki/Geohash) as Kusto's geo_point_to_geohash,
 * geo_geohash_to_central_point, geo_geohash_to_polygon and geo_geohash_neighbors pages define it:
 * 1 to 18 characters of the base-32 alphabet, bits alternating longitude and latitude from the first.
 */

const ALPHABET = '0123456789bcdefghjkmnpqrstuvwxyz';
const VALUE = new Map([...ALPHABET].map((ch, i) => [ch, i]));

export const GEOHASH_MAX_LENGTH = 18;

export interface GeohashBox {
  west: number;
  east: number;
  south: number;
  north: number;
}

/** The geohash of a point with `length` characters (caller checks ranges). */
export function geohashEncode(lng: number, lat: number, length: number): string {
  let west = -180;
  let east = 180;
  let south = -90;
  let north = 90;
  let text = '';
  let bits = 0;
  let value = 0;
  let evenBit = true;
  while (text.length < length) {
    if (evenBit) {
      const mid = (west + east) / 2;
      if (lng >= mid) {
        value = value * 2 + 1;
        west = mid;
      } else {
        value *= 2;
        east = mid;
      }
    } else {
      const mid = (south + north) / 2;
      if (lat >= mid) {
        value = value * 2 + 1;
        south = mid;
      } else {
        value *= 2;
        north = mid;
      }
    }
    evenBit = !evenBit;
    if (++bits === 5) {
      text += ALPHABET[value];
      bits = 0;
      value = 0;
    }
  }
  return text;
}

/** The rectangle a geohash names, or null when it is not 1–18 characters of the alphabet. */
export function geohashDecode(hash: string): GeohashBox | null {
  if (hash.length < 1 || hash.length > GEOHASH_MAX_LENGTH) return null;
  const box = { west: -180, east: 180, south: -90, north: 90 };
  let evenBit = true;
  for (const ch of hash) {
    const v = VALUE.get(ch);
    if (v === undefined) return null;
    for (let bit = 4; bit >= 0; bit--) {
      const on = ((v >> bit) & 1) === 1;
      if (evenBit) {
        const mid = (box.west + box.east) / 2;
        if (on) box.west = mid;
        else box.east = mid;
      } else {
        const mid = (box.south + box.north) / 2;
        if (on) box.south = mid;
        else box.north = mid;
      }
      evenBit = !evenBit;
    }
  }
  return box;
}

/**
 * The cells around a geohash, of its length, in the order Kusto's page shows for "sunny" (south-west,
 * north-west, south-east, north, west, north-east, east, south). Longitude wraps at the antimeridian;
 * cells beyond a pole do not exist and are left out.
 */
export function geohashNeighbors(hash: string): string[] | null {
  const box = geohashDecode(hash);
  if (box === null) return null;
  const width = box.east - box.west;
  const height = box.north - box.south;
  const lng = (box.west + box.east) / 2;
  const lat = (box.south + box.north) / 2;
  const steps: [number, number][] = [
    [-1, -1],
    [-1, 1],
    [1, -1],
    [0, 1],
    [-1, 0],
    [1, 1],
    [1, 0],
    [0, -1],
  ];
  const out: string[] = [];
  for (const [dx, dy] of steps) {
    const y = lat + dy * height;
    if (y < -90 || y > 90) continue;
    let x = lng + dx * width;
    if (x >= 180) x -= 360;
    if (x < -180) x += 360;
    out.push(geohashEncode(x, y, hash.length));
  }
  return out;
}
