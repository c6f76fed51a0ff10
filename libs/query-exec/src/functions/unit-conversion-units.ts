/**
 * The unit tables of Kusto's convert_* functions. Kusto converts with UnitsNet: every unit has a function
 * to the quantity's base unit and one back, and a metric prefix multiplies the unit's own function (for
 * `Kilometer`, `(x) * 1e3` to meters). The names are the ones each Kusto page lists; the factors are
 * UnitsNet's unit definitions (Common/UnitDefinitions/*.json).
 */

export interface Unit {
  toBase: (x: number) => number;
  fromBase: (x: number) => number;
}

const PREFIX: Record<string, number> = {
  Nano: 1e-9,
  Micro: 1e-6,
  Milli: 1e-3,
  Centi: 1e-2,
  Deci: 1e-1,
  Deca: 1e1,
  Hecto: 1e2,
  Kilo: 1e3,
  Mega: 1e6,
  Giga: 1e9,
  Tera: 1e12,
};

/** A unit that is `factor` base units. */
const times = (factor: number): Unit => ({ toBase: (x) => x * factor, fromBase: (x) => x / factor });
/** A unit that is 1/`divisor` base units (UnitsNet writes some units this way; the rounding follows it). */
const per = (divisor: number): Unit => ({ toBase: (x) => x / divisor, fromBase: (x) => x * divisor });
const BASE: Unit = { toBase: (x) => x, fromBase: (x) => x };

type Table = Record<string, Unit>;

/** Adds `unit` under `name` and under each prefixed name (`Kilo` + `meter` → `Kilometer`). */
function withPrefixes(table: Table, name: string, unit: Unit, prefixes: string[]): void {
  table[name] = unit;
  for (const p of prefixes) {
    const f = PREFIX[p];
    const rest = name[0].toLowerCase() + name.slice(1);
    table[p + rest] = { toBase: (x) => unit.toBase(x) * f, fromBase: (x) => unit.fromBase(x) / f };
  }
}

function angle(): Table {
  const t: Table = {};
  withPrefixes(t, 'Radian', { toBase: (x) => (x * 180) / Math.PI, fromBase: (x) => (x / 180) * Math.PI }, [
    'Nano',
    'Micro',
    'Milli',
    'Centi',
    'Deci',
  ]);
  withPrefixes(t, 'Degree', BASE, ['Nano', 'Micro', 'Milli']);
  t.Arcminute = per(60);
  t.Arcsecond = per(3600);
  t.Gradian = times(0.9);
  t.NatoMil = { toBase: (x) => (x * 9) / 160, fromBase: (x) => (x * 160) / 9 };
  t.Revolution = times(360);
  t.Tilt = { toBase: (x) => (Math.asin(x) * 180) / Math.PI, fromBase: (x) => Math.sin((x / 180) * Math.PI) };
  return t;
}

function energy(): Table {
  const t: Table = {};
  withPrefixes(t, 'Joule', BASE, ['Milli', 'Kilo', 'Mega', 'Giga']);
  withPrefixes(t, 'Calorie', times(4.184), ['Kilo', 'Mega']);
  withPrefixes(t, 'BritishThermalUnit', times(1055.05585262), ['Kilo', 'Mega', 'Giga']);
  withPrefixes(t, 'ElectronVolt', times(1.602176565e-19), ['Kilo', 'Mega', 'Giga', 'Tera']);
  t.FootPound = times(1.355817948);
  t.Erg = times(1e-7);
  withPrefixes(t, 'WattHour', times(3600), ['Kilo', 'Mega', 'Giga', 'Tera']);
  withPrefixes(t, 'WattDay', times(24 * 3600), ['Kilo', 'Mega', 'Giga', 'Tera']);
  withPrefixes(t, 'ThermEc', times(1.05505585262e8), ['Deca']);
  withPrefixes(t, 'ThermUs', times(1.054804e8), ['Deca']);
  withPrefixes(t, 'ThermImperial', times(1.05505585257348e8), ['Deca']);
  t.HorsepowerHour = times(2.6845195377e6);
  return t;
}

function force(): Table {
  const t: Table = {};
  t.Dyn = per(1e5);
  t.KilogramForce = times(9.80665002864);
  t.TonneForce = times(9.80665002864e3);
  withPrefixes(t, 'Newton', BASE, ['Micro', 'Milli', 'Deca', 'Kilo', 'Mega']);
  t.KiloPond = times(9.80665002864);
  t.Poundal = times(0.13825502798973041652092282466083);
  withPrefixes(t, 'PoundForce', times(4.4482216152605095551842641431421), ['Kilo']);
  t.OunceForce = times(2.780138509537812e-1);
  t.ShortTonForce = times(8.896443230521e3);
  return t;
}

function length(): Table {
  const t: Table = {};
  withPrefixes(t, 'Meter', BASE, ['Nano', 'Micro', 'Milli', 'Centi', 'Deci', 'Deca', 'Hecto', 'Kilo']);
  t.Mile = times(1609.344);
  t.Yard = times(0.9144);
  t.Foot = times(0.3048);
  t.UsSurveyFoot = { toBase: (x) => (x * 1200) / 3937, fromBase: (x) => (x * 3937) / 1200 };
  t.Inch = times(2.54e-2);
  t.Mil = times(2.54e-5);
  t.NauticalMile = times(1852);
  t.Fathom = times(1.8288);
  t.Shackle = times(27.432);
  t.Microinch = times(2.54e-8);
  t.PrinterPoint = { toBase: (x) => (x / 72.27) * 2.54e-2, fromBase: (x) => (x / 2.54e-2) * 72.27 };
  t.DtpPoint = { toBase: (x) => (x / 72) * 2.54e-2, fromBase: (x) => (x / 2.54e-2) * 72 };
  t.PrinterPica = per(237.106301584);
  t.DtpPica = per(236.220472441);
  t.Twip = per(56692.913385826);
  t.Hand = times(1.016e-1);
  t.AstronomicalUnit = times(1.495978707e11);
  withPrefixes(t, 'Parsec', times(3.08567758128e16), ['Kilo', 'Mega']);
  withPrefixes(t, 'LightYear', times(9.46073047258e15), ['Kilo', 'Mega']);
  t.SolarRadius = times(6.9551e8);
  t.Chain = times(20.1168);
  t.Angstrom = times(1e-10);
  t.DataMile = times(1828.8);
  return t;
}

function mass(): Table {
  const t: Table = {};
  withPrefixes(t, 'Gram', per(1e3), ['Nano', 'Micro', 'Milli', 'Centi', 'Deci', 'Deca', 'Hecto', 'Kilo']);
  withPrefixes(t, 'Tonne', times(1e3), ['Kilo', 'Mega']);
  t.ShortTon = times(9.0718474e2);
  t.LongTon = times(1.0160469088e3);
  withPrefixes(t, 'Pound', times(0.45359237), ['Kilo', 'Mega']);
  t.Ounce = times(0.028349523125);
  t.Slug = per(6.852176556196105e-2);
  t.Stone = per(0.1574731728702698);
  t.ShortHundredweight = per(0.022046226218487758);
  t.LongHundredweight = per(0.01968413055222121);
  t.Grain = per(15432.358352941431);
  t.SolarMass = times(1.98947e30);
  t.EarthMass = times(5.9722e24);
  // The base unit itself: (x / 1e3) * 1e3 would add rounding noise to every conversion from kilograms.
  t.Kilogram = BASE;
  return t;
}

function speed(): Table {
  const t: Table = {};
  withPrefixes(t, 'MeterPerSecond', BASE, ['Nano', 'Micro', 'Milli', 'Centi', 'Deci', 'Kilo']);
  withPrefixes(t, 'MeterPerMinute', per(60), ['Nano', 'Micro', 'Milli', 'Centi', 'Deci', 'Kilo']);
  withPrefixes(t, 'MeterPerHour', per(3600), ['Milli', 'Centi', 'Kilo']);
  t.FootPerSecond = times(0.3048);
  t.FootPerMinute = { toBase: (x) => (x * 0.3048) / 60, fromBase: (x) => (x / 0.3048) * 60 };
  t.FootPerHour = { toBase: (x) => (x * 0.3048) / 3600, fromBase: (x) => (x / 0.3048) * 3600 };
  t.UsSurveyFootPerSecond = { toBase: (x) => (x * 1200) / 3937, fromBase: (x) => (x * 3937) / 1200 };
  t.UsSurveyFootPerMinute = {
    toBase: (x) => (x * 1200) / 3937 / 60,
    fromBase: (x) => ((x * 3937) / 1200) * 60,
  };
  t.UsSurveyFootPerHour = {
    toBase: (x) => (x * 1200) / 3937 / 3600,
    fromBase: (x) => ((x * 3937) / 1200) * 3600,
  };
  t.InchPerSecond = times(2.54e-2);
  t.InchPerMinute = { toBase: (x) => (x / 60) * 2.54e-2, fromBase: (x) => (x / 2.54e-2) * 60 };
  t.InchPerHour = { toBase: (x) => (x / 3600) * 2.54e-2, fromBase: (x) => (x / 2.54e-2) * 3600 };
  t.YardPerSecond = times(0.9144);
  t.YardPerMinute = { toBase: (x) => (x * 0.9144) / 60, fromBase: (x) => (x / 0.9144) * 60 };
  t.YardPerHour = { toBase: (x) => (x * 0.9144) / 3600, fromBase: (x) => (x / 0.9144) * 3600 };
  t.Knot = times(0.514444);
  t.MilePerHour = times(0.44704);
  return t;
}

function temperature(): Table {
  return {
    Kelvin: BASE,
    DegreeCelsius: { toBase: (x) => x + 273.15, fromBase: (x) => x - 273.15 },
    MillidegreeCelsius: { toBase: (x) => x / 1000 + 273.15, fromBase: (x) => (x - 273.15) * 1000 },
    DegreeDelisle: { toBase: (x) => (x * -2) / 3 + 373.15, fromBase: (x) => ((x - 373.15) * -3) / 2 },
    DegreeFahrenheit: {
      toBase: (x) => (x * 5) / 9 + (459.67 * 5) / 9,
      fromBase: (x) => ((x - (459.67 * 5) / 9) * 9) / 5,
    },
    DegreeNewton: { toBase: (x) => (x * 100) / 33 + 273.15, fromBase: (x) => ((x - 273.15) * 33) / 100 },
    DegreeRankine: { toBase: (x) => (x * 5) / 9, fromBase: (x) => (x * 9) / 5 },
    DegreeReaumur: { toBase: (x) => (x * 5) / 4 + 273.15, fromBase: (x) => ((x - 273.15) * 4) / 5 },
    DegreeRoemer: {
      toBase: (x) => (x * 40) / 21 + 273.15 - (7.5 * 40) / 21,
      fromBase: (x) => ((x - (273.15 - (7.5 * 40) / 21)) * 21) / 40,
    },
    SolarTemperature: times(5778),
  };
}

function volume(): Table {
  const t: Table = {};
  withPrefixes(t, 'Liter', per(1e3), ['Micro', 'Milli', 'Centi', 'Deci', 'Deca', 'Hecto', 'Kilo', 'Mega']);
  withPrefixes(t, 'CubicMeter', BASE, ['Hecto', 'Kilo']);
  t.CubicKilometer = times(1e9);
  t.CubicHectometer = times(1e6);
  t.CubicDecimeter = per(1e3);
  t.CubicCentimeter = per(1e6);
  t.CubicMillimeter = per(1e9);
  t.CubicMicrometer = per(1e18);
  t.CubicMile = times(4.16818182544058e9);
  t.CubicYard = times(0.764554858);
  withPrefixes(t, 'CubicFoot', times(0.0283168), ['Hecto', 'Kilo', 'Mega']);
  t.CubicInch = { toBase: (x) => x * 1.6387 * 1e-5, fromBase: (x) => x / (1.6387 * 1e-5) };
  withPrefixes(t, 'ImperialGallon', times(0.00454609000000181429905810072407), ['Kilo', 'Mega']);
  t.ImperialOunce = times(2.8413062499962901241875439064617e-5);
  withPrefixes(t, 'UsGallon', times(0.00378541), ['Deca', 'Deci', 'Hecto', 'Kilo', 'Mega']);
  t.UsOunce = times(2.957352956253760505068307980135e-5);
  t.UsTablespoon = times(1.478676478125e-5);
  t.AuTablespoon = times(2e-5);
  t.UkTablespoon = times(1.5e-5);
  t.MetricTeaspoon = times(0.5e-5);
  t.UsTeaspoon = times(4.92892159375e-6);
  t.MetricCup = times(0.00025);
  t.UsCustomaryCup = times(0.0002365882365);
  t.UsLegalCup = times(0.00024);
  t.OilBarrel = times(0.158987294928);
  t.UsBeerBarrel = times(0.1173477658);
  t.ImperialBeerBarrel = times(0.16365924);
  t.UsQuart = times(9.46352946e-4);
  t.UsPint = times(4.73176473e-4);
  t.AcreFoot = per(0.000810714);
  t.ImperialPint = times(5.6826125e-4);
  t.BoardFoot = times(2.3597372158e-3);
  return t;
}

/** Units by quantity, keyed by the lower-cased name (Quarry matches unit names case-insensitively). */
function index(table: Table): ReadonlyMap<string, Unit> {
  return new Map(Object.entries(table).map(([name, unit]) => [name.toLowerCase(), unit]));
}

export const UNIT_TABLES = {
  angle: index(angle()),
  energy: index(energy()),
  force: index(force()),
  length: index(length()),
  mass: index(mass()),
  speed: index(speed()),
  temperature: index(temperature()),
  volume: index(volume()),
} as const;

export type Quantity = keyof typeof UNIT_TABLES;

/** The unit names each quantity accepts, as written (for docs and tests). */
export const UNIT_NAMES: Record<Quantity, string[]> = {
  angle: Object.keys(angle()),
  energy: Object.keys(energy()),
  force: Object.keys(force()),
  length: Object.keys(length()),
  mass: Object.keys(mass()),
  speed: Object.keys(speed()),
  temperature: Object.keys(temperature()),
  volume: Object.keys(volume()),
};
