import { conditionsEqual, mergeCondition } from './conditions';
import { sameStatus } from './status-equality';

const t0 = new Date('2026-01-01T00:00:00Z');
const t1 = new Date('2026-01-01T00:05:00Z');

describe('mergeCondition', () => {
  it('keeps lastTransitionTime when the status does not flip, even if reason and message change', () => {
    const first = mergeCondition(
      undefined,
      { type: 'Ready', status: 'False', reason: 'Creating', message: 'a' },
      1,
      t0,
    );
    const second = mergeCondition(
      first,
      { type: 'Ready', status: 'False', reason: 'InvalidSpec', message: 'b' },
      2,
      t1,
    );
    expect(second).toEqual([
      {
        type: 'Ready',
        status: 'False',
        reason: 'InvalidSpec',
        message: 'b',
        observedGeneration: 2,
        lastTransitionTime: kubeTime(t0),
      },
    ]);
  });

  it('moves lastTransitionTime when the status flips', () => {
    const first = mergeCondition(
      undefined,
      { type: 'Ready', status: 'False', reason: 'Creating', message: '' },
      1,
      t0,
    );
    const second = mergeCondition(
      first,
      { type: 'Ready', status: 'True', reason: 'Available', message: '' },
      1,
      t1,
    );
    expect(second[0].lastTransitionTime).toBe(kubeTime(t1));
  });

  it('treats the list as a map keyed by type: other conditions stay in place', () => {
    let list = mergeCondition(
      undefined,
      { type: 'Ready', status: 'True', reason: 'Available', message: '' },
      1,
      t0,
    );
    list = mergeCondition(
      list,
      { type: 'Synced', status: 'True', reason: 'ReconcileSuccess', message: '' },
      1,
      t0,
    );
    list = mergeCondition(list, { type: 'Ready', status: 'False', reason: 'Deleting', message: '' }, 1, t1);
    expect(list.map((c) => `${c.type}=${c.status}`)).toEqual(['Ready=False', 'Synced=True']);
  });

  it('does not modify the list it was given', () => {
    const first = mergeCondition(
      undefined,
      { type: 'Ready', status: 'True', reason: 'Available', message: '' },
      1,
      t0,
    );
    const frozen = JSON.stringify(first);
    mergeCondition(first, { type: 'Ready', status: 'False', reason: 'Deleting', message: '' }, 1, t1);
    expect(JSON.stringify(first)).toBe(frozen);
  });
});

describe('conditionsEqual and sameStatus', () => {
  const ready = (status: 'True' | 'False', at: Date, generation = 1) =>
    mergeCondition(undefined, { type: 'Ready', status, reason: 'R', message: 'm' }, generation, at);

  it.each([
    ['the same condition set at another time', ready('True', t0), ready('True', t1), true],
    ['another status', ready('True', t0), ready('False', t0), false],
    ['another observedGeneration', ready('True', t0, 1), ready('True', t0, 2), false],
    ['a missing condition', ready('True', t0), [], false],
  ])('%s → %s', (_, a, b, equal) => {
    expect(conditionsEqual(a, b)).toBe(equal);
  });

  it('ignores lastSyncTime and key order but not other fields', () => {
    const base = {
      conditions: ready('True', t0),
      observedGeneration: 1,
      lastSyncTime: t0.toISOString(),
      roleId: 'r1',
    };
    expect(
      sameStatus(base, {
        roleId: 'r1',
        observedGeneration: 1,
        conditions: ready('True', t1),
        lastSyncTime: t1.toISOString(),
      } as never),
    ).toBe(true);
    expect(sameStatus(base, { ...base, roleId: 'r2' } as never)).toBe(false);
  });
});

/** metav1.Time: RFC 3339 with whole seconds. */
function kubeTime(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
