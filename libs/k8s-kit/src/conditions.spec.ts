import { findCondition, isConditionTrue, sameConditions, setCondition, type Condition } from './conditions';

const T0 = new Date('2026-11-26T10:00:00.250Z');
const T1 = new Date('2026-11-26T10:05:00.750Z');
const ready = (
  status: Condition['status'],
  reason: string,
  message = '',
): Omit<Condition, 'lastTransitionTime'> => ({
  type: 'Ready',
  status,
  reason,
  message,
  observedGeneration: 1,
});

describe('setCondition', () => {
  const initial = setCondition(undefined, ready('False', 'Creating'), T0);

  it.each([
    {
      name: 'a new type gets now, in whole seconds',
      before: undefined,
      update: ready('False', 'Creating'),
      time: '2026-11-26T10:05:00Z',
    },
    {
      name: 'same status, new reason keeps the time',
      before: initial,
      update: ready('False', 'ConnectionNotReady'),
      time: '2026-11-26T10:00:00Z',
    },
    {
      name: 'same status, new message keeps the time',
      before: initial,
      update: ready('False', 'Creating', 'still'),
      time: '2026-11-26T10:00:00Z',
    },
    {
      name: 'a status flip moves the time',
      before: initial,
      update: ready('True', 'Available'),
      time: '2026-11-26T10:05:00Z',
    },
  ])('$name', ({ before, update, time }) => {
    const after = setCondition(before, update, T1);
    expect(findCondition(after, 'Ready')).toEqual({ ...update, lastTransitionTime: time });
  });

  it('keeps other conditions and their order, and does not mutate its input', () => {
    const both = setCondition(
      initial,
      { type: 'Synced', status: 'True', reason: 'ReconcileSuccess', message: '' },
      T0,
    );
    const flipped = setCondition(both, ready('True', 'Available'), T1);
    expect(flipped.map((c) => c.type)).toEqual(['Ready', 'Synced']);
    expect(both[0].status).toBe('False');
    expect(isConditionTrue(flipped, 'Ready')).toBe(true);
    expect(isConditionTrue(flipped, 'Missing')).toBe(false);
  });
});

describe('sameConditions', () => {
  const a = setCondition(undefined, ready('True', 'Available'), T0);
  it.each([
    { name: 'only the time differs', b: setCondition(undefined, ready('True', 'Available'), T1), same: true },
    { name: 'the reason differs', b: setCondition(undefined, ready('True', 'Other'), T0), same: false },
    { name: 'a condition is missing', b: [], same: false },
    {
      name: 'the generation differs',
      b: setCondition(undefined, { ...ready('True', 'Available'), observedGeneration: 2 }, T0),
      same: false,
    },
  ])('$name → $same', ({ b, same }) => {
    expect(sameConditions(a, b)).toBe(same);
  });
});
