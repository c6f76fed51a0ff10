/**
 * Laws of ipv4_is_in_any_range (issue 19 audit, round 2): it is the `or` of ipv4_is_in_range over its
 * ranges, given one by one or as an array; an unreadable range gives null unless another range holds
 * the address (Kusto's page: null when a text cannot be read). The fast-check seed is shared by the run
 * (test/support/fast-check-seed.ts).
 */
import fc from 'fast-check';
import type { ColumnKind } from '@quarry/contracts';
import { HASH_IP_FUNCTIONS } from './hash-ip';

const octet = fc.integer({ min: 0, max: 255 });
const address = fc.tuple(octet, octet, octet, octet).map((o) => o.join('.'));
const range = fc.tuple(address, fc.integer({ min: 0, max: 32 })).map(([a, bits]) => `${a}/${bits}`);
const kinds = (n: number): ColumnKind[] => Array.from({ length: n }, () => 'string');

const inRange = (ip: string, r: string) => HASH_IP_FUNCTIONS.ipv4_is_in_range([ip, r], kinds(2));
const inAny = (args: unknown[]) => HASH_IP_FUNCTIONS.ipv4_is_in_any_range(args, kinds(args.length));

describe('ipv4_is_in_any_range', () => {
  it('is the or of ipv4_is_in_range over its ranges, as arguments or as one array', () => {
    fc.assert(
      fc.property(address, fc.array(range, { minLength: 1, maxLength: 6 }), (ip, ranges) => {
        const expected = ranges.some((r) => inRange(ip, r) === true);
        expect(inAny([ip, ...ranges])).toBe(expected);
        expect(HASH_IP_FUNCTIONS.ipv4_is_in_any_range([ip, ranges], ['string', 'dynamic'])).toBe(expected);
      }),
    );
  });

  it('is null with an unreadable range unless another range holds the address', () => {
    fc.assert(
      fc.property(address, fc.array(range, { maxLength: 4 }), (ip, ranges) => {
        const expected = ranges.some((r) => inRange(ip, r) === true) ? true : null;
        expect(inAny([ip, ...ranges, '300.1.2.3/8'])).toBe(expected);
      }),
    );
    expect(inAny(['not an ip', '10.0.0.0/8'])).toBeNull();
  });
});
