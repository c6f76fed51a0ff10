import fc from 'fast-check';
import { convertUnit, UNIT_CONVERSION_FUNCTIONS } from './unit-conversion';
import { UNIT_NAMES, type Quantity } from './unit-conversion-units';

/** The units each Kusto page lists under "Conversion units" (convert-<quantity>-function). */
const KUSTO_UNITS: Record<Quantity, string> = {
  angle:
    'Arcminute Arcsecond Centiradian Deciradian Degree Gradian Microdegree Microradian Millidegree Milliradian Nanodegree Nanoradian NatoMil Radian Revolution Tilt',
  energy:
    'BritishThermalUnit Calorie DecathermEc DecathermImperial DecathermUs ElectronVolt Erg FootPound GigabritishThermalUnit GigaelectronVolt Gigajoule GigawattDay GigawattHour HorsepowerHour Joule KilobritishThermalUnit Kilocalorie KiloelectronVolt Kilojoule KilowattDay KilowattHour MegabritishThermalUnit Megacalorie MegaelectronVolt Megajoule MegawattDay MegawattHour Millijoule TeraelectronVolt TerawattDay TerawattHour ThermEc ThermImperial ThermUs WattDay WattHour',
  force:
    'Decanewton Dyn KilogramForce Kilonewton KiloPond KilopoundForce Meganewton Micronewton Millinewton Newton OunceForce Poundal PoundForce ShortTonForce TonneForce',
  length:
    'Angstrom AstronomicalUnit Centimeter Chain DataMile Decameter Decimeter DtpPica DtpPoint Fathom Foot Hand Hectometer Inch KilolightYear Kilometer Kiloparsec LightYear MegalightYear Megaparsec Meter Microinch Micrometer Mil Mile Millimeter Nanometer NauticalMile Parsec PrinterPica PrinterPoint Shackle SolarRadius Twip UsSurveyFoot Yard',
  mass: 'Centigram Decagram Decigram EarthMass Grain Gram Hectogram Kilogram Kilopound Kilotonne LongHundredweight LongTon Megapound Megatonne Microgram Milligram Nanogram Ounce Pound ShortHundredweight ShortTon Slug SolarMass Stone Tonne',
  speed:
    'CentimeterPerHour CentimeterPerMinute CentimeterPerSecond DecimeterPerMinute DecimeterPerSecond FootPerHour FootPerMinute FootPerSecond InchPerHour InchPerMinute InchPerSecond KilometerPerHour KilometerPerMinute KilometerPerSecond Knot MeterPerHour MeterPerMinute MeterPerSecond MicrometerPerMinute MicrometerPerSecond MilePerHour MillimeterPerHour MillimeterPerMinute MillimeterPerSecond NanometerPerMinute NanometerPerSecond UsSurveyFootPerHour UsSurveyFootPerMinute UsSurveyFootPerSecond YardPerHour YardPerMinute YardPerSecond',
  temperature:
    'DegreeCelsius DegreeDelisle DegreeFahrenheit DegreeNewton DegreeRankine DegreeReaumur DegreeRoemer Kelvin MillidegreeCelsius SolarTemperature',
  volume:
    'AcreFoot AuTablespoon BoardFoot Centiliter CubicCentimeter CubicDecimeter CubicFoot CubicHectometer CubicInch CubicKilometer CubicMeter CubicMicrometer CubicMile CubicMillimeter CubicYard Decaliter DecausGallon Deciliter DeciusGallon HectocubicFoot HectocubicMeter Hectoliter HectousGallon ImperialBeerBarrel ImperialGallon ImperialOunce ImperialPint KilocubicFoot KilocubicMeter KiloimperialGallon Kiloliter KilousGallon Liter MegacubicFoot MegaimperialGallon Megaliter MegausGallon MetricCup MetricTeaspoon Microliter Milliliter OilBarrel UkTablespoon UsBeerBarrel UsCustomaryCup UsGallon UsLegalCup UsOunce UsPint UsQuart UsTablespoon UsTeaspoon',
};
const QUANTITIES = Object.keys(KUSTO_UNITS) as Quantity[];

describe('convert_*', () => {
  it.each(QUANTITIES)('convert_%s knows exactly the units its Kusto page lists', (q) => {
    expect([...UNIT_NAMES[q]].sort()).toEqual(KUSTO_UNITS[q].split(' ').sort());
  });

  it('converting there and back gives the value again, for every pair of units', () => {
    const pairs = QUANTITIES.flatMap((q) => {
      const names = UNIT_NAMES[q].filter((n) => n !== 'Tilt'); // sin/asin: only [-90°, 90°] comes back
      return names.flatMap((a) => names.map((b) => [q, a, b] as const));
    });
    fc.assert(
      fc.property(
        fc.constantFrom(...pairs),
        fc.double({ min: -1e6, max: 1e6, noNaN: true }),
        ([q, a, b], x) => {
          const there = convertUnit(q, x, a, b)!;
          const back = convertUnit(q, there, b, a)!;
          expect(Math.abs(back - x)).toBeLessThanOrEqual(Math.abs(x) * 1e-9 + 1e-9);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('known values: 100 °C is 212 °F and 373.15 K, a mile 1609.344 m, a pound 16 ounces, 1 tilt 90°', () => {
    expect(convertUnit('temperature', 100, 'DegreeCelsius', 'DegreeFahrenheit')).toBeCloseTo(212, 10);
    expect(convertUnit('temperature', 100, 'DegreeCelsius', 'Kelvin')).toBeCloseTo(373.15, 10);
    expect(convertUnit('length', 1, 'Mile', 'Meter')).toBeCloseTo(1609.344, 10);
    expect(convertUnit('mass', 1, 'Pound', 'Ounce')).toBeCloseTo(16, 10);
    expect(convertUnit('angle', 1, 'Tilt', 'Degree')).toBeCloseTo(90, 10);
    expect(convertUnit('speed', 36, 'KilometerPerHour', 'MeterPerSecond')).toBeCloseTo(10, 10);
    expect(convertUnit('volume', 1, 'CubicMeter', 'Liter')).toBeCloseTo(1000, 10);
  });

  it('match unit names case-insensitively; an unknown unit or a null argument is null', () => {
    expect(convertUnit('length', 1, 'kilometer', 'METER')).toBe(1000);
    expect(convertUnit('length', 1, 'Kilogram', 'Meter')).toBeNull();
    const f = UNIT_CONVERSION_FUNCTIONS.convert_length;
    expect(f([2, 'Meter', 'Centimeter'], ['long', 'string', 'string'])).toBeCloseTo(200, 10);
    expect(f([null, 'Meter', 'Centimeter'], ['real', 'string', 'string'])).toBeNull();
    expect(f([1, null, 'Centimeter'], ['real', 'string', 'string'])).toBeNull();
  });
});
