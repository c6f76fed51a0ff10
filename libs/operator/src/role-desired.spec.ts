import { desiredRole, diffRole } from './role-desired';
import type { RoleResource } from './resources';

const role: RoleResource = {
  apiVersion: 'quarry.dev/v1alpha1',
  kind: 'Role',
  metadata: { name: 'readers', namespace: 'shop' },
  spec: {
    members: ['u2', 'u1', 'u2'],
    orgCapabilities: { datasets: ['read'] },
    datasetCapabilities: [{ dataset: 'logs', query: ['read'] }],
  },
};

describe('desiredRole / diffRole', () => {
  it('builds the complete body PUT needs, with defaults and sorted sets', () => {
    expect(desiredRole(role)).toEqual({
      name: 'readers',
      description: '',
      members: ['u1', 'u2'],
      orgCapabilities: { datasets: ['read'] },
      datasetCapabilities: { logs: { query: ['read'] } },
      viewCapabilities: {},
    });
  });

  it('sees no difference in what the API echoes back in another order or with nulls', () => {
    const observed = {
      id: 'role_1',
      name: 'readers',
      description: '',
      members: ['u2', 'u1'],
      orgCapabilities: { datasets: ['read'], rbac: null },
      datasetCapabilities: { logs: { query: ['read'], ingest: null } },
    };
    expect(diffRole(desiredRole(role), observed)).toEqual([]);
  });

  it('names each drifted field', () => {
    const observed = {
      id: 'role_1',
      name: 'Readers',
      description: 'x',
      members: [],
      orgCapabilities: {},
      datasetCapabilities: {},
    };
    expect(diffRole(desiredRole(role), observed)).toEqual([
      'name',
      'description',
      'members',
      'orgCapabilities',
      'datasetCapabilities',
    ]);
  });
});
