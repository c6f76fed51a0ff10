import type { RoleRecord } from '@quarry/metastore';
import { allOrgCapabilities, hasDatasetCapability, hasOrgCapability } from './capabilities';
import { builtInRoleCapabilities, roleCapabilities, unionCapabilities } from './role-capabilities';

const role = (over: Partial<RoleRecord>): RoleRecord => ({
  id: 'role_1',
  name: 'r',
  description: '',
  orgCapabilities: {},
  datasetCapabilities: {},
  viewCapabilities: {},
  members: [],
  createdAt: '2024-01-01T00:00:00.000Z',
  updatedAt: '2024-01-01T00:00:00.000Z',
  ...over,
});

describe('builtInRoleCapabilities', () => {
  it('gives owners and admins everything and none nothing', () => {
    expect(builtInRoleCapabilities('owner').orgCapabilities).toEqual(allOrgCapabilities());
    expect(builtInRoleCapabilities('admin').orgCapabilities).toEqual(allOrgCapabilities());
    expect(builtInRoleCapabilities('none')).toEqual({ orgCapabilities: {}, datasetCapabilities: {} });
  });

  it('lets read-only read and query but not ingest; user also ingests', () => {
    const readOnly = builtInRoleCapabilities('read-only');
    expect(hasOrgCapability(readOnly.orgCapabilities, 'datasets', 'read')).toBe(true);
    expect(hasOrgCapability(readOnly.orgCapabilities, 'datasets', 'create')).toBe(false);
    expect(hasDatasetCapability(readOnly.datasetCapabilities, 'logs', 'query', 'read')).toBe(true);
    expect(hasDatasetCapability(readOnly.datasetCapabilities, 'logs', 'ingest', 'create')).toBe(false);
    const user = builtInRoleCapabilities('user');
    expect(hasDatasetCapability(user.datasetCapabilities, 'logs', 'ingest', 'create')).toBe(true);
  });
});

describe('unionCapabilities', () => {
  it('grants an action when any set grants it, once, and ignores null action lists', () => {
    const union = unionCapabilities([
      roleCapabilities(role({ orgCapabilities: { datasets: ['read'], rbac: null } })),
      roleCapabilities(
        role({
          orgCapabilities: { datasets: ['read', 'create'] },
          datasetCapabilities: { logs: { query: ['read'] }, '*': { ingest: null } },
        }),
      ),
    ]);
    expect(union.orgCapabilities).toEqual({ datasets: ['create', 'read'] });
    expect(union.datasetCapabilities).toEqual({ logs: { query: ['read'] } });
    expect(hasDatasetCapability(union.datasetCapabilities, 'logs', 'query', 'read')).toBe(true);
    expect(hasDatasetCapability(union.datasetCapabilities, 'other', 'query', 'read')).toBe(false);
  });
});
