/**
 * `where` predicates over typed tags (README "Filters"): typed comparisons without coercion (int and
 * float compare numerically), false on a missing tag or a type mismatch, `!=` = `not ==`, regexes are
 * unanchored searches on string tags (on RE2, regex.ts), `is T` checks existence and type.
 */
import type RE2 from 're2';
import type { MetricTagValue } from '@quarry/contracts';
import type { FilterExpr, Literal } from '../syntax/ast';
import { mplError } from '../syntax/diagnostics';
import type { ParamValues } from '../syntax/params';
import type { TagMap } from './frame';
import { compileRegex } from './regex';

export type TagPredicate = (tags: TagMap) => boolean;

function equals(tag: MetricTagValue, lit: Literal): boolean {
  const tagNumeric = tag.type === 'int' || tag.type === 'float';
  const litNumeric = lit.kind === 'int' || lit.kind === 'float';
  if (tagNumeric && litNumeric) return tag.value === lit.value;
  if (tag.type === 'string' && lit.kind === 'string') return tag.value === lit.value;
  if (tag.type === 'bool' && lit.kind === 'bool') return tag.value === lit.value;
  return false;
}

/** -1/0/1, or undefined when the types do not compare. Strings compare by code unit (byte order for ASCII). */
function order(tag: MetricTagValue, lit: Literal): number | undefined {
  const tagNumeric = tag.type === 'int' || tag.type === 'float';
  const litNumeric = lit.kind === 'int' || lit.kind === 'float';
  let a: number | string | boolean;
  let b: number | string | boolean;
  if (tagNumeric && litNumeric) [a, b] = [tag.value as number, lit.value as number];
  else if (tag.type === 'string' && lit.kind === 'string') [a, b] = [tag.value, lit.value];
  else if (tag.type === 'bool' && lit.kind === 'bool') [a, b] = [Number(tag.value), Number(lit.value)];
  else return undefined;
  return a < b ? -1 : a > b ? 1 : 0;
}

export function compileFilter(expr: FilterExpr, params: ParamValues): TagPredicate {
  switch (expr.kind) {
    case 'or': {
      const items = expr.items.map((i) => compileFilter(i, params));
      return (tags) => items.some((p) => p(tags));
    }
    case 'and': {
      const items = expr.items.map((i) => compileFilter(i, params));
      return (tags) => items.every((p) => p(tags));
    }
    case 'not': {
      const item = compileFilter(expr.item, params);
      return (tags) => !item(tags);
    }
    case 'is':
      return (tags) => tags[expr.tag]?.type === expr.type;
    case 'regex':
      return regexPredicate(
        expr.tag,
        compileRegex(expr.pattern, { label: `#/${expr.raw}/`, span: expr.patternSpan, raw: expr.raw }),
        expr.negate,
      );
    case 'cmp': {
      let lit: Literal;
      if (expr.value.kind === 'param') {
        const v = params.get(expr.value.name);
        if (!v) throw mplError('mpl_param', `param $${expr.value.name} has no value`, expr.value.span);
        if (v.type === 'Regex') {
          const origin = { label: `param $${expr.value.name} (#/${v.pattern}/)`, span: expr.value.span };
          return regexPredicate(expr.tag, compileRegex(v.pattern, origin), expr.op === '!=');
        }
        if (v.type === 'Dataset' || v.type === 'Duration')
          throw mplError('mpl_param', `param $${expr.value.name} cannot be a filter value`, expr.span);
        lit = { kind: v.type, value: v.value } as Literal;
      } else lit = expr.value;
      const { tag, op } = expr;
      if (op === '==') return (tags) => !!tags[tag] && equals(tags[tag]!, lit);
      if (op === '!=') return (tags) => !(tags[tag] && equals(tags[tag]!, lit));
      return (tags) => {
        const t = tags[tag];
        if (!t) return false;
        const o = order(t, lit);
        if (o === undefined) return false;
        return op === '<' ? o < 0 : op === '<=' ? o <= 0 : op === '>' ? o > 0 : o >= 0;
      };
    }
  }
}

function regexPredicate(tag: string, re: RE2, negate: boolean): TagPredicate {
  return (tags) => {
    const t = tags[tag];
    const match = !!t && t.type === 'string' && re.test(t.value);
    return negate ? !match : match;
  };
}

/** True if the expression reads `tag` (used to decide whether a filter can be pushed to the store). */
export function filterMentions(expr: FilterExpr, tag: string): boolean {
  switch (expr.kind) {
    case 'or':
    case 'and':
      return expr.items.some((i) => filterMentions(i, tag));
    case 'not':
      return filterMentions(expr.item, tag);
    default:
      return expr.tag === tag;
  }
}
