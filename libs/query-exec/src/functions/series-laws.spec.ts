/**
 * Laws of the series functions touched in the issue 19 audit (round 2): series_log rounds ln correctly
 * (reference values: ln computed to 60 digits by Python's decimal module, rounded once to a double),
 * series_dot_product broadcasts a scalar, series_fir with the filter [1] is the identity. The fast-check
 * seed is shared by the run (test/support/fast-check-seed.ts).
 */
import fc from 'fast-check';
import type { ColumnKind } from '@quarry/contracts';
import { lnExact } from './series-math';
import { SERIES_FUNCTIONS } from './series-functions';

const REFERENCE: [number, number][] = [
  [3.0, 1.0986122886681098],
  [10.0, 2.302585092994046],
  [0.1, -2.3025850929940455],
  [7.0, 1.9459101490553132],
  [1e-310, -713.8013788281542],
  [1.7976931348623157e308, 709.782712893384],
  [1.0000000000000002, 2.2204460492503128e-16],
  [0.9999999999999999, -1.1102230246251565e-16],
  [42417943375.11658, 24.470837302472855],
  [1.2436018665862331e17, 39.36195848105398],
  [16.90321954153243, 2.8275041092012954],
  [4.892176865733991, 1.5876373712461973],
  [4.093358437299106e-7, -14.708729884035579],
  [6.441933330660925e29, 68.63779639851496],
  [2.300894714588639e-13, -29.100308155287955],
  [7.862987605450754e-22, -48.59470540917388],
  [4.620771297991484e-15, -33.00821475613404],
  [4.2289409020681585e-15, -33.09682481096391],
  [4.385517987906346e-11, -23.85012827685619],
  [1.187546600247474e-14, -32.06430180344628],
  [2.874989559810659e-24, -54.20599318898458],
  [3.3883209999347776e-11, -24.10810150448915],
  [4.612158567728419e-12, -26.10232513255847],
  [14269.243613841047, 9.565861703729052],
  [1.2527258822043702e-18, -41.22120979110281],
  [1.7671083838564475e-26, -59.297867888609176],
  [1.422727515837367e-18, -41.09395585882894],
  [352.0104882269884, 5.863660971253601],
  [2.0592488946827518e-7, -15.395754348876435],
  [101914147082783.62, 32.25515187952164],
  [1.526061508341471e18, 41.8692219128507],
  [7.3494616706705805e-6, -11.820883489507496],
  [9.151764530817077e-25, -55.35068061925786],
  [47829196316476.81, 31.49865737056252],
  [2186696101560606.2, 35.32116817018752],
  [5.804968456652168e-7, -14.359381469647143],
  [3143097839.376385, 21.868474723573037],
  [8.770956238750745e-13, -27.762160373277077],
  [7.827236690875305e24, 57.3196517665286],
  [1.067608359977568e20, 46.11712282902566],
  [3.294438414929786e17, 40.33618229879781],
  [1.7175171148802782e27, 62.71067722089975],
  [9.342815623763456e-17, -36.9093389154405],
  [518.938573836984, 6.251785521319367],
  [76319275835128.52, 31.965946654490132],
  [1.2258977552244175e18, 41.65020511088541],
  [2.610997139501314e-7, -15.158363456798682],
  [2.0540459274247962e-22, -49.93706057462002],
];

const series = fc.array(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { minLength: 1, maxLength: 40 });

describe('series_log', () => {
  it('gives the double nearest to ln x (Kusto: series_log([1,2,3]) is [0, 0.69314718055994529, 1.0986122886681098])', () => {
    for (const [x, ln] of REFERENCE) expect(lnExact(x)).toBe(ln);
    expect(SERIES_FUNCTIONS.series_log([[1, 2, 3, 0, -1]], ['dynamic'])).toEqual([
      0,
      0.6931471805599453,
      1.0986122886681098,
      null,
      null,
    ]);
  });

  it('stays within one unit in the last place of Math.log, and ln(x·2^k) = ln x + k·ln 2', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 1e-200, max: 1e200, noNaN: true }),
        fc.integer({ min: -60, max: 60 }),
        (x, k) => {
          const r = lnExact(x);
          expect(Math.abs(r - Math.log(x))).toBeLessThanOrEqual(Math.abs(r) * 2 ** -51 + Number.MIN_VALUE);
          const shifted = lnExact(x * 2 ** k);
          expect(Math.abs(shifted - (r + k * Math.LN2))).toBeLessThanOrEqual(
            (Math.abs(r) + Math.abs(k) + 1) * 2 ** -50,
          );
        },
      ),
    );
  });
});

describe('series_dot_product', () => {
  it('broadcasts a scalar on either side: dot(a, c) = c · sum(a)', () => {
    fc.assert(
      fc.property(series, fc.integer({ min: -100, max: 100 }), (a, c) => {
        const sum = SERIES_FUNCTIONS.series_sum([a], ['dynamic']) as number;
        const left = SERIES_FUNCTIONS.series_dot_product([a, c], ['dynamic', 'long']) as number;
        const right = SERIES_FUNCTIONS.series_dot_product([c, a], ['long', 'dynamic']) as number;
        const tolerance = 1e-9 * (Math.abs(c) + 1) * a.reduce((s, x) => s + Math.abs(x), 1);
        expect(Math.abs(left - c * sum)).toBeLessThanOrEqual(tolerance);
        expect(right).toBe(left);
      }),
    );
  });

  it('is null for an empty series and skips non-numeric elements', () => {
    expect(SERIES_FUNCTIONS.series_dot_product([[], [1]], ['dynamic', 'dynamic'])).toBeNull();
    expect(SERIES_FUNCTIONS.series_dot_product([[], 3], ['dynamic', 'long'])).toBeNull();
    expect(
      SERIES_FUNCTIONS.series_dot_product(
        [
          [1, 'x', 3],
          [2, 2, 2],
        ],
        ['dynamic', 'dynamic'],
      ),
    ).toBe(8);
  });
});

describe('series_fir', () => {
  it('with the filter [1] is the identity (normalized or not, centered or not)', () => {
    fc.assert(
      fc.property(series, fc.boolean(), fc.boolean(), (a, normalize, center) => {
        const out = SERIES_FUNCTIONS.series_fir(
          [a, [1], normalize, center],
          ['dynamic', 'dynamic', 'bool', 'bool'],
        );
        expect(out).toEqual(a.map((x) => x + 0));
      }),
    );
  });
});

describe('series_fir normalization (Kusto page: negative coefficients)', () => {
  const kinds: ColumnKind[] = ['dynamic', 'dynamic', 'bool', 'bool'];
  it('does not normalize a filter with a negative coefficient unless told, and is null when told to', () => {
    expect(
      SERIES_FUNCTIONS.series_fir(
        [
          [1, 2, 4],
          [3, -1],
        ],
        kinds,
      ),
    ).toEqual([3, 5, 10]);
    expect(SERIES_FUNCTIONS.series_fir([[1, 2, 4], [3, -1], false], kinds)).toEqual([3, 5, 10]);
    expect(SERIES_FUNCTIONS.series_fir([[1, 2, 4], [3, -1], true], kinds)).toBeNull();
    expect(
      SERIES_FUNCTIONS.series_fir(
        [
          [1, 2, 4],
          [1, 1],
        ],
        kinds,
      ),
    ).toEqual([0.5, 1.5, 3]);
  });
});
