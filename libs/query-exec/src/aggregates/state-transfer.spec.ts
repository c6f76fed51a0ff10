import { deserialize, serialize } from 'node:v8';
import type { Column } from '@quarry/contracts';
import { PartialAggregate } from '../operators/aggregate';
import type { PartialAggregateState } from '../operators/exec-env';
import { DistinctCounter } from '../sketches/hyperloglog';
import { QuantileSketch } from '../sketches/quantile-sketch';
import type { Aggregator } from './aggregator';
import { CountAggregator } from './basic-aggregators';
import { TdigestAggregator } from './hll-tdigest-aggregators';
import { PercentileAggregator } from './sketch-aggregators';
import { packInstances, unpackInstances, type PackedInstances } from './state-transfer';

describe('state transfer across threads', () => {
  it('restores classes, shared references and user values after a structured clone', () => {
    const sketch = new QuantileSketch();
    for (let i = 0; i < 100; i++) sketch.add(i);
    const counter = new DistinctCounter();
    counter.add('a');
    // A user value that looks like a class marker must stay a plain object.
    const user = { __stateClass: 'CountAggregator', nested: [{ x: 1 }] };
    const state = { sketches: [sketch, sketch], counter, values: new Map([['k', user]]) };
    const copy = unpackInstances(structuredClone(packInstances(state))) as typeof state;
    expect(copy.sketches[0]).toBeInstanceOf(QuantileSketch);
    expect(copy.sketches[0]).toBe(copy.sketches[1]);
    expect(copy.sketches[0].quantile(50)).toBe(sketch.quantile(50));
    expect(copy.counter).toBeInstanceOf(DistinctCounter);
    expect(copy.counter.estimate()).toBe(1);
    expect(copy.values.get('k')).not.toBeInstanceOf(CountAggregator);
    expect(Object.getPrototypeOf(Object.getPrototypeOf(copy.values.get('k')))).toBeNull(); // a plain object
    expect(copy.values.get('k')).toEqual(user);
  });

  it('refuses a class it does not know', () => {
    class Stranger {}
    expect(() => packInstances([new CountAggregator(), new Stranger()])).toThrow(/Stranger/);
  });

  it('moves the big sketch arrays of a partial instead of copying them, with the same answers', () => {
    // 3 groups × 100,000 values: exact percentiles hold them as 32-bit integers (400 KB per group); a
    // t-digest over 300,000 values holds its centroids (small) plus an unflushed buffer.
    const n = 300_000;
    const groups = Int32Array.from({ length: n }, (_, i) => i % 3);
    const values = Float64Array.from({ length: n }, (_, i) => ((i * 7919) % 100_003) / 1000);
    const column: Column = { kind: 'real', values, nulls: null };
    const percentile = new PercentileAggregator([50, 95], 'one');
    const digest = new TdigestAggregator(false);
    const small = new PercentileAggregator([50], 'one');
    percentile.update(groups, n, [column], null);
    digest.update(groups, n, [column], null);
    small.update(groups.subarray(0, 10), 10, [column], null);
    const aggregators: Aggregator[] = [percentile, digest, small];
    const before = aggregators.map((a) => JSON.stringify(a.finish(3)));
    // Buffers that will move keep their spare capacity (trimming them would be a copy).
    for (const a of aggregators) a.prepareForTransfer?.(64 * 1024);
    const state = { aggregators: packInstances(aggregators) } as PartialAggregateState;

    const transfer = PartialAggregate.transferablesOf(state, 64 * 1024);
    const wholeBytes = transfer.reduce((sum, b) => sum + b.byteLength, 0);
    expect(wholeBytes).toBeGreaterThan(3 * 4 * 100_000); // untrimmed: more than the values themselves
    // Each group's exact values (400 KB) move; the small aggregate's 10 values and small centroids do not.
    expect(transfer.length).toBeGreaterThanOrEqual(3);
    expect(transfer.every((b) => b.byteLength >= 64 * 1024)).toBe(true);
    expect(new Set(transfer).size).toBe(transfer.length);
    const copy = unpackInstances(structuredClone(state.aggregators, { transfer })) as Aggregator[];
    // Moved: the sender's buffers are detached, so nothing was copied and the sender cannot use them.
    expect(transfer.every((b) => b.byteLength === 0)).toBe(true);
    expect(copy.map((a) => JSON.stringify(a.finish(3)))).toEqual(before);
  });

  it('lists nothing to move below the size asked for', () => {
    const sketchOnly = new PercentileAggregator([50], 'one');
    sketchOnly.update(
      new Int32Array(100),
      100,
      [{ kind: 'real', values: new Float64Array(100), nulls: null }],
      null,
    );
    const state = { aggregators: packInstances([sketchOnly]) } as PartialAggregateState;
    expect(PartialAggregate.transferablesOf(state, 64 * 1024)).toEqual([]);
    expect(PartialAggregate.transferablesOf(state, 1)).toHaveLength(1);
  });

  it('trims a moved state for the wire: the same answers in fewer bytes', () => {
    const n = 200_000;
    const percentile = new PercentileAggregator([90], 'one');
    percentile.update(
      new Int32Array(n),
      n,
      [{ kind: 'real', values: Float64Array.from({ length: n }, (_, i) => i % 977), nulls: null }],
      null,
    );
    const answer = JSON.stringify(percentile.finish(1));
    percentile.prepareForTransfer(64 * 1024);
    const state = { aggregators: packInstances([percentile]) } as PartialAggregateState;
    const moved = structuredClone(state, { transfer: PartialAggregate.transferablesOf(state, 64 * 1024) });
    const untrimmedBytes = serialize(moved).length;
    const trimmed = PartialAggregate.trimmedState(moved);
    // 200,000 values as 32-bit integers, in an array grown by doubling to 262,144.
    expect(untrimmedBytes).toBeGreaterThan(4 * 262_144);
    expect(serialize(trimmed).length).toBeLessThan(4 * 200_000 + 4096);
    const received = unpackInstances(
      deserialize(serialize(trimmed.aggregators)) as PackedInstances,
    ) as Aggregator[];
    expect(JSON.stringify(received[0].finish(1))).toBe(answer);
  });
});
