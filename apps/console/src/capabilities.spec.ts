import {
  DATASET_CAPABILITIES,
  describeCapabilities,
  hasCapability,
  ORG_AREAS,
  toggleCapability,
  withDatasetCapabilities,
} from './capabilities';

describe('capability editing', () => {
  it('adds actions in the schema order and removes an area left empty', () => {
    let caps = toggleCapability({}, 'monitors', 'update', true, ORG_AREAS);
    caps = toggleCapability(caps, 'monitors', 'create', true, ORG_AREAS);
    expect(caps).toEqual({ monitors: ['create', 'update'] });
    expect(hasCapability(caps, 'monitors', 'create')).toBe(true);
    caps = toggleCapability(caps, 'monitors', 'create', false, ORG_AREAS);
    caps = toggleCapability(caps, 'monitors', 'update', false, ORG_AREAS);
    expect(caps).toEqual({});
  });

  it('does not change the map it is given', () => {
    const before = { query: ['read'] };
    const after = toggleCapability(before, 'ingest', 'create', true, DATASET_CAPABILITIES);
    expect(before).toEqual({ query: ['read'] });
    expect(after).toEqual({ query: ['read'], ingest: ['create'] });
  });

  it('refuses an action the area does not have', () => {
    expect(() => toggleCapability({}, 'auditLog', 'delete', true, ORG_AREAS)).toThrow(/auditLog/);
    expect(() => toggleCapability({}, 'monitors', 'read', true, DATASET_CAPABILITIES)).toThrow();
  });

  it('sets and drops one dataset of a dataset map', () => {
    const map = withDatasetCapabilities({}, 'logs', { query: ['read'] });
    expect(map).toEqual({ logs: { query: ['read'] } });
    expect(withDatasetCapabilities(map, 'logs', {})).toEqual({});
  });

  it('summarises capabilities on one line', () => {
    expect(describeCapabilities({ monitors: ['create', 'read'], rbac: [] })).toBe('monitors: create/read');
    expect(describeCapabilities(undefined)).toBe('');
  });
});
