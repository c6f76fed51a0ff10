import type { Catalog, ColumnBatch, DatasetSource, ScanRequest } from '@quarry/contracts';
import { runApl } from './run-apl';
import { MemoryDataset } from './testing/memory-catalog';

/** A dataset that honours `timeOrder` like the storage catalog does, and records what it read. */
class OrderedDataset implements DatasetSource {
  batchesRead = 0;
  hinted = false;

  constructor(private readonly inner: MemoryDataset) {}

  get name() {
    return this.inner.name;
  }

  schema() {
    return this.inner.schema();
  }

  async *scan(request: ScanRequest): AsyncIterable<ColumnBatch> {
    const order = request.timeOrder;
    this.hinted = order !== undefined;
    const ranged = this.inner.batches.map((batch) => {
      const t = (batch.columns.get('_time') as { values: Float64Array }).values;
      return { batch, min: Math.min(...t), max: Math.max(...t) };
    });
    if (order?.direction === 'desc') ranged.sort((a, b) => b.max - a.max);
    if (order?.direction === 'asc') ranged.sort((a, b) => a.min - b.min);
    for (const part of ranged) {
      if (order?.skip(part.min, part.max)) continue;
      this.batchesRead++;
      const single = new MemoryDataset(this.inner.name, []);
      single.batches.push(part.batch);
      yield* single.scan({ ...request, timeOrder: undefined });
    }
  }
}

const HOUR = 3_600_000;
const BASE = Date.UTC(2024, 0, 1);
// Batches of 10 events in time order, so most batches cannot make a small top N.
const events = Array.from({ length: 200 }, (_, i) => ({
  _time: new Date(BASE + i * HOUR).toISOString(),
  status: i % 3 === 0 ? 404 : 200,
  n: i,
}));

function catalogOf(dataset: DatasetSource): Catalog {
  return { getDataset: async (name) => (name === 'logs' ? dataset : null) };
}

async function rows(apl: string, dataset: DatasetSource) {
  const out = await runApl(apl, {
    startMs: BASE - HOUR,
    endMs: BASE + 1000 * HOUR,
    nowMs: BASE + 1000 * HOUR,
    catalog: catalogOf(dataset),
  });
  return out.tables[0].columns;
}

describe('top N by _time reads newest (or oldest) blocks first and skips the rest', () => {
  const plain = () => new MemoryDataset('logs', events, { batchSize: 10 });

  it.each([
    ['logs | sort by _time desc | take 5', true],
    ['logs | top 7 by _time asc', true],
    ['logs | where status == 404 | sort by _time desc | take 12 | project n', true],
    ['logs | project _time, n | top 3 by _time desc', true],
    ['logs | extend _time = _time - 1h | top 3 by _time desc', false],
    ['logs | top 3 by n desc', false],
  ])('%s', async (apl, eligible) => {
    const ordered = new OrderedDataset(plain());
    expect(await rows(apl, ordered)).toEqual(await rows(apl, plain()));
    expect(ordered.hinted).toBe(eligible);
    if (eligible) expect(ordered.batchesRead).toBeLessThan(5);
    else expect(ordered.batchesRead).toBe(20);
  });
});
