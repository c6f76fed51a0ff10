import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { QuarryError } from '@quarry/common';
import fc from 'fast-check';
import { Reader } from 'maxmind';
import {
  GEOIP_DATABASE_ENV,
  GEO_IP_FUNCTIONS,
  geoInfoFromIpAddress,
  geoIpReader,
  resetGeoIpReader,
} from './geo-ip';
import { type MmdbNetwork, type MmdbValue, uint32, writeMmdb } from './testing/mmdb-writer';

/** A GeoLite2-City shaped record (the fields MaxMind's City databases carry, trimmed). */
function cityRecord(r: {
  country: string;
  countryIso: string;
  state?: string;
  stateIso?: string;
  city?: string;
  lat: number;
  lon: number;
}): MmdbValue {
  const rec: Record<string, MmdbValue> = {
    continent: { code: 'XX', geoname_id: uint32(1), names: { en: 'Somewhere', de: 'Irgendwo' } },
    country: {
      geoname_id: uint32(2),
      iso_code: r.countryIso,
      names: { en: r.country, fr: `${r.country} (fr)` },
    },
    location: { accuracy_radius: uint32(20), latitude: r.lat, longitude: r.lon, time_zone: 'UTC' },
  };
  if (r.state !== undefined) {
    rec.subdivisions = [{ geoname_id: uint32(3), iso_code: r.stateIso ?? '', names: { en: r.state } }];
  }
  if (r.city !== undefined) rec.city = { geoname_id: uint32(4), names: { en: r.city } };
  return rec;
}

// The two examples of Kusto's geo-info-from-ip-address-function page, with the page's answers as records.
const SYDNEY = cityRecord({
  country: 'Australia',
  countryIso: 'AU',
  state: 'New South Wales',
  stateIso: 'NSW',
  city: 'Sydney',
  lat: -33.8715,
  lon: 151.2006,
});
const BOCA_RATON = cityRecord({
  country: 'United States',
  countryIso: 'US',
  state: 'Florida',
  stateIso: 'FL',
  city: 'Boca Raton',
  lat: 26.3594,
  lon: -80.0771,
});
const COUNTRY_ONLY = cityRecord({ country: 'Japan', countryIso: 'JP', lat: 35.69, lon: 139.69 });

const NETWORKS: MmdbNetwork[] = [
  { cidr: '20.53.200.0/21', data: SYDNEY },
  { cidr: '2a03:2880:f12c::/48', data: BOCA_RATON },
  { cidr: '1.0.16.0/20', data: COUNTRY_ONLY },
];

describe('testing/mmdb-writer (checked with the maxmind reader)', () => {
  it.each([24, 28, 32] as const)('writes a database the reader parses, record size %d', (recordSize) => {
    const reader = new Reader(writeMmdb(NETWORKS, { recordSize }));
    expect(reader.metadata.recordSize).toBe(recordSize);
    expect(reader.metadata.ipVersion).toBe(6);
    expect(reader.metadata.databaseType).toBe('GeoLite2-City');
    expect(reader.metadata.buildEpoch.getTime()).toBe(1_700_000_000_000);
    expect(reader.get('20.53.203.50')).toEqual(decoded(SYDNEY));
    // The reader counts an IPv4 prefix from the start of the IPv4 subtree.
    expect(reader.getWithPrefixLength('20.53.203.50')[1]).toBe(21);
    expect(reader.get('2a03:2880:f12c:83:face:b00c::25de')).toEqual(decoded(BOCA_RATON));
    expect(reader.get('20.53.208.1')).toBeNull();
    expect(reader.get('2a03:2880:f12d::1')).toBeNull();
  });

  it('encodes long strings, big maps and arrays with the size extension bytes', () => {
    const long = 'x'.repeat(300);
    const longer = 'y'.repeat(70_000);
    const many: Record<string, MmdbValue> = {};
    for (let i = 0; i < 40; i++) many[`k${i}`] = i + 0.5;
    const data: MmdbValue = {
      long,
      longer,
      many,
      list: Array.from({ length: 30 }, (_, i) => `v${i}`),
      t: true,
    };
    const reader = new Reader(writeMmdb([{ cidr: '10.0.0.0/8', data }]));
    expect(reader.get('10.1.2.3')).toEqual(data);
  });

  it('lets a later network override the part of an earlier one it covers', () => {
    const reader = new Reader(
      writeMmdb([
        { cidr: '10.0.0.0/8', data: { n: 'wide' } },
        { cidr: '10.1.0.0/16', data: { n: 'narrow' } },
      ]),
    );
    expect(reader.get('10.1.200.3')).toEqual({ n: 'narrow' });
    expect(reader.get('10.2.0.1')).toEqual({ n: 'wide' });
    expect(reader.get('11.0.0.1')).toBeNull();
  });
});

/** What the reader gives back for a written record: unsigned integers become numbers. */
function decoded(v: MmdbValue): unknown {
  return JSON.parse(JSON.stringify(v, (_k, x: unknown) => (isUint(x) ? Number(x.value) : x)));
}
function isUint(x: unknown): x is { value: number | bigint; bits: number } {
  return typeof x === 'object' && x !== null && 'bits' in x && 'value' in x;
}

describe('geo_info_from_ip_address', () => {
  let dir: string;
  let dbPath: string;
  const saved = process.env[GEOIP_DATABASE_ENV];

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'quarry-geoip-'));
    dbPath = join(dir, 'GeoLite2-City.mmdb');
    writeFileSync(dbPath, writeMmdb(NETWORKS));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
    if (saved === undefined) delete process.env[GEOIP_DATABASE_ENV];
    else process.env[GEOIP_DATABASE_ENV] = saved;
  });
  beforeEach(() => resetGeoIpReader());

  const call = (ip: unknown): unknown => GEO_IP_FUNCTIONS.geo_info_from_ip_address([ip], ['string']);

  it("answers Kusto's two examples (IPv4 and IPv6) in the page's shape plus Axiom's ISO codes", () => {
    process.env[GEOIP_DATABASE_ENV] = dbPath;
    const v4 = call('20.53.203.50');
    expect(v4).toEqual({
      country: 'Australia',
      state: 'New South Wales',
      city: 'Sydney',
      latitude: -33.8715,
      longitude: 151.2006,
      country_iso: 'AU',
      state_iso: 'NSW',
    });
    // The page's key order: country, state, city, latitude, longitude.
    expect(Object.keys(v4 as object).slice(0, 5)).toEqual([
      'country',
      'state',
      'city',
      'latitude',
      'longitude',
    ]);
    expect(call('2a03:2880:f12c:83:face:b00c::25de')).toEqual({
      country: 'United States',
      state: 'Florida',
      city: 'Boca Raton',
      latitude: 26.3594,
      longitude: -80.0771,
      country_iso: 'US',
      state_iso: 'FL',
    });
  });

  it('leaves out the keys a record lacks (no subdivision, no city)', () => {
    process.env[GEOIP_DATABASE_ENV] = dbPath;
    expect(call('1.0.16.1')).toEqual({
      country: 'Japan',
      latitude: 35.69,
      longitude: 139.69,
      country_iso: 'JP',
    });
  });

  it.each([
    ['an address in no network', '8.8.8.8'],
    ['a private address', '192.168.1.1'],
    ['loopback IPv6', '::1'],
    ['invalid text', 'not an ip'],
    ['an octet over 255', '20.53.203.256'],
    ['CIDR text', '20.53.203.50/24'],
    ['an IPv6 zone id', 'fe80::1%eth0'],
    ['empty text', ''],
    ['null', null],
  ])('answers null for %s', (_what, ip) => {
    process.env[GEOIP_DATABASE_ENV] = dbPath;
    expect(call(ip)).toBeNull();
  });

  it('answers a fresh bag each time (a changed answer does not change the next lookup)', () => {
    process.env[GEOIP_DATABASE_ENV] = dbPath;
    const first = call('20.53.203.50') as Record<string, unknown>;
    first.city = 'changed';
    delete first.country;
    expect(call('20.53.201.7')).toMatchObject({ country: 'Australia', city: 'Sydney' });
  });

  it('loads the database once per thread and keeps it', () => {
    process.env[GEOIP_DATABASE_ENV] = dbPath;
    expect(geoIpReader()).toBe(geoIpReader());
  });

  function expectConfigError(run: () => unknown, reason: RegExp): void {
    let error: unknown;
    try {
      run();
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(QuarryError);
    const q = error as QuarryError;
    expect(q.kind).toBe('invalid');
    expect(q.code).toBe('apl_invalid_argument');
    expect(q.message).toContain(`set ${GEOIP_DATABASE_ENV} to the path of a MaxMind City database`);
    expect(q.message).toMatch(reason);
  }

  it('fails with a 400 error naming the variable when QUARRY_GEOIP_DATABASE is not set', () => {
    delete process.env[GEOIP_DATABASE_ENV];
    expectConfigError(() => call('20.53.203.50'), /QUARRY_GEOIP_DATABASE is not set/);
    // Even for a null argument: an unconfigured server says so on every query.
    expectConfigError(() => call(null), /is not set/);
  });

  it('fails with a 400 error for a missing file, a garbage file and a non-City database', () => {
    process.env[GEOIP_DATABASE_ENV] = join(dir, 'missing.mmdb');
    expectConfigError(() => call('20.53.203.50'), /cannot read .*missing\.mmdb.*ENOENT/);

    const garbage = join(dir, 'garbage.mmdb');
    writeFileSync(garbage, Buffer.from('this is not a MaxMind database at all, just some text'.repeat(20)));
    process.env[GEOIP_DATABASE_ENV] = garbage;
    expectConfigError(() => call('20.53.203.50'), /is not a MaxMind DB file/);

    const asn = join(dir, 'GeoLite2-ASN.mmdb');
    writeFileSync(
      asn,
      writeMmdb([{ cidr: '20.0.0.0/8', data: { autonomous_system_number: uint32(8075) } }], {
        databaseType: 'GeoLite2-ASN',
      }),
    );
    process.env[GEOIP_DATABASE_ENV] = asn;
    expectConfigError(() => call('20.53.203.50'), /GeoLite2-ASN database, not a City database/);
  });

  it('property: an address inside a generated network gets that network; outside any network, null', () => {
    // Random disjoint IPv4 and IPv6 networks, each with its own record; addresses drawn inside and around them.
    const v4Network = fc.record({
      a: fc.integer({ min: 1, max: 223 }),
      rest: fc.nat(0xffffff),
      prefix: fc.integer({ min: 8, max: 32 }),
    });
    const v6Network = fc.record({
      groups: fc.array(fc.nat(0xffff), { minLength: 8, maxLength: 8 }),
      prefix: fc.integer({ min: 16, max: 128 }),
    });
    fc.assert(
      fc.property(
        fc.array(v4Network, { minLength: 1, maxLength: 6 }),
        fc.array(v6Network, { minLength: 1, maxLength: 6 }),
        fc.array(fc.nat(), { minLength: 4, maxLength: 4 }),
        fc.array(fc.tuple(fc.nat(0xffffffff), fc.nat(0xffffffff), fc.nat(0xffffffff), fc.nat(0xffffffff)), {
          minLength: 4,
          maxLength: 4,
        }),
        (v4s, v6s, v4Probes, v6Probes) => {
          const networks: { cidr: string; lo: bigint; hi: bigint; data: MmdbValue }[] = [];
          const add = (lo: bigint, hi: bigint, cidr: string): void => {
            if (networks.some((n) => lo <= n.hi && n.lo <= hi)) return; // keep them disjoint
            const i = networks.length;
            networks.push({
              cidr,
              lo,
              hi,
              data: cityRecord({ country: `C${i}`, countryIso: `I${i}`, city: `city${i}`, lat: i, lon: -i }),
            });
          };
          for (const n of v4s) {
            const addr = ((n.a << 24) | n.rest) >>> 0;
            const span = 2 ** (32 - n.prefix);
            const base = addr - (addr % span);
            const lo = BigInt(base); // IPv4 a.b.c.d sits at ::a.b.c.d in the IPv6 tree
            add(lo, lo + BigInt(span) - 1n, `${v4Text(base)}/${n.prefix}`);
          }
          for (const n of v6s) {
            let value = n.groups.reduce((acc, g) => (acc << 16n) | BigInt(g), 0n);
            // Stay out of ::/96 (the IPv4 subtree) so IPv4 and IPv6 networks never overlap.
            if (value >> 32n === 0n) value |= 1n << 127n;
            const span = 1n << BigInt(128 - n.prefix);
            const lo = value - (value % span);
            add(lo, lo + span - 1n, `${v6Text(lo)}/${n.prefix}`);
          }
          const reader = new Reader<never>(writeMmdb(networks.map(({ cidr, data }) => ({ cidr, data }))));
          const expectAt = (address: bigint, text: string): void => {
            const owner = networks.find((n) => n.lo <= address && address <= n.hi);
            const got = geoInfoFromIpAddress(text, reader);
            if (owner === undefined) {
              expect(got).toBeNull();
            } else {
              const i = networks.indexOf(owner);
              expect(got).toEqual({
                country: `C${i}`,
                city: `city${i}`,
                latitude: i,
                longitude: -i,
                country_iso: `I${i}`,
              });
            }
          };
          // Inside: the first, last and a drawn address of every network; around: the neighbours and random probes.
          networks.forEach((n, k) => {
            const inside = n.lo + (BigInt(v4Probes[k % 4]) % (n.hi - n.lo + 1n));
            for (const a of [n.lo, n.hi, inside, n.lo - 1n, n.hi + 1n]) {
              if (a < 0n || a >= 1n << 128n) continue;
              expectAt(a, a < 1n << 32n ? v4Text(Number(a)) : v6Text(a));
            }
          });
          for (const p of v4Probes) expectAt(BigInt(p >>> 0), v4Text(p >>> 0));
          for (const [a, b, c, d] of v6Probes) {
            const a6 = (BigInt(a) << 96n) | (BigInt(b) << 64n) | (BigInt(c) << 32n) | BigInt(d);
            if (a6 >= 1n << 32n) expectAt(a6, v6Text(a6));
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});

function v4Text(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

function v6Text(n: bigint): string {
  const groups: string[] = [];
  for (let i = 7; i >= 0; i--) groups.push(((n >> BigInt(i * 16)) & 0xffffn).toString(16));
  return groups.join(':');
}
