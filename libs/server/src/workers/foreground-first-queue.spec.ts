import { queueOptionsSymbol, type PiscinaTask } from 'piscina';
import { ForegroundFirstQueue } from './foreground-first-queue';

/** Stand-ins for Piscina's queued tasks: what the queue reads is the task's queue options. */
const task = (name: string, background: boolean) =>
  ({ name, [queueOptionsSymbol]: { background } }) as unknown as PiscinaTask & { name: string };

function drain(queue: ForegroundFirstQueue): string[] {
  const out: string[] = [];
  for (let t = queue.shift(); t !== null; t = queue.shift())
    out.push((t as unknown as { name: string }).name);
  return out;
}

describe('ForegroundFirstQueue', () => {
  it('hands out foreground tasks before background ones, each kind in arrival order', () => {
    const queue = new ForegroundFirstQueue(() => false);
    for (const t of [task('b1', true), task('f1', false), task('b2', true), task('f2', false)]) queue.push(t);
    expect(queue.size).toBe(4);
    expect(drain(queue)).toEqual(['f1', 'f2', 'b1', 'b2']);
    expect(queue.size).toBe(0);
  });

  it('hands out background tasks first while they are due (compaction fell behind)', () => {
    let due = true;
    const queue = new ForegroundFirstQueue(() => due);
    for (const t of [task('f1', false), task('b1', true), task('b2', true)]) queue.push(t);
    expect((queue.shift() as unknown as { name: string }).name).toBe('b1');
    due = false;
    expect(drain(queue)).toEqual(['f1', 'b2']);
  });

  it('treats tasks without queue options as foreground, and removes tasks from either kind', () => {
    const queue = new ForegroundFirstQueue(() => false);
    const plain = { name: 'p' } as unknown as PiscinaTask;
    const b = task('b', true);
    queue.push(b);
    queue.push(plain);
    queue.remove(b);
    expect(drain(queue)).toEqual(['p']);
  });
});
