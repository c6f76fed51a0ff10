import { num, str, type ScalarImpl } from './scalar-impl';
import { UNIT_TABLES, type Quantity } from './unit-conversion-units';

/**
 * `convert_<quantity>(value, from, to)` (Kusto's convert-*-function pages): `value` in unit `from`
 * expressed in unit `to`, through the quantity's base unit. An unknown unit or a null value is null.
 */
export function convertUnit(quantity: Quantity, value: number, from: string, to: string): number | null {
  const table = UNIT_TABLES[quantity];
  const a = table.get(from.trim().toLowerCase());
  const b = table.get(to.trim().toLowerCase());
  if (a === undefined || b === undefined) return null;
  if (a === b) return value;
  const r = b.fromBase(a.toBase(value));
  return Number.isFinite(r) ? r : null;
}

function converter(quantity: Quantity): ScalarImpl {
  return ([v, from, to], kinds) => {
    const x = num(v, kinds[0]);
    const f = str(from, kinds[1]);
    const t = str(to, kinds[2]);
    if (x === null || f === null || t === null) return null;
    return convertUnit(quantity, x, f, t);
  };
}

export const UNIT_CONVERSION_FUNCTIONS: Record<string, ScalarImpl> = Object.fromEntries(
  (Object.keys(UNIT_TABLES) as Quantity[]).map((q) => [`convert_${q}`, converter(q)]),
);
