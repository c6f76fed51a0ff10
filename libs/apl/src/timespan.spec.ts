import fc from 'fast-check';
import { parseAplExpression } from './parser';
import { timespanFromText, timespanText } from './timespan';

const valueOf = (text: string) => (parseAplExpression(text) as { value: unknown }).value;

describe('timespan literal text (Kusto timespan page)', () => {
  it('reads back every text it writes: time(<Kusto text of t>) is t, to the 100 ns tick', () => {
    // Whole ticks (100 ns) up to ±100,000 days, as Kusto's timespan holds them.
    const ticks = fc.integer({ min: -864_000_000_000_000, max: 864_000_000_000_000 });
    fc.assert(
      fc.property(ticks, (t) => {
        const ms = t / 10_000;
        const text = timespanText(ms);
        const back = valueOf(`time(${text})`) as number;
        expect(Math.round(back * 10_000)).toBe(t);
        expect(timespanText(back)).toBe(text);
      }),
    );
  });

  it('reads a number and a unit as the lexer does (time(1.5h) is 1.5h)', () => {
    const units = fc.constantFrom(
      'd',
      'h',
      'm',
      's',
      'ms',
      'seconds',
      'minutes',
      'hours',
      'days',
      'microsecond',
      'tick',
    );
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000 }), units, (n, unit) => {
        expect(valueOf(`time(${n}${unit})`)).toBe(valueOf(`${n}${unit}`));
        expect(timespanFromText(`${n} ${unit}`)).toBe(valueOf(`${n}${unit}`));
      }),
    );
  });

  it('refuses clock fields out of range and texts of no form', () => {
    for (const text of [
      '24:00:00',
      '1.23:60:00',
      '00:00:60',
      '1:2:3:4',
      '1.5',
      '2 weeks',
      'constructor',
      '1x',
    ])
      expect(timespanFromText(text)).toBeUndefined();
  });
});
