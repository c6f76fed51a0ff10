import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { QuarryError } from '@quarry/common';
import { Reader, type CityResponse } from 'maxmind';
import { lru } from 'tiny-lru';
import { str, type ScalarImpl } from './scalar-impl';

/** Path of a MaxMind City database (GeoLite2-City or GeoIP2-City `.mmdb`). */
export const GEOIP_DATABASE_ENV = 'QUARRY_GEOIP_DATABASE';

const FUNCTION = 'geo_info_from_ip_address';

/**
 * One reader per thread and path: queries run on worker threads, each loads the file once (synchronously,
 * on the first call) and keeps it; a GeoLite2-City file is about 70 MB.
 */
let cached: { path: string; reader: Reader<CityResponse> } | null = null;

function unavailable(reason: string, cause?: unknown): QuarryError {
  return new QuarryError(
    'invalid',
    `${FUNCTION} needs a GeoIP database: ${reason}; set ${GEOIP_DATABASE_ENV} to the path of a MaxMind City ` +
      `database (GeoLite2-City.mmdb or GeoIP2-City.mmdb)`,
    { code: 'apl_invalid_argument', details: { name: FUNCTION, reason }, cause },
  );
}

/** The configured database's reader, loaded on first use; a 400 error when it is missing or unreadable. */
export function geoIpReader(env: NodeJS.ProcessEnv = process.env): Reader<CityResponse> {
  const path = env[GEOIP_DATABASE_ENV]?.trim();
  if (path === undefined || path === '') throw unavailable(`${GEOIP_DATABASE_ENV} is not set`);
  if (cached !== null && cached.path === path) return cached.reader;
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    throw unavailable(`cannot read '${path}' (${(e as NodeJS.ErrnoException).code ?? 'error'})`, e);
  }
  let reader: Reader<CityResponse>;
  try {
    reader = new Reader<CityResponse>(bytes, { cache: lru(RECORD_CACHE_ENTRIES) });
  } catch (e) {
    throw unavailable(`'${path}' is not a MaxMind DB file (${(e as Error).message})`, e);
  }
  // City and Enterprise databases have the City layout; a Country or ASN file would answer null everywhere.
  if (!/city|enterprise/i.test(String(reader.metadata.databaseType))) {
    throw unavailable(`'${path}' is a ${String(reader.metadata.databaseType)} database, not a City database`);
  }
  cached = { path, reader };
  return reader;
}

/**
 * Decoded records kept per thread, by data-section offset (tiny-lru, the cache `maxmind.open` itself uses).
 * Many networks share one record (a city's), and decoding a City record costs several microseconds.
 */
const RECORD_CACHE_ENTRIES = 4096;

/** Forgets the loaded database (tests; a changed file is otherwise read again only by a new thread). */
export function resetGeoIpReader(): void {
  cached = null;
}

/**
 * `geo_info_from_ip_address(ip)`: the bag Kusto's page shows, `{country, state, city, latitude, longitude}`,
 * plus Axiom's `country_iso` and `state_iso`; keys the record lacks are left out. Null for text that is not
 * an IPv4/IPv6 address and for addresses the database has no record of (private, reserved, unknown).
 */
export function geoInfoFromIpAddress(
  ip: string | null,
  reader: Reader<CityResponse>,
): Record<string, unknown> | null {
  if (ip === null) return null;
  const text = ip.trim();
  // Zone ids (`fe80::1%eth0`) name a local interface: never in a GeoIP database.
  if (isIP(text) === 0 || text.includes('%')) return null;
  let record: CityResponse | null;
  try {
    record = reader.get(text);
  } catch (e) {
    throw unavailable(`the database is corrupt (${(e as Error).message})`, e);
  }
  if (record === null || typeof record !== 'object') return null;
  const subdivision = record.subdivisions?.[0];
  const bag: Record<string, unknown> = {};
  put(bag, 'country', record.country?.names?.en);
  put(bag, 'state', subdivision?.names?.en);
  put(bag, 'city', record.city?.names?.en);
  put(bag, 'latitude', record.location?.latitude);
  put(bag, 'longitude', record.location?.longitude);
  put(bag, 'country_iso', record.country?.iso_code);
  put(bag, 'state_iso', subdivision?.iso_code);
  return Object.keys(bag).length === 0 ? null : bag;
}

function put(bag: Record<string, unknown>, key: string, value: unknown): void {
  if (typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value))) bag[key] = value;
}

export const GEO_IP_FUNCTIONS: Record<string, ScalarImpl> = {
  // The database is looked up before the argument so that an unconfigured server says so on every query.
  geo_info_from_ip_address: ([v], [k]) => geoInfoFromIpAddress(str(v, k), geoIpReader()),
};
