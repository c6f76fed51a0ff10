import { internal } from '@quarry/common';
import { MakeBagAggregator } from './bag-aggregator';
import { CountAggregator, MinMaxAggregator, SumAggregator, VarianceAggregator } from './basic-aggregators';
import { ArgExtremeAggregator, MakeListAggregator } from './collection-aggregators';
import { GroupSlots } from './group-slots';
import { HistogramAggregator } from './histogram-aggregator';
import {
  HllAggregator,
  HllMergeAggregator,
  TdigestAggregator,
  TdigestMergeAggregator,
} from './hll-tdigest-aggregators';
import { RateAggregator } from './rate-aggregator';
import { DcountAggregator, PercentileAggregator } from './sketch-aggregators';
import { PhrasesAggregator, PresenceAggregator } from './text-aggregators';
import { TakeAnyAggregator } from './take-any-aggregator';
import { TopkAggregator } from './topk-aggregator';
import { WeightedPercentileAggregator } from './weighted-percentile-aggregator';
import { HistogramSketch } from '../sketches/histogram-sketch';
import { DistinctCounter } from '../sketches/hyperloglog';
import { ExactBudget, QuantileSketch } from '../sketches/quantile-sketch';
import { SpaceSaving } from '../sketches/space-saving';

/**
 * Aggregator states cross threads by structured cloning, which keeps their data (typed arrays, arrays,
 * maps, sets, shared references, key order) but not their classes. `packInstances` notes, for every class
 * instance in the graph, its position in a depth-first walk and its class's name; `unpackInstances` walks
 * the clone the same way and gives those objects their prototypes back. Positions rather than tags in the
 * objects, so user values inside states (`make_list` of dynamic values) can never pose as a class. Only
 * the classes listed here may travel: anything else is a bug and fails loudly.
 */
const CLASSES: Record<string, { prototype: object }> = {
  ArgExtremeAggregator,
  CountAggregator,
  DcountAggregator,
  DistinctCounter,
  ExactBudget,
  GroupSlots,
  HistogramAggregator,
  HistogramSketch,
  HllAggregator,
  HllMergeAggregator,
  MakeBagAggregator,
  MakeListAggregator,
  MinMaxAggregator,
  PercentileAggregator,
  PhrasesAggregator,
  PresenceAggregator,
  QuantileSketch,
  RateAggregator,
  SpaceSaving,
  SumAggregator,
  TakeAnyAggregator,
  TdigestAggregator,
  TdigestMergeAggregator,
  TopkAggregator,
  VarianceAggregator,
  WeightedPercentileAggregator,
};
const NAME_OF = new Map<object, string>(Object.entries(CLASSES).map(([name, c]) => [c.prototype, name]));

/** A graph of class instances as structured-clone-safe data. */
export interface PackedInstances {
  value: unknown;
  /** [position in the walk, class name] of each class instance. */
  classes: [number, string][];
}

export function packInstances(value: unknown): PackedInstances {
  const classes: [number, string][] = [];
  walk(value, new Set(), (obj, position) => {
    const proto = Object.getPrototypeOf(obj) as object | null;
    // Plain objects: `Object.prototype` (of any realm) or a prototype chain that ends right away.
    if (proto === null || Object.getPrototypeOf(proto) === null) return;
    const name = NAME_OF.get(proto);
    if (name === undefined) {
      throw internal(`cannot send a ${proto.constructor?.name ?? 'class'} instance to another thread`);
    }
    classes.push([position, name]);
  });
  return { value, classes };
}

/** The graph packed by `packInstances` (after cloning), its classes restored in place. */
export function unpackInstances(packed: PackedInstances): unknown {
  let next = 0;
  walk(packed.value, new Set(), (obj, position) => {
    if (next >= packed.classes.length || packed.classes[next][0] !== position) return;
    const cls = CLASSES[packed.classes[next++][1]];
    if (cls === undefined) throw internal('unknown aggregate state class');
    Object.setPrototypeOf(obj, cls.prototype);
  });
  if (next !== packed.classes.length) throw internal('aggregate state does not match its class list');
  return packed.value;
}

/**
 * Calls `visit` on every object of the graph that is neither an array, a map, a set, a typed array nor a
 * buffer, once, with its position among all the objects visited so far (depth first, keys in order).
 */
function walk(value: unknown, seen: Set<object>, visit: (obj: object, position: number) => void): void {
  let position = 0;
  const step = (v: unknown): void => {
    if (typeof v !== 'object' || v === null || seen.has(v)) return;
    // Type tags rather than `instanceof`: a clone may come from another realm (vm contexts, tests).
    const tag = Object.prototype.toString.call(v);
    if (ArrayBuffer.isView(v) || tag === '[object ArrayBuffer]') return;
    seen.add(v);
    if (Array.isArray(v)) {
      for (const item of v) step(item);
      return;
    }
    if (tag === '[object Map]') {
      for (const [k, item] of v as Map<unknown, unknown>) {
        step(k);
        step(item);
      }
      return;
    }
    if (tag === '[object Set]') {
      for (const item of v as Set<unknown>) step(item);
      return;
    }
    visit(v, position++);
    for (const key of Object.keys(v)) step((v as Record<string, unknown>)[key]);
  };
  step(value);
}
