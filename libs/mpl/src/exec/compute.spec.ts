import type { MetricTagValue } from '@quarry/contracts';
import type { ComputeOp } from '../syntax/ast';
import { computeFrames } from './compute';
import { epochGrid, gridTimes, type Frame, type Scalar, type TagMap } from './frame';

const N = NaN;
const range = { start: 0, end: 180 };
const grid = epochGrid(range, 60);
const times = gridTimes(grid);
const str = (value: string): MetricTagValue => ({ type: 'string', value });
const s = (tags: TagMap, values: number[], t = times): Scalar => ({
  metric: 'x',
  tags,
  times: t,
  values: Float64Array.from(values),
});
const frame = (scalars: Scalar[], g = grid): Frame => ({ range, grid: g, scalars, histograms: [] });

function run(op: ComputeOp, left: Scalar[], right: Scalar[]) {
  return computeFrames(frame(left), frame(right), 'out', op).scalars.map((r) => [
    r.metric,
    r.tags.k?.value,
    Array.from(r.values),
  ]);
}

describe('MPL compute', () => {
  const left = [s({ k: str('a') }, [4, N, 6]), s({ k: str('b') }, [1, 2, 3])];
  const right = [s({ k: str('a') }, [2, 5, 0]), s({ k: str('c') }, [1, 1, 1])];

  it.each([
    ['+', [6, N, 6]],
    ['-', [2, N, 6]],
    ['*', [8, N, 0]],
    ['/', [2, N, N]], // ÷0 drops the slot
    ['min', [2, N, 0]],
    ['max', [4, N, 6]],
    ['avg', [3, N, 3]],
  ] as const)('%s pairs identical tag maps, strict intersection; unpaired series vanish', (op, expected) => {
    expect(run(op, left, right)).toEqual([['out', 'a', expected]]);
  });

  it('pairs tag maps regardless of key order and ignores null tags', () => {
    const l = s({ x: str('1'), y: str('2'), z: null }, [1, 1, 1]);
    const r = s({ y: str('2'), x: str('1') }, [1, 2, 3]);
    expect(computeFrames(frame([l]), frame([r]), 'o', '+').scalars.map((o) => Array.from(o.values))).toEqual([
      [2, 3, 4],
    ]);
  });

  it('joins on identical timestamps when the grids differ', () => {
    const other = epochGrid(range, 30);
    const r = s({ k: str('a') }, [10, 20, 30, 40, 50, 60], gridTimes(other));
    const out = computeFrames(frame([left[0]]), frame([r], other), 'o', '+');
    expect(out.grid).toBeUndefined();
    expect([Array.from(out.scalars[0].times), Array.from(out.scalars[0].values)]).toEqual([
      [0, 120],
      [14, 56],
    ]);
  });
});
