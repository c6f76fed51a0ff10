import type { Column } from '@quarry/contracts';

/** Per-query evaluation state. Constant columns are remembered so kernels can take scalar fast paths. */
export class EvalContext {
  private readonly constants = new WeakSet<Column>();

  markConstant(c: Column): Column {
    this.constants.add(c);
    return c;
  }

  isConstant(c: Column): boolean {
    return this.constants.has(c);
  }
}
