import { isQuarryError } from '@quarry/common';
import { runApl, type RunAplOptions } from './index';
import { MemoryCatalog } from './testing/memory-catalog';

const events = Array.from({ length: 500 }, (_, i) => ({
  _time: new Date(Date.UTC(2024, 0, 1) + i * 1000).toISOString(),
  id: `id-${i}`,
  group: i % 10,
}));
const catalog = new MemoryCatalog({ logs: events }, { batchSize: 50 });

async function run(apl: string, limits: RunAplOptions['limits']) {
  return runApl(apl, {
    startMs: Date.UTC(2023, 0, 1),
    endMs: Date.UTC(2025, 0, 1),
    nowMs: Date.UTC(2025, 0, 1),
    catalog,
    limits,
  });
}

async function failure(apl: string, limits: RunAplOptions['limits']) {
  const err = await run(apl, limits).then(
    () => null,
    (e: unknown) => e,
  );
  if (!isQuarryError(err)) throw new Error(`expected a QuarryError, got ${String(err)}`);
  return err;
}

describe('query memory limits', () => {
  it('fails a summarize with more groups than allowed, naming the limit', async () => {
    const err = await failure('logs | summarize count() by id', { maxGroups: 100 });
    expect(err.kind).toBe('invalid');
    expect(err.code).toBe('query_limit_exceeded');
    expect(err.message).toContain('more than 100 groups');
  });

  it('allows exactly the limit', async () => {
    const out = await run('logs | summarize count() by group', { maxGroups: 10 });
    expect(out.tables[0].columns[0]).toHaveLength(10);
  });

  it('fails a full sort or a join build side that holds too many rows', async () => {
    const sort = await failure('logs | sort by id | count', { maxHeldRows: 200 });
    expect(sort.message).toContain('(sort)');
    const join = await failure('logs | join kind=inner (logs) on id | count', { maxHeldRows: 200 });
    expect(join.message).toContain('join');
  });

  it('does not count top-N, whose memory is bounded by N', async () => {
    const out = await run('logs | sort by id desc | take 3', { maxHeldRows: 200 });
    expect(out.tables[0].columns[0]).toHaveLength(3);
  });
});
