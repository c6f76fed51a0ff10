import { Piscina } from 'piscina';
import { QuarryError } from '@quarry/common';
import { QueryPool } from './query-pool';
import type { AggregateTaskInput } from './query-tasks';

describe('QueryPool', () => {
  it('turns a worker that ran out of heap into a 400 naming the limit', async () => {
    const pool = new QueryPool(1, 256);
    const oom = Object.assign(
      new Error('Worker terminated due to reaching memory limit: JS heap out of memory'),
      {
        code: 'ERR_WORKER_OUT_OF_MEMORY',
      },
    );
    const run = jest.spyOn(Piscina.prototype, 'run').mockRejectedValueOnce(oom);
    try {
      const err = await pool.aggregate(0, {} as AggregateTaskInput).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(QuarryError);
      expect(err).toMatchObject({ kind: 'invalid', code: 'query_limit_exceeded' });
      expect((err as Error).message).toMatch(/more memory than a query worker may use \(256 MiB\)/);
    } finally {
      run.mockRestore();
      await pool.close();
    }
  });
});
