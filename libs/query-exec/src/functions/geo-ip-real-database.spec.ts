/**
 * `geo_info_from_ip_address` against a real MaxMind City database, which the repository cannot ship (its
 * licence needs a MaxMind account). Runs only when QUARRY_GEOIP_TEST_DATABASE names a GeoLite2-City or
 * GeoIP2-City file, and is skipped otherwise (CI has none): `geo-ip.spec.ts` tests the same code on
 * databases it writes itself. The assertions hold for any recent release: places, not coordinates.
 *
 *   QUARRY_GEOIP_TEST_DATABASE=/path/GeoLite2-City.mmdb npx jest libs/query-exec/src/functions/geo-ip-real-database.spec.ts --selectProjects unit
 */
import { geoInfoFromIpAddress, geoIpReader, resetGeoIpReader } from './geo-ip';

const DATABASE = process.env.QUARRY_GEOIP_TEST_DATABASE?.trim();
const describeWithDatabase = DATABASE ? describe : describe.skip;

describeWithDatabase('geo_info_from_ip_address on a MaxMind City database', () => {
  const reader = () => geoIpReader({ QUARRY_GEOIP_DATABASE: DATABASE });
  afterAll(() => resetGeoIpReader());

  it("answers Kusto's page example (20.53.203.50, Sydney) with the page's keys in its order", () => {
    const got = geoInfoFromIpAddress('20.53.203.50', reader())!;
    expect(Object.keys(got)).toEqual([
      'country',
      'state',
      'city',
      'latitude',
      'longitude',
      'country_iso',
      'state_iso',
    ]);
    expect(got).toMatchObject({
      country: 'Australia',
      state: 'New South Wales',
      country_iso: 'AU',
      state_iso: 'NSW',
    });
    expect(got.latitude as number).toBeCloseTo(-33.87, 0);
    expect(got.longitude as number).toBeCloseTo(151.2, 0);
    // The same address written as IPv4-mapped IPv6.
    expect(geoInfoFromIpAddress('::ffff:20.53.203.50', reader())).toEqual(got);
  });

  it("places the page's IPv6 example in Florida, United States", () => {
    const got = geoInfoFromIpAddress('2a03:2880:f12c:83:face:b00c::25de', reader())!;
    expect(got).toMatchObject({
      country: 'United States',
      state: 'Florida',
      country_iso: 'US',
      state_iso: 'FL',
    });
  });

  it('leaves out keys the record lacks (an address known only to its country)', () => {
    const got = geoInfoFromIpAddress('8.8.8.8', reader())!;
    expect(got).toMatchObject({ country: 'United States', country_iso: 'US' });
    expect(got).not.toHaveProperty('city');
  });

  it('is null for private and reserved addresses and for text that is not an address', () => {
    for (const ip of ['10.0.0.1', '192.168.1.1', '127.0.0.1', '::1', '20.53.203.50/24', '300.1.1.1', 'x'])
      expect(geoInfoFromIpAddress(ip, reader())).toBeNull();
  });
});
