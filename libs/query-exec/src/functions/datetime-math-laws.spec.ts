/**
 * Laws of the datetime, math and array functions audited against Kusto's pages (issue 19, round 2):
 * period starts and ends bracket their instant and are idempotent, the unixtime conversions agree with
 * each other, gamma follows Γ(n + 1) = n·Γ(n) exactly on whole numbers and loggamma is its logarithm,
 * degrees and radians invert each other, and array_sum / array_reverse behave as their pages say.
 */
import fc from 'fast-check';
import type { ColumnKind } from '@quarry/contracts';
import { DATETIME_FUNCTIONS } from './datetime';
import { DYNAMIC_FUNCTIONS } from './dynamic';
import { MATH_FUNCTIONS } from './math';
import type { ScalarImpl } from './scalar-impl';

const IMPLS: Record<string, ScalarImpl> = { ...DATETIME_FUNCTIONS, ...MATH_FUNCTIONS, ...DYNAMIC_FUNCTIONS };

/** Calls `name` with each argument's kind given explicitly. */
const call = (name: string, args: unknown[], kinds: ColumnKind[]) => IMPLS[name](args, kinds);
const dt = (name: string, t: number, offset?: number) =>
  call(
    name,
    offset === undefined ? [t] : [t, offset],
    offset === undefined ? ['datetime'] : ['datetime', 'long'],
  );
const real = (name: string, x: number) => call(name, [x], ['real']) as number | null;

// 1900-01-01 to 2100-01-01 in whole microseconds (Quarry's precision), as epoch milliseconds.
const instant = fc
  .integer({ min: -2_208_988_800_000_000, max: 4_102_444_800_000_000 })
  .map((us) => us / 1000);
const PERIODS = ['day', 'week', 'month', 'year'] as const;

describe('startof*/endof* (Kusto pages: start of the period, its last instant, shifted by offset periods)', () => {
  it('start ≤ t ≤ end, and the start and end of the period are in the same period', () => {
    fc.assert(
      fc.property(instant, fc.constantFrom(...PERIODS), (t, p) => {
        const start = dt(`startof${p}`, t) as number;
        const end = dt(`endof${p}`, t) as number;
        expect(start).toBeLessThanOrEqual(t);
        expect(t).toBeLessThanOrEqual(end);
        expect(dt(`startof${p}`, start)).toBe(start);
        expect(dt(`startof${p}`, end)).toBe(start);
        // The end is the last microsecond: one microsecond later is the next period's start.
        expect(dt(`startof${p}`, t, 1)).toBeCloseTo(end + 0.001, 6);
      }),
    );
  });

  it('an offset of k periods is k steps of one period', () => {
    fc.assert(
      fc.property(instant, fc.constantFrom(...PERIODS), fc.integer({ min: -30, max: 30 }), (t, p, k) => {
        let stepped = dt(`startof${p}`, t) as number;
        for (let i = 0; i < Math.abs(k); i++) stepped = dt(`startof${p}`, stepped, Math.sign(k)) as number;
        expect(dt(`startof${p}`, t, k)).toBe(stepped);
      }),
    );
  });

  it('calendar parts read back from the start of the day', () => {
    fc.assert(
      fc.property(instant, (t) => {
        const day = dt('startofday', t) as number;
        for (const part of ['dayofmonth', 'dayofyear', 'getmonth', 'getyear', 'dayofweek'])
          expect(dt(part, day)).toBe(dt(part, t));
        expect(dt('hourofday', day)).toBe(0);
      }),
    );
  });
});

describe('unixtime_*_todatetime', () => {
  it('seconds, milliseconds and microseconds of one instant give the same datetime', () => {
    fc.assert(
      fc.property(fc.integer({ min: -2_000_000_000, max: 4_000_000_000 }), (s) => {
        const fromSeconds = call('unixtime_seconds_todatetime', [s], ['long']);
        expect(call('unixtime_milliseconds_todatetime', [s * 1000], ['long'])).toBe(fromSeconds);
        expect(call('unixtime_microseconds_todatetime', [s * 1_000_000], ['long'])).toBe(fromSeconds);
      }),
    );
  });
});

describe('gamma, loggamma, degrees, radians', () => {
  it('Γ(n + 1) = n·Γ(n) exactly for whole n up to 22 (exact doubles), and Γ(1) = Γ(2) = 1', () => {
    expect(real('gamma', 1)).toBe(1);
    expect(real('gamma', 2)).toBe(1);
    for (let n = 1; n < 22; n++) expect(real('gamma', n + 1)).toBe(n * real('gamma', n)!);
  });

  it('loggamma(x) = ln Γ(x) for positive x where Γ is finite', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.01, max: 150, noNaN: true }), (x) => {
        const g = real('gamma', x)!;
        expect(real('loggamma', x)!).toBeCloseTo(Math.log(g), 8);
      }),
    );
  });

  it('degrees(radians(x)) is x', () => {
    fc.assert(
      fc.property(fc.double({ min: -1e6, max: 1e6, noNaN: true }), (x) => {
        expect(real('degrees', real('radians', x)!)!).toBeCloseTo(x, 6);
      }),
    );
  });
});

describe('array_sum and array_reverse', () => {
  const numbers = fc.array(fc.integer({ min: -1000, max: 1000 }), { minLength: 1, maxLength: 20 });

  it('array_sum is the sum of the numbers; null elements are skipped; any other element makes it null', () => {
    fc.assert(
      fc.property(numbers, fc.nat(), (xs, at) => {
        const sum = xs.reduce((a, b) => a + b, 0);
        expect(call('array_sum', [xs], ['dynamic'])).toBe(sum);
        const withNull = [...xs];
        withNull.splice(at % (xs.length + 1), 0, null as unknown as number);
        expect(call('array_sum', [withNull], ['dynamic'])).toBe(sum);
        const withText: unknown[] = [...xs];
        withText.splice(at % (xs.length + 1), 0, 'x');
        expect(call('array_sum', [withText], ['dynamic'])).toBeNull();
      }),
    );
  });

  it('array_reverse twice is the array', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.integer(), fc.string(), fc.constant(null))), (xs) => {
        const once = call('array_reverse', [xs], ['dynamic']);
        expect(call('array_reverse', [once], ['dynamic'])).toEqual(xs);
      }),
    );
  });
});
