import { desiredDataset, diffDataset, isInSync, type DesiredDataset } from './dataset-desired';
import type { ApiDataset } from './management-api.port';
import type { DatasetResource, DatasetSpec } from './resources';

const cr = (spec: DatasetSpec, name = 'logs'): DatasetResource => ({
  apiVersion: 'quarry.dev/v1alpha1',
  kind: 'Dataset',
  metadata: { name, namespace: 'shop' },
  spec,
});

describe('desiredDataset', () => {
  it.each<[string, DatasetSpec, { defaultRegion?: string }, Partial<DesiredDataset>]>([
    [
      'defaults: metadata.name, Events, no retention, unmanaged region and map fields',
      {},
      {},
      {
        name: 'logs',
        description: '',
        kind: 'axiom:events:v1',
        region: undefined,
        retentionDays: 0,
        useRetentionPeriod: false,
        mapFields: undefined,
      },
    ],
    ['spec.name wins over metadata.name', { name: 'checkout-logs' }, {}, { name: 'checkout-logs' }],
    [
      'retentionDays sets useRetentionPeriod',
      { retentionDays: 30 },
      {},
      { retentionDays: 30, useRetentionPeriod: true },
    ],
    ['kind maps to the /v2 kind', { kind: 'OTelTraces' }, {}, { kind: 'otel:traces:v1' }],
    ['region falls back to the connection default', {}, { defaultRegion: 'eu' }, { region: 'eu' }],
    ['spec region wins over the default', { region: 'us' }, { defaultRegion: 'eu' }, { region: 'us' }],
    ['map fields become a sorted set', { mapFields: ['b', 'a', 'b'] }, {}, { mapFields: ['a', 'b'] }],
  ])('%s', (_, spec, connection, expected) => {
    expect(desiredDataset(cr(spec), connection)).toMatchObject(expected);
  });
});

describe('diffDataset', () => {
  const observed: ApiDataset = {
    id: 'logs',
    name: 'logs',
    description: 'x',
    kind: 'axiom:events:v1',
    created: '2026-01-01T00:00:00Z',
    edgeDeployment: 'home',
    mapFields: ['b', 'a'],
    retentionDays: 0,
    useRetentionPeriod: false,
  };
  const desired = (spec: DatasetSpec) => desiredDataset(cr({ description: 'x', ...spec }), {});

  it('is in sync when only unmanaged fields differ (region not named, map fields not managed)', () => {
    expect(isInSync(diffDataset(desired({}), observed))).toBe(true);
    expect(isInSync(diffDataset(desired({ mapFields: ['a', 'b'] }), observed))).toBe(true);
  });

  it.each<[string, DatasetSpec, Partial<ApiDataset>, object]>([
    [
      'description drift → full update',
      {},
      { description: 'edited' },
      { update: { description: 'x', retentionDays: 0, useRetentionPeriod: false } },
    ],
    [
      'retention added',
      { retentionDays: 7 },
      {},
      { update: { description: 'x', retentionDays: 7, useRetentionPeriod: true } },
    ],
    [
      'retention removed in the spec',
      {},
      { retentionDays: 7, useRetentionPeriod: true },
      { update: { description: 'x', retentionDays: 0, useRetentionPeriod: false } },
    ],
    ['map fields differ', { mapFields: ['a'] }, {}, { mapFields: ['a'] }],
    ['kind differs → immutable', { kind: 'OTelLogs' }, {}, { immutable: [expect.stringContaining('kind')] }],
    ['region differs → immutable', { region: 'eu' }, {}, { immutable: [expect.stringContaining('region')] }],
  ])('%s', (_, spec, drift, expected) => {
    expect(diffDataset(desired(spec), { ...observed, ...drift })).toMatchObject(expected);
  });

  it('ignores a stale retentionDays while the retention period is off', () => {
    expect(
      isInSync(diffDataset(desired({}), { ...observed, retentionDays: 9, useRetentionPeriod: false })),
    ).toBe(true);
  });
});
