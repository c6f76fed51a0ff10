/**
 * Families of scalar functions that share a signature and argument types, named once for both tables
 * (`scalar-signatures.ts` for arity and result type, `argument-types.ts` for the types each argument
 * accepts).
 */

/** One number in, a real out. */
export const REAL_MATH_FUNCTIONS = [
  'sqrt',
  'exp',
  'exp2',
  'exp10',
  'log',
  'log10',
  'log2',
  'sin',
  'cos',
  'tan',
  'asin',
  'acos',
  'atan',
  'degrees',
  'radians',
  'gamma',
  'loggamma',
] as const;

/** A datetime and an optional offset in, a datetime out. */
export const PERIOD_BOUNDARY_FUNCTIONS = [
  'startofday',
  'startofweek',
  'startofmonth',
  'startofyear',
  'endofday',
  'endofweek',
  'endofmonth',
  'endofyear',
] as const;

/** A datetime in, one of its parts (a long) out. */
export const DATETIME_PART_FUNCTIONS = [
  'hourofday',
  'dayofmonth',
  'dayofyear',
  'getmonth',
  'monthofyear',
  'getyear',
  'dayofweek',
  'week_of_year',
] as const;

/** A number of units since the epoch in, a datetime out. */
export const UNIXTIME_TO_DATETIME_FUNCTIONS = [
  'unixtime_seconds_todatetime',
  'unixtime_milliseconds_todatetime',
  'unixtime_microseconds_todatetime',
  'unixtime_nanoseconds_todatetime',
] as const;

/** `convert_<quantity>(value, from, to)`: a number and two unit names in, a real out (Kusto extensions). */
export const UNIT_CONVERSION_FUNCTIONS = [
  'convert_angle',
  'convert_energy',
  'convert_force',
  'convert_length',
  'convert_mass',
  'convert_speed',
  'convert_temperature',
  'convert_volume',
] as const;
