import { strictBranches, strictComparison, strictElements, strictStringOperands } from './strict-types';

describe('set stricttypes checks', () => {
  it('let one type, long with real, and dynamic pass', () => {
    expect(strictComparison('==', 'string', 'string')).toBeNull();
    expect(strictComparison('<', 'long', 'real')).toBeNull();
    expect(strictComparison('==', 'dynamic', 'bool')).toBeNull();
    expect(strictStringOperands('string', 'dynamic')).toBeNull();
    expect(strictElements('datetime', ['datetime', 'dynamic'])).toBeNull();
    expect(strictBranches(['long', 'real', 'dynamic'])).toBeNull();
  });

  it('name the coercion they reject', () => {
    expect(strictComparison('>=', 'string', 'long')).toEqual({
      expected: 'operands of one type',
      got: 'string and long',
    });
    expect(strictComparison('=~', 'string', 'long')).toEqual({ expected: 'string operands', got: 'long' });
    expect(strictStringOperands('long', 'string')).toEqual({ expected: 'string operands', got: 'long' });
    expect(strictElements('string', ['string', 'long'])).toEqual({
      expected: 'elements of type string',
      got: 'long',
    });
    expect(strictBranches(['string', 'bool'])).toEqual({
      expected: 'results of one type',
      got: 'string and bool',
    });
  });
});
