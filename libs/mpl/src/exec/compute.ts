/**
 * `(L, R) | compute name using op` (README "Compute"): pairs series with identical tag maps and keeps
 * only the slots where both sides have a value; division by zero drops the slot; unpaired series
 * vanish.
 */
import type { ComputeOp } from '../syntax/ast';
import { sameGrid, tagKey, type Frame, type Scalar } from './frame';

function combine(op: ComputeOp, a: number, b: number): number {
  switch (op) {
    case '+':
      return a + b;
    case '-':
      return a - b;
    case '*':
      return a * b;
    case '/':
      return b === 0 ? NaN : a / b;
    case 'min':
      return Math.min(a, b);
    case 'max':
      return Math.max(a, b);
    case 'avg':
      return (a + b) / 2;
  }
}

export function computeFrames(left: Frame, right: Frame, name: string, op: ComputeOp): Frame {
  const rightByKey = new Map<string, Scalar>();
  for (const s of right.scalars) {
    const key = tagKey(s.tags);
    if (!rightByKey.has(key)) rightByKey.set(key, s);
  }
  const gridded = sameGrid(left.grid, right.grid);
  const scalars: Scalar[] = [];
  for (const l of left.scalars) {
    const r = rightByKey.get(tagKey(l.tags));
    if (!r) continue;
    if (gridded) {
      const values = new Float64Array(l.values.length);
      for (let k = 0; k < values.length; k++) {
        const v = combine(op, l.values[k], r.values[k]); // NaN on either side stays NaN
        values[k] = Number.isFinite(v) ? v : NaN;
      }
      scalars.push({ metric: name, tags: l.tags, times: l.times, values });
      continue;
    }
    // Different grids or raw series: merge-join on identical timestamps.
    const times: number[] = [];
    const values: number[] = [];
    let j = 0;
    for (let i = 0; i < l.times.length; i++) {
      const t = l.times[i];
      while (j < r.times.length && r.times[j] < t) j++;
      if (j >= r.times.length) break;
      if (r.times[j] !== t) continue;
      const v = combine(op, l.values[i], r.values[j]);
      if (!Number.isFinite(v)) continue;
      times.push(t);
      values.push(v);
    }
    scalars.push({
      metric: name,
      tags: l.tags,
      times: Float64Array.from(times),
      values: Float64Array.from(values),
    });
  }
  return {
    range: left.range,
    grid: gridded ? left.grid : undefined,
    scalars,
    histograms: [],
    groupKeys: left.groupKeys,
  };
}
