import { DistinctCounter } from '../sketches/hyperloglog';
import { QuantileSketch } from '../sketches/quantile-sketch';
import { CountAggregator } from './basic-aggregators';
import { packInstances, unpackInstances } from './state-transfer';

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
});
