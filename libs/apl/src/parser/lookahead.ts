/**
 * Decisions made by looking ahead without consuming tokens: whether what follows is a table or a scalar,
 * a user-defined function's parameter list, or a leading `search`.
 */
import type { FunctionDefinition } from '../ast';
import { TokenCursor } from './token-cursor';

export abstract class Lookahead extends TokenCursor {
  /** `(` `)` `{` or `(` name `:`: the parameter list of a user-defined function (at `offset`). */
  protected startsFunctionDefinition(offset = 0): boolean {
    if (!this.isPunct('(', offset)) return false;
    if (this.isPunct(')', offset + 1)) return this.isPunct('{', offset + 2);
    return this.peek(offset + 1).kind === 'ident' && this.isPunct(':', offset + 2);
  }

  /** A lone name that is a dataset or a table (not a scalar or parameter) before `}`: `{ ds }`. */
  protected isTableName(): boolean {
    const t = this.peek();
    if (t.kind !== 'ident' || !this.isPunct('}', 1)) return false;
    return !this.scalarLets.has(t.text) && !['true', 'false', 'null'].includes(t.text);
  }

  /** A call of a tabular user-defined function (`f(1)`, or `f` when every parameter has a default). */
  protected tabularFunctionAt(): FunctionDefinition | undefined {
    const t = this.peek();
    if (t.kind !== 'ident') return undefined;
    const f = this.functions.get(t.text);
    return f?.result.kind === 'tabular' ? f : undefined;
  }

  /** Decides whether the right side of `let x = ...` is a table (dataset, datatable, print, pipe...). */
  protected looksTabular(): boolean {
    const t = this.peek();
    if (this.tabularFunctionAt()) return true;
    if (t.kind === 'ident') {
      if (['datatable', 'print', 'union', 'externaldata'].includes(t.text)) return true;
      if (t.text === 'materialize' && this.isPunct('(', 1)) return true;
      if (t.text === 'range' && this.peek(1).kind === 'ident' && this.isIdent('from', 2)) return true;
      if (this.isPunct('|', 1)) return true;
      if (this.startsLeadingSearch() || this.startsFind()) return true;
      if (this.isPunct(';', 1) || this.peek(1).kind === 'eof') {
        if (this.scalarLets.has(t.text)) return false;
        return true;
      }
      return false;
    }
    if (this.isPunct('[') && this.peek(1).kind === 'string' && this.isPunct(']', 2)) {
      const after = this.peek(3);
      return after.kind === 'punct' && (after.text === '|' || after.text === ';');
    }
    if (this.isPunct('(')) {
      // `(dataset | ...)`: a parenthesised tabular expression.
      const inner = this.peek(1);
      return (
        (inner.kind === 'ident' || this.isPunct('[', 1)) && (this.isPunct('|', 2) || this.isPunct('|', 4))
      );
    }
    return false;
  }

  /**
   * After `in (`: whether a tabular expression follows (`T | ...`, `(T | ...)`, a `let`-bound table,
   * `datatable(...)`) rather than a list of scalars. `|` can never appear in a scalar list.
   */
  protected looksTabularInList(): boolean {
    const t = this.peek();
    if (t.kind === 'ident') {
      if (this.isPunct('|', 1)) return true;
      if (this.tableLets.has(t.text) && this.isPunct(')', 1)) return true;
      if (this.tabularFunctionAt()) return true;
      if ((t.text === 'datatable' && this.isPunct('(', 1)) || t.text === 'union') return true;
      if (t.text === 'materialize' && this.isPunct('(', 1)) return true;
      if (t.text === 'range' && this.peek(1).kind === 'ident' && this.isIdent('from', 2)) return true;
      return false;
    }
    if (this.isPunct('[') && this.peek(1).kind === 'string' && this.isPunct(']', 2))
      return this.isPunct('|', 3);
    if (this.isPunct('(')) {
      const inner = this.peek(1);
      if (
        inner.kind === 'ident' &&
        (this.isPunct('|', 2) || (this.tableLets.has(inner.text) && this.isPunct(')', 2)))
      )
        return true;
      if (inner.kind === 'ident' && inner.text === 'datatable' && this.isPunct('(', 2)) return true;
      return (
        this.isPunct('[', 1) && this.peek(2).kind === 'string' && this.isPunct(']', 3) && this.isPunct('|', 4)
      );
    }
    return false;
  }

  /** `search ...` as the first word of a query (not a dataset called `search` followed by `|`). */
  /** `find` starting a query (Kusto's find operator), not a dataset called `find`. */
  protected startsFind(): boolean {
    if (!this.isIdent('find')) return false;
    const next = this.peek(1);
    return !(next.kind === 'eof' || (next.kind === 'punct' && [';', '|', ')', ','].includes(next.text)));
  }

  protected startsLeadingSearch(): boolean {
    if (!this.isIdent('search')) return false;
    const next = this.peek(1);
    return !(next.kind === 'eof' || (next.kind === 'punct' && [';', '|', ')', ','].includes(next.text)));
  }
}
