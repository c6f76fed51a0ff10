import { isQuarryError } from '@quarry/common';
import { parseBatchRequest } from './batch-request';

const messageOf = (body: unknown, query: Record<string, unknown> = {}): string => {
  try {
    parseBatchRequest(body, query);
    return 'no error';
  } catch (err) {
    if (isQuarryError(err)) return err.message;
    throw err;
  }
};

describe('parseBatchRequest', () => {
  it('reads APL and MPL items, defaulting maxConcurrency to 10', () => {
    expect(
      parseBatchRequest(
        [
          { queryId: 'a', aplRequest: { apl: 'x' } },
          { queryId: 'b', mplRequest: { mpl: 'y' }, aplRequest: null },
        ],
        {},
      ),
    ).toEqual({
      items: [
        { queryId: 'a', kind: 'apl', request: { apl: 'x' } },
        { queryId: 'b', kind: 'mpl', request: { mpl: 'y' } },
      ],
      maxConcurrency: 10,
    });
  });

  it('leaves an item with neither or both requests to its own error event', () => {
    const { items } = parseBatchRequest(
      [{ queryId: 'a' }, { queryId: 'b', aplRequest: {}, mplRequest: {} }],
      {
        maxConcurrency: '3',
      },
    );
    expect(items.map((i) => i.problem)).toEqual([
      'set exactly one of aplRequest and mplRequest',
      'set exactly one of aplRequest and mplRequest, not both',
    ]);
  });

  it.each([
    [{}, {}, 'the body must be a JSON array'],
    [[1], {}, '[0] must be an object'],
    [[{ queryId: '' }], {}, '[0].queryId is required'],
    [[{ queryId: 'a' }, { queryId: 'a' }], {}, '[1].queryId "a" is used twice'],
    [[], { maxConcurrency: '0' }, 'maxConcurrency must be an integer from 1 to 20, not "0"'],
    [[], { maxConcurrency: 'lots' }, 'maxConcurrency must be an integer from 1 to 20'],
    [Array.from({ length: 101 }, (_, i) => ({ queryId: `q${i}` })), {}, 'at most 100 queries, not 101'],
  ])('refuses %j %j: %s', (body, query, message) => {
    expect(messageOf(body, query)).toContain(message);
  });
});
