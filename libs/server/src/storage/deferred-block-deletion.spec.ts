import { Logger } from '@nestjs/common';
import type { ObjectStore } from '@quarry/objstore';
import { DeferredBlockDeletion } from './deferred-block-deletion';

describe('DeferredBlockDeletion', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  function setup() {
    const deleted: string[] = [];
    const forgotten: string[] = [];
    const objects = { delete: async (key: string) => void deleted.push(key) } as unknown as ObjectStore;
    const deletion = new DeferredBlockDeletion(
      objects,
      (k) => forgotten.push(k),
      new Logger('t'),
      1000,
      'block',
    );
    return { deleted, forgotten, deletion };
  }

  it('forgets and deletes the objects only once the grace period is over', async () => {
    const { deleted, forgotten, deletion } = setup();
    deletion.schedule(['a', 'b']);
    jest.advanceTimersByTime(999);
    expect(deleted).toEqual([]);
    jest.advanceTimersByTime(1);
    await Promise.resolve();
    expect(forgotten).toEqual(['a', 'b']);
    expect(deleted).toEqual(['a', 'b']);
  });

  it('leaves the objects alone when cancelled (a stopping node: the orphan sweep removes them later)', () => {
    const { deleted, forgotten, deletion } = setup();
    deletion.schedule(['a']);
    deletion.cancelAll();
    jest.advanceTimersByTime(5000);
    expect(deleted).toEqual([]);
    expect(forgotten).toEqual([]);
  });
});
