import { QuarryError } from '@quarry/common';
import { validateApl } from './run-apl';

/** validateApl has no schemas: names that may exist at run time are accepted, real mistakes are not. */
describe('validateApl without schemas', () => {
  it.each([
    'ds | project-away a, b*',
    'ds | project-keep a',
    'ds | project-reorder a granny-asc, * desc',
    'ds | project-rename x = a',
    'ds | redact @"\\d" on a',
    'ds | join kind=leftouter (other | project id, v) on id',
    'ds | lookup (other) on $left.a == $right.b',
    'ds | where a in ((other | project b))',
    'search in (web-*) host:"x" and not "y"',
  ])('accepts %s', (q) => {
    expect(() => validateApl(q)).not.toThrow();
  });

  it.each([
    ['ds | where a:"x"', 'apl_unexpected_token'],
    ['ds | search strlen(a:"x") > 1', 'apl_invalid_argument'],
    ['ds | project-reorder a granny', 'apl_unexpected_token'],
    ['ds | summarize spotlight(a == 1, b)', 'apl_unsupported'],
    ['ds | summarize presence(strlen(a))', 'apl_invalid_argument'],
    ['ds | summarize phrases(a, 0)', 'apl_invalid_argument'],
    ['ds | mv-expand kind=list a', 'apl_invalid_argument'],
    ['ds | extend x = cot(1, 2)', 'apl_wrong_arity'],
    ['print s = ```abc', 'apl_unterminated_string'],
  ])('rejects %s with %s', (q, code) => {
    let err: unknown;
    try {
      validateApl(q);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(QuarryError);
    expect((err as QuarryError).code).toBe(code);
    expect((err as QuarryError).span).toBeDefined();
  });
});
