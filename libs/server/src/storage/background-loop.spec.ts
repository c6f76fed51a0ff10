import { Logger } from '@nestjs/common';
import { BackgroundLoop } from './background-loop';

describe('BackgroundLoop', () => {
  const logger = new Logger('test');
  beforeEach(() => {
    jest.useFakeTimers();
    jest.spyOn(logger, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => jest.useRealTimers());

  it('runs every interval, backs off exponentially while failing, and resets after a success', async () => {
    const starts: number[] = [];
    let fail = 2;
    const loop = new BackgroundLoop('task', logger, async () => {
      starts.push(Date.now());
      if (fail-- > 0) throw new Error('storage down');
    });
    const t0 = Date.now();
    loop.start(100);
    await jest.advanceTimersByTimeAsync(100); // run 1 fails
    expect(loop.consecutiveFailures).toBe(1);
    await jest.advanceTimersByTimeAsync(200); // after 100 * 2^1: run 2 fails
    expect(loop.consecutiveFailures).toBe(2);
    await jest.advanceTimersByTimeAsync(400); // after 100 * 2^2: run 3 succeeds
    expect(loop.consecutiveFailures).toBe(0);
    await jest.advanceTimersByTimeAsync(100); // back to the plain interval
    expect(starts.map((t) => t - t0)).toEqual([100, 300, 700, 800]);
    expect(logger.error).toHaveBeenCalledTimes(2);
    await loop.stop();
  });

  it('runs again at once while hurry says so, and stop waits for the run in progress', async () => {
    let runs = 0;
    let release: () => void = () => undefined;
    const loop = new BackgroundLoop('task', logger, async () => {
      runs++;
      if (runs === 3) await new Promise<void>((r) => (release = r));
    });
    loop.start(1000, () => runs < 3);
    await jest.advanceTimersByTimeAsync(1000); // run 1
    await jest.advanceTimersByTimeAsync(1); // run 2 right after (hurry), not 1000 ms later
    await jest.advanceTimersByTimeAsync(1); // run 3
    expect(runs).toBe(3);
    let stopped = false;
    const stopping = loop.stop().then(() => (stopped = true));
    await jest.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false); // run 3 is still in progress
    release();
    await stopping;
    await jest.advanceTimersByTimeAsync(5000);
    expect(runs).toBe(3); // nothing after stop
  });
});
