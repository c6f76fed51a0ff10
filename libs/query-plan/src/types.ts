import type { AplType } from '@quarry/apl';
import type { WireType } from '@quarry/contracts';

export type { AplType };
export type { ParsePart } from '@quarry/apl';

export interface Field {
  name: string;
  type: AplType;
  /**
   * Set only in the scope of an `extend` (or `print`) being bound: a column an earlier item of the same
   * operator made, not one of its input row (`pack_all()` packs the input row, as Kusto's example shows).
   */
  madeByEarlierItem?: true;
}

/** Maps a dataset's wire type (`integer`, `float|integer`, `array`...) to the APL type the planner uses. */
export function aplTypeOfWire(type: WireType): AplType {
  switch (type) {
    case 'integer':
      return 'long';
    case 'float':
      return 'real';
    case 'float|integer':
    case 'integer|float':
      return 'real';
    case 'boolean':
      return 'bool';
    case 'string':
      return 'string';
    case 'datetime':
      return 'datetime';
    case 'timespan':
      return 'timespan';
    default:
      return 'dynamic';
  }
}

export function isNumericType(t: AplType): boolean {
  return t === 'long' || t === 'real';
}

/** The type that holds values of both (dynamic when they have nothing in common). */
export function unifyTypes(a: AplType, b: AplType): AplType {
  if (a === b) return a;
  if (isNumericType(a) && isNumericType(b)) return 'real';
  return 'dynamic';
}
