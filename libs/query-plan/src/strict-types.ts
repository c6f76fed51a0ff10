/**
 * `set stricttypes;` (apl.md §1.2: "turns implicit type coercions into errors"). Without it Quarry
 * coerces quietly: a string compared with a number is null, string operators read a number as its text,
 * `iff` branches of different types fall back to dynamic. With it each of those is a type mismatch found
 * while planning. `dynamic` operands always pass (their type is known only per row), and long and real
 * mix freely (promotion is not a coercion).
 */
import { isNumericType, type AplType } from './types';

export interface StrictProblem {
  expected: string;
  got: string;
}

function sameFamily(a: AplType, b: AplType): boolean {
  return a === b || a === 'dynamic' || b === 'dynamic' || (isNumericType(a) && isNumericType(b));
}

/** `==`, `<`, … need operands of one type; `=~` / `!~` need strings. */
export function strictComparison(op: string, left: AplType, right: AplType): StrictProblem | null {
  if (op === '=~' || op === '!~') return strictStringOperands(left, right);
  return sameFamily(left, right) ? null : { expected: 'operands of one type', got: `${left} and ${right}` };
}

/** `contains`, `has`, `startswith`, `matches regex`, `in~`, `has_any`…: text on both sides. */
export function strictStringOperands(...types: AplType[]): StrictProblem | null {
  const bad = types.find((t) => t !== 'string' && t !== 'dynamic');
  return bad === undefined ? null : { expected: 'string operands', got: bad };
}

/** `x in (a, b)`, `x between (a .. b)`: every element of the value's type. */
export function strictElements(value: AplType, elements: AplType[]): StrictProblem | null {
  const bad = elements.find((t) => !sameFamily(value, t));
  return bad === undefined ? null : { expected: `elements of type ${value}`, got: bad };
}

/** `iff`, `case`, `coalesce`, `min_of`, `max_of`: every result of one type (a typed null counts as its type). */
export function strictBranches(types: AplType[]): StrictProblem | null {
  const typed = types.filter((t) => t !== 'dynamic');
  const bad = typed.find((t) => !sameFamily(typed[0], t));
  return bad === undefined ? null : { expected: 'results of one type', got: `${typed[0]} and ${bad}` };
}
