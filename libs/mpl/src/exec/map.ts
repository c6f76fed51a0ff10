/**
 * `map` (README "Map"): per sample, or per slot after an align. Gaps are NaN; `rate`/`increase` look
 * at the previous non-gap sample of the series. Every function returns a new values array (inputs may
 * be the store's own arrays).
 */
import type { MapArithmetic } from '../syntax/ast';

type Test = (v: number, x: number) => boolean;
const TESTS: Record<string, Test> = {
  lt: (v, x) => v < x,
  gt: (v, x) => v > x,
  lte: (v, x) => v <= x,
  gte: (v, x) => v >= x,
  eq: (v, x) => v === x,
  neq: (v, x) => v !== x,
};

export function mapArithmetic(values: Float64Array, op: MapArithmetic, x: number): Float64Array {
  const out = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    out[i] = op === '+' ? v + x : op === '-' ? v - x : op === '*' ? v * x : v / x;
  }
  return sanitize(out);
}

/** Non-finite results (x/0, inf arithmetic) are gaps. */
function sanitize(values: Float64Array): Float64Array {
  for (let i = 0; i < values.length; i++) if (!Number.isFinite(values[i])) values[i] = NaN;
  return values;
}

export function mapFunction(
  times: Float64Array,
  values: Float64Array,
  name: string,
  arg = NaN,
): Float64Array {
  const n = values.length;
  const out = new Float64Array(n);
  const [ns, fn] = name.includes('::') ? name.split('::') : ['', name];
  if (ns === 'filter' || ns === 'is') {
    const test = TESTS[fn];
    for (let i = 0; i < n; i++) {
      const v = values[i];
      if (Number.isNaN(v))
        out[i] = NaN; // `is::` keeps gaps as gaps (README choice 8)
      else if (ns === 'filter') out[i] = test(v, arg) ? v : NaN;
      else out[i] = test(v, arg) ? 1 : 0;
    }
    return out;
  }
  switch (name) {
    case 'abs':
      for (let i = 0; i < n; i++) out[i] = Math.abs(values[i]);
      return out;
    case 'min':
      for (let i = 0; i < n; i++) out[i] = Number.isNaN(values[i]) ? NaN : Math.min(values[i], arg);
      return out;
    case 'max':
      for (let i = 0; i < n; i++) out[i] = Number.isNaN(values[i]) ? NaN : Math.max(values[i], arg);
      return out;
    case 'rate':
    case 'increase':
      return delta(times, values, name === 'rate');
    case 'fill::const':
      for (let i = 0; i < n; i++) out[i] = Number.isNaN(values[i]) ? arg : values[i];
      return out;
    case 'fill::prev': {
      let prev = NaN;
      for (let i = 0; i < n; i++) {
        if (!Number.isNaN(values[i])) prev = values[i];
        out[i] = prev; // leading gaps stay gaps
      }
      return out;
    }
    case 'interpolate::linear':
      return interpolateLinear(times, values);
    default:
      throw new Error(`map function ${name} reached the executor unchecked`);
  }
}

/**
 * `rate` keeps negative differences (mpl.md: no reset handling); `increase` treats a drop as a counter
 * reset and takes the new value. The first sample of a series has no previous one: gap.
 */
function delta(times: Float64Array, values: Float64Array, perSecond: boolean): Float64Array {
  const out = new Float64Array(values.length).fill(NaN);
  let prevT = NaN;
  let prevV = NaN;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (Number.isNaN(v)) continue;
    if (!Number.isNaN(prevV)) {
      const d = v - prevV;
      out[i] = perSecond ? d / (times[i] - prevT) : d < 0 ? v : d;
    }
    prevT = times[i];
    prevV = v;
  }
  return out;
}

/** Time-weighted interpolation between the nearest values on both sides; leading/trailing gaps stay. */
function interpolateLinear(times: Float64Array, values: Float64Array): Float64Array {
  const out = Float64Array.from(values);
  let last = -1;
  for (let i = 0; i < values.length; i++) {
    if (Number.isNaN(values[i])) continue;
    if (last >= 0 && i - last > 1) {
      const t0 = times[last];
      const v0 = values[last];
      const slope = (values[i] - v0) / (times[i] - t0);
      for (let j = last + 1; j < i; j++) out[j] = v0 + slope * (times[j] - t0);
    }
    last = i;
  }
  return out;
}
