import { parseApl } from '@quarry/apl';
import { notFound } from '@quarry/common';
import { buildPlan, type BuiltPlan } from './builder';
import type { Field } from './types';

export const T0 = Date.UTC(2024, 4, 1);
export const T1 = Date.UTC(2024, 4, 3);

export const SCHEMA: Field[] = [
  { name: '_sysTime', type: 'datetime' },
  { name: '_time', type: 'datetime' },
  { name: 'geo.city', type: 'string' },
  { name: 'method', type: 'string' },
  { name: 'req_duration_ms', type: 'real' },
  { name: 'status', type: 'string' },
  { name: 'tags', type: 'dynamic' },
];

/** Plans a query against dataset `ds` with SCHEMA and a fixed window (for planner tests). */
export function plan(text: string): BuiltPlan {
  return buildPlan(parseApl(text), {
    startMs: T0,
    endMs: T1,
    nowMs: T1,
    datasetSchema: (name, span) => {
      if (name !== 'ds') throw notFound(`dataset "${name}" not found`, { span });
      return SCHEMA;
    },
  });
}
