import type { MetricTagValue } from '@quarry/contracts';
import { epochGrid, gridTimes, type Scalar } from './frame';
import { groupScalars } from './group';

const N = NaN;
const grid = epochGrid({ start: 0, end: 180 }, 60);
const times = gridTimes(grid);
const str = (value: string): MetricTagValue => ({ type: 'string', value });
const series = (tags: Record<string, MetricTagValue>, values: number[]): Scalar => ({
  metric: 'm',
  tags,
  times,
  values: Float64Array.from(values),
});

const input = [
  series({ svc: str('a'), host: str('1') }, [1, N, 3]),
  series({ svc: str('a'), host: str('2') }, [5, N, 1]),
  series({ svc: str('b'), host: str('3') }, [2, 4, N]),
  series({ host: str('4') }, [7, N, N]),
];

function grouped(by: string[], fn: 'avg' | 'sum' | 'min' | 'max' | 'count') {
  return groupScalars(input, grid, times, by, fn).map((s) => [
    Object.fromEntries(Object.entries(s.tags).map(([k, v]) => [k, v?.value ?? null])),
    Array.from(s.values),
  ]);
}

describe('MPL group', () => {
  it.each([
    [
      'sum',
      [
        [{ svc: 'a' }, [6, N, 4]],
        [{ svc: 'b' }, [2, 4, N]],
        [{ svc: null }, [7, N, N]],
      ],
    ],
    [
      'avg',
      [
        [{ svc: 'a' }, [3, N, 2]],
        [{ svc: 'b' }, [2, 4, N]],
        [{ svc: null }, [7, N, N]],
      ],
    ],
    [
      'min',
      [
        [{ svc: 'a' }, [1, N, 1]],
        [{ svc: 'b' }, [2, 4, N]],
        [{ svc: null }, [7, N, N]],
      ],
    ],
    [
      'max',
      [
        [{ svc: 'a' }, [5, N, 3]],
        [{ svc: 'b' }, [2, 4, N]],
        [{ svc: null }, [7, N, N]],
      ],
    ],
    [
      'count',
      [
        [{ svc: 'a' }, [2, N, 2]],
        [{ svc: 'b' }, [1, 1, N]],
        [{ svc: null }, [1, N, N]],
      ],
    ],
  ] as const)('by svc using %s (missing tag → null group; all-gap slot → gap)', (fn, expected) => {
    expect(grouped(['svc'], fn)).toEqual(expected);
  });

  it('without by merges everything into one series with no tags', () => {
    expect(grouped([], 'count')).toEqual([[{}, [4, 1, 2]]]);
  });
});
