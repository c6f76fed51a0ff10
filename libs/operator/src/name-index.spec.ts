import { NameIndex } from './name-index';
import type { DatasetResource, RoleResource } from './resources';

const dataset = (
  namespace: string,
  name: string,
  datasetName?: string,
  connection?: string,
): DatasetResource => ({
  apiVersion: 'quarry.dev/v1alpha1',
  kind: 'Dataset',
  metadata: { name, namespace },
  spec: {
    ...(datasetName ? { name: datasetName } : {}),
    ...(connection ? { connectionRef: { name: connection } } : {}),
  },
});
const role = (namespace: string, name: string, roleName: string): RoleResource => ({
  apiVersion: 'quarry.dev/v1alpha1',
  kind: 'Role',
  metadata: { name, namespace },
  spec: { name: roleName },
});

describe('NameIndex', () => {
  it('finds the CRs claiming one effective name, per connection', () => {
    const index = new NameIndex();
    index.upsert('Dataset', dataset('a', 'logs'));
    index.upsert('Dataset', dataset('b', 'web', 'logs'));
    index.upsert('Dataset', dataset('c', 'logs', undefined, 'eu'));
    index.upsert('Dataset', dataset('d', 'metrics'));
    expect(index.sharing('Dataset', dataset('x', 'logs'))).toEqual([
      { namespace: 'a', name: 'logs' },
      { namespace: 'b', name: 'web' },
    ]);
    expect(index.sharing('Dataset', dataset('x', 'logs', undefined, 'eu'))).toEqual([
      { namespace: 'c', name: 'logs' },
    ]);
    expect(index.sharing('Role', role('a', 'logs', 'logs'))).toEqual([]);
  });

  it('compares role names ignoring case, as Quarry does', () => {
    const index = new NameIndex();
    index.upsert('Role', role('a', 'admins', 'Admins'));
    expect(index.sharing('Role', role('b', 'x', 'ADMINS'))).toEqual([{ namespace: 'a', name: 'admins' }]);
  });

  it('moves a CR whose name changed and names the CRs that shared the old or the new name', () => {
    const index = new NameIndex();
    index.upsert('Role', role('a', 'r1', 'ops'));
    index.upsert('Role', role('b', 'r2', 'ops'));
    index.upsert('Role', role('c', 'r3', 'dev'));
    expect(index.upsert('Role', role('a', 'r1', 'ops'))).toEqual([]); // unchanged: nobody to requeue
    expect(index.upsert('Role', role('a', 'r1', 'dev'))).toEqual([
      { namespace: 'b', name: 'r2' },
      { namespace: 'c', name: 'r3' },
    ]);
    expect(index.sharing('Role', role('x', 'x', 'ops'))).toEqual([{ namespace: 'b', name: 'r2' }]);
  });

  it('forgets a deleted CR and names the CRs that now may own its name', () => {
    const index = new NameIndex();
    index.upsert('Dataset', dataset('a', 'logs'));
    index.upsert('Dataset', dataset('b', 'logs'));
    expect(index.remove('Dataset', dataset('a', 'logs'))).toEqual([{ namespace: 'b', name: 'logs' }]);
    expect(index.remove('Dataset', dataset('a', 'logs'))).toEqual([]);
    expect(index.remove('Dataset', dataset('b', 'logs'))).toEqual([]);
    expect(index.sharing('Dataset', dataset('x', 'logs'))).toEqual([]);
  });
});
