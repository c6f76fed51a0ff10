import { types } from 'node:util';
import { QuarryError } from '@quarry/common';
import { valueAt } from '@quarry/contracts';
import { decodeLogRecord } from '../storage/log-codec';
import { CpuPool, ownsWholeBuffer } from './cpu-pool';

const NOW = Date.UTC(2024, 4, 1);
const ingestInput = (body: string, contentType = 'application/x-ndjson') => ({
  datasetId: 'ds-1',
  body: Buffer.from(body),
  contentType,
  mapFields: [],
  nowMs: NOW,
});

// The threaded pool loads dist/workers/cpu-worker.js: `npm test` builds before running the suites.
describe.each([
  ['on worker threads', 2],
  ['inline', 0],
])('CpuPool %s', (_, threads) => {
  let pool: CpuPool;
  beforeAll(() => {
    pool = CpuPool.create(threads);
  });
  afterAll(() => pool.close());

  it('parses an ingest body into a log record, its summary and the status', async () => {
    const body = '{"_time":"2024-05-01T00:00:01Z","a":1,"s":"x"}\n{"a":2.5}\nnot json';
    const { status, records } = await pool.run('ingest', ingestInput(body));
    const [record] = records;
    expect(status).toMatchObject({ ingested: 2, failed: 1, walLength: 2 });
    expect(status.failures[0].error).toMatch(/^line 3: invalid JSON/);
    const decoded = decodeLogRecord(record!.payload);
    expect(decoded.datasetId).toBe('ds-1');
    expect(decoded.batch.length).toBe(2);
    expect(decoded.batch.columns.get('a')).toMatchObject({ kind: 'real' });
    expect(record!.summary).toMatchObject({ datasetId: 'ds-1', rows: 2, minTime: NOW, maxTime: NOW + 1000 });
  });

  it('moves a body it is given to transfer (a worker detaches it) and hands back an intact log record', async () => {
    const lines = Array.from({ length: 200 }, (_, i) => `{"i":${i},"s":"value ${i}"}`).join('\n');
    const body = Buffer.from(new TextEncoder().encode(lines)); // owns its whole ArrayBuffer
    expect(ownsWholeBuffer(body)).toBe(true);
    const { status, records } = await pool.run('ingest', { ...ingestInput(''), body }, [body]);
    const [record] = records;
    expect(status.ingested).toBe(200);
    expect(body.byteLength).toBe(threads > 0 ? 0 : lines.length);
    // In shared memory: the tail and the compaction worker read these bytes without copies.
    expect(types.isSharedArrayBuffer(record!.payload.buffer)).toBe(true);
    const decoded = decodeLogRecord(record!.payload);
    expect(decoded.batch.length).toBe(200);
    expect(decoded.batch.columns.get('s')).toMatchObject({
      kind: 'string',
      dict: expect.arrayContaining(['value 199']),
    });
  });

  it('copies a movable body that shares its buffer (a small Buffer from the pool stays intact)', async () => {
    const body = Buffer.from('{"a":1}');
    const { status } = await pool.run('ingest', { ...ingestInput(''), body }, [body]);
    expect(status.ingested).toBe(1);
    expect(body.toString()).toBe('{"a":1}');
  });

  it("rethrows a task's QuarryError with its kind, code and message", async () => {
    const err = await pool.run('ingest', ingestInput('[1', 'application/json')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(QuarryError);
    expect(err).toMatchObject({ kind: 'invalid', code: 'ingest_body_malformed' });
    expect((err as Error).message).toMatch(/^invalid JSON at byte/);
  });

  it('answers no record when no event is accepted', async () => {
    const { status, records } = await pool.run('ingest', ingestInput('{"a":1}\n"x"\n'));
    expect(status.ingested).toBe(1);
    expect(records).toHaveLength(1);
    const none = await pool.run('ingest', ingestInput(''));
    expect(none).toMatchObject({ status: { ingested: 0, failed: 0 }, records: [] });
  });

  it('cuts a batch whose record would pass the log limit into records under it, every row once', async () => {
    const lines = Array.from({ length: 2000 }, (_, i) => JSON.stringify({ i, pad: `${i}`.repeat(50) })).join(
      '\n',
    );
    const whole = await pool.run('ingest', ingestInput(lines));
    const limit = Math.floor(whole.records[0].payload.byteLength / 5);
    const { status, records } = await pool.run('ingest', { ...ingestInput(lines), maxRecordBytes: limit });
    expect(status.ingested).toBe(2000);
    expect(records.length).toBeGreaterThanOrEqual(5);
    for (const r of records) expect(r.payload.byteLength).toBeLessThanOrEqual(limit);
    const seen = records.flatMap((r) => {
      const { batch } = decodeLogRecord(r.payload);
      const column = batch.columns.get('i')!;
      return Array.from({ length: batch.length }, (_, row) => valueAt(column, row));
    });
    expect(seen.sort((a, b) => (a as number) - (b as number))).toEqual(
      Array.from({ length: 2000 }, (_, i) => i),
    );
  });

  it('refuses with 413 an event that alone passes the log limit, and keeps nothing of the request', async () => {
    const err = await pool
      .run('ingest', { ...ingestInput(`{"a":1}\n{"big":"${'y'.repeat(5000)}"}`), maxRecordBytes: 2000 })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'too_large', code: 'ingest_event_too_large' });
  });
});

describe('what may move between threads', () => {
  it('only buffers a view spans whole: never a small Buffer from the shared pool', () => {
    expect(ownsWholeBuffer(Buffer.from('small'))).toBe(false);
    expect(ownsWholeBuffer(new Uint8Array(10))).toBe(true);
    expect(ownsWholeBuffer(new Uint8Array(10).subarray(2))).toBe(false);
    expect(ownsWholeBuffer(new Uint8Array(new SharedArrayBuffer(10)))).toBe(false);
  });
});

describe('CpuPool task order', () => {
  let pool: CpuPool;
  beforeEach(() => {
    pool = CpuPool.create(1);
  });
  afterEach(() => pool.close());

  /** Starts three background merges and then an ingest on one thread; the order they finish in. */
  async function finishOrder(): Promise<string[]> {
    const order: string[] = [];
    const body = Array.from({ length: 2000 }, (_, i) => `{"i":${i}}`).join('\n');
    const tasks = [1, 2, 3].map((n) =>
      pool.run('mergeBlocks', { blocks: [] }, [], { background: true }).then(() => order.push(`merge${n}`)),
    );
    tasks.push(pool.run('ingest', ingestInput(body)).then(() => order.push('ingest')));
    await Promise.all(tasks);
    return order;
  }

  it('runs a waiting ingest before waiting background work', async () => {
    pool.backgroundDueWhen(() => false);
    const order = await finishOrder();
    // The first merge may already run when the ingest arrives; the ingest passes the others.
    expect(order.indexOf('ingest')).toBeLessThan(order.indexOf('merge2'));
  });

  it('runs background work first once it is due', async () => {
    pool.backgroundDueWhen(() => true);
    const order = await finishOrder();
    expect(order.indexOf('ingest')).toBeGreaterThan(order.indexOf('merge2'));
  });
});
