import { Worker } from 'node:worker_threads';
import type { BlockRecord, ColumnBatch } from '@quarry/contracts';
import { emptyScanStats } from '@quarry/contracts';
import { blocksSource } from '../storage/part-scan';
import type { BlockReader } from '../storage/block-reader';
import { cancellationOf, shareCancellation } from './shared-cancel';

const block = (i: number): BlockRecord => ({
  id: `b${i}`,
  datasetId: 'd',
  objectKey: `blocks/d/b${i}.qblk`,
  rowCount: 1,
  sizeBytes: 1,
  minTime: i,
  maxTime: i,
  partition: 0,
  firstOffset: i,
  lastOffset: i,
  createdAt: '',
});

describe('shared cancellation', () => {
  it('has no flag without a signal, and a set flag for a signal already aborted', () => {
    expect(shareCancellation(undefined)).toBeUndefined();
    const controller = new AbortController();
    controller.abort();
    expect(cancellationOf(shareCancellation(controller.signal)!).aborted).toBe(true);
  });

  it('is seen by another thread once the signal aborts', async () => {
    const controller = new AbortController();
    const flag = shareCancellation(controller.signal)!;
    // The worker spins (never turning its event loop) until it reads the flag.
    const worker = new Worker(
      `const { workerData, parentPort } = require('node:worker_threads');
       const view = new Int32Array(workerData);
       parentPort.postMessage('spinning');
       const started = Date.now();
       while (Atomics.load(view, 0) === 0 && Date.now() - started < 10000) {}
       parentPort.postMessage(Atomics.load(view, 0) === 1 ? 'stopped' : 'timed out');`,
      { eval: true, workerData: flag },
    );
    const messages: string[] = [];
    const done = new Promise<void>((resolve) =>
      worker.on('message', (m: string) => {
        messages.push(m);
        if (m === 'spinning') controller.abort();
        else resolve();
      }),
    );
    await done;
    await worker.terminate();
    expect(messages).toEqual(['spinning', 'stopped']);
  });

  it('stops a scan over blocks at the next block', async () => {
    const controller = new AbortController();
    const opened: string[] = [];
    const reader = {
      open: async (key: string) => {
        opened.push(key);
        if (opened.length === 2) controller.abort();
        return { footer: { rowCount: 1, columns: [] }, column: () => undefined };
      },
      summary: async () => ({}),
    } as unknown as BlockReader;
    const cancel = cancellationOf(shareCancellation(controller.signal)!);
    const source = blocksSource('d', [0, 1, 2, 3, 4].map(block), reader, cancel);
    const batches: ColumnBatch[] = [];
    const scan = (async () => {
      for await (const b of source.scan({ startMs: 0, endMs: 10, columns: [], stats: emptyScanStats() }))
        batches.push(b);
    })();
    await expect(scan).rejects.toMatchObject({ code: 'query_aborted' });
    expect(opened).toHaveLength(2);
  });
});
