import { KindController, schedule, type KeyQueue } from './kind-controller';

/** Records what the controller asks of the queue; hands out scripted keys, then shuts down. */
class ScriptedQueue implements KeyQueue {
  readonly calls: string[] = [];
  depth = 0;
  constructor(private readonly keys: string[]) {}
  async get() {
    return this.keys.shift();
  }
  done(key: string) {
    this.calls.push(`done ${key}`);
  }
  add(key: string) {
    this.calls.push(`add ${key}`);
  }
  addAfter(key: string, ms: number) {
    this.calls.push(`addAfter ${key} ${ms}`);
  }
  addRateLimited(key: string) {
    this.calls.push(`addRateLimited ${key}`);
  }
  forget(key: string) {
    this.calls.push(`forget ${key}`);
  }
}

describe('schedule', () => {
  it.each([
    [{ requeue: 'none' } as const, ['forget k']],
    [{ requeue: 'after', afterMs: 300_000 } as const, ['forget k', 'addAfter k 300000']],
    [{ requeue: 'after', afterMs: 30_000, error: 'connection' } as const, ['addAfter k 30000']],
    [{ requeue: 'backoff', error: '503' } as const, ['addRateLimited k']],
    [{ requeue: 'backoff', notBeforeMs: 5_000, error: '503' } as const, ['addAfter k 5000']],
  ])('%j → %j', (result, calls) => {
    const queue = new ScriptedQueue([]);
    schedule(queue, 'k', result);
    expect(queue.calls).toEqual(calls);
  });
});

describe('KindController', () => {
  it('reconciles each key, marks it done, reports metrics, and survives a throwing reconcile', async () => {
    const queue = new ScriptedQueue(['shop/a', 'shop/b']);
    const seen: string[] = [];
    const metrics: boolean[] = [];
    const controller = new KindController({
      kind: 'Dataset',
      queue,
      parseKey: (key) => ({ namespace: key.split('/')[0], name: key.split('/')[1] }),
      async reconcile(key) {
        seen.push(`${key.namespace}/${key.name}`);
        if (key.name === 'b') throw new Error('cache read failed');
        return { requeue: 'none' };
      },
      onReconciled: (_kind, _seconds, failed) => metrics.push(failed),
    });
    await controller.run(1);
    expect(seen).toEqual(['shop/a', 'shop/b']);
    expect(metrics).toEqual([false, true]);
    expect(queue.calls).toEqual(['forget shop/a', 'done shop/a', 'addRateLimited shop/b', 'done shop/b']);
  });
});
