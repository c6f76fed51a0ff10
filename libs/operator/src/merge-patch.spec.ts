import { mergePatchFor } from './merge-patch';

/** RFC 7386 apply, to check that the computed patch really turns previous into next. */
function apply(target: unknown, patch: unknown): unknown {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return patch;
  const out: Record<string, unknown> =
    typeof target === 'object' && target !== null && !Array.isArray(target) ? { ...(target as object) } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = apply(out[key], value);
  }
  return out;
}

describe('mergePatchFor', () => {
  it.each([
    [
      'a dropped nested field becomes null',
      { rotation: { previousTokenId: 't1', previousExpiresAt: 'x' } },
      { rotation: { previousTokenId: 't1' } },
      { rotation: { previousExpiresAt: null } },
    ],
    ['unchanged members are left out', { a: 1, b: [1, 2] }, { a: 1, b: [1, 2] }, {}],
    [
      'arrays are replaced whole',
      { conditions: [{ type: 'Ready' }] },
      { conditions: [{ type: 'Ready' }, { type: 'Synced' }] },
      { conditions: [{ type: 'Ready' }, { type: 'Synced' }] },
    ],
    ['new members are set', {}, { tokenId: 't2' }, { tokenId: 't2' }],
  ])('%s', (_, previous, next, expected) => {
    const patch = mergePatchFor(previous, next);
    expect(patch).toEqual(expected);
    expect(apply(previous, patch)).toEqual(next);
  });
});
