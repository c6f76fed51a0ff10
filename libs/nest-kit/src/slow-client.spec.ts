import { PassThrough } from 'node:stream';
import { bodyDeadline } from './slow-client';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('bodyDeadline', () => {
  it('fails a body whose client stalls with 408, without an unhandled error when nobody reads it', async () => {
    const uncaught: unknown[] = [];
    const record = (err: unknown) => uncaught.push(err);
    process.on('uncaughtException', record);
    try {
      const source = new PassThrough();
      const body = bodyDeadline(source, { idleTimeoutMs: 30 });
      source.write('partial');
      await sleep(120);
      expect(body.destroyed).toBe(true);
      expect(uncaught).toEqual([]);
    } finally {
      process.off('uncaughtException', record);
    }
  });

  it('still hands the 408 to a reader', async () => {
    const source = new PassThrough();
    const body = bodyDeadline(source, { idleTimeoutMs: 30 });
    const failed = new Promise<{ statusCode?: number }>((resolve) => body.once('error', resolve));
    body.resume();
    source.write('partial');
    expect((await failed).statusCode).toBe(408);
  });

  it('keeps no deadline once the client has sent the whole body, read or not', async () => {
    const source = new PassThrough();
    const body = bodyDeadline(source, { idleTimeoutMs: 30 });
    source.end('whole');
    await sleep(120);
    expect(body.destroyed).toBe(false);
  });
});
