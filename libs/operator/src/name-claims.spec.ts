import { olderClaimant } from './name-claims';
import type { DatasetResource } from './resources';

const ds = (
  name: string,
  namespace: string,
  created: string,
  datasetName = 'logs',
  connection?: string,
): DatasetResource => ({
  apiVersion: 'quarry.dev/v1alpha1',
  kind: 'Dataset',
  metadata: { name, namespace, uid: `${namespace}/${name}`, creationTimestamp: created },
  spec: { name: datasetName, ...(connection ? { connectionRef: { name: connection } } : {}) },
});
const nameOf = (d: DatasetResource) => d.spec.name ?? d.metadata.name;

describe('olderClaimant', () => {
  const a = ds('a', 'team1', '2026-01-01T00:00:00Z');
  const b = ds('b', 'team2', '2026-01-02T00:00:00Z');

  it('lets the oldest CR own the name and names it to the others', () => {
    expect(olderClaimant(a, [a, b], nameOf)).toBeUndefined();
    expect(olderClaimant(b, [a, b], nameOf)).toBe(a);
  });

  it('breaks a creation-time tie by namespace/name', () => {
    const c = ds('c', 'team0', '2026-01-01T00:00:00Z');
    expect(olderClaimant(a, [a, c], nameOf)).toBe(c);
  });

  it('ignores other names and other connections', () => {
    expect(olderClaimant(b, [a, b, ds('x', 'n', '2025-01-01T00:00:00Z', 'metrics')], nameOf)).toBe(a);
    expect(olderClaimant(ds('y', 'n', '2027-01-01T00:00:00Z', 'logs', 'eu'), [a, b], nameOf)).toBeUndefined();
  });
});
