import { isQuarryError } from '@quarry/common';
import type { BlockRecord } from '@quarry/contracts';
import { blocksToTrim, parseGoDuration } from './dataset-trim';

describe('parseGoDuration', () => {
  it.each([
    ['1h', 3_600_000],
    ['1h0m0s', 3_600_000],
    ['90m', 5_400_000],
    ['1.5h', 5_400_000],
    ['250ms', 250],
    ['1m30s', 90_000],
  ])('%s is %i ms', (text, ms) => {
    expect(parseGoDuration(text)).toBe(ms);
  });

  it.each(['', 'soon', '1', '1d', '-1h', '0s', 'h', '1h ', '1hx'])('rejects %j as invalid', (text) => {
    let error: unknown;
    try {
      parseGoDuration(text);
    } catch (err) {
      error = err;
    }
    expect(isQuarryError(error) && error.kind === 'invalid').toBe(true);
  });
});

describe('blocksToTrim', () => {
  const block = (id: string, minTime: number, maxTime: number) => ({ id, minTime, maxTime }) as BlockRecord;

  it('takes only blocks wholly older than the cutoff', () => {
    const blocks = [
      block('old', 0, 99),
      block('straddles', 50, 150),
      block('new', 200, 300),
      block('edge', 0, 100),
    ];
    expect(blocksToTrim(blocks, 100).map((b) => b.id)).toEqual(['old']);
  });
});
