import { lintCrd } from './structural-lint';
import { syntheticCrd } from './synthetic-crd';

/** The lint's findings for a spec schema, without the CRD name prefix. */
function problems(spec: Record<string, unknown>, columns: Parameters<typeof syntheticCrd>[1] = []): string[] {
  return lintCrd(syntheticCrd(spec, columns)).map((p) => p.replace(/^widgets\.example\.dev: /, ''));
}

describe('lintCrd', () => {
  it('accepts a clean schema', () => {
    expect(problems({ type: 'object', properties: { name: { type: 'string', maxLength: 8 } } })).toEqual([]);
  });

  it('finds untyped nodes and forbidden keywords', () => {
    expect(
      problems({
        type: 'object',
        properties: { free: {}, either: { type: 'string', anyOf: [{ maxLength: 1 }] } },
      }),
    ).toEqual(['spec.free: has no type (structural schemas type every node)', 'spec.either: uses anyOf']);
  });

  it('finds strings, lists and maps read by a rule without their own bound', () => {
    const found = problems({
      type: 'object',
      properties: {
        name: { type: 'string' },
        tags: { type: 'array', items: { type: 'string', maxLength: 4 } },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
      },
      'x-kubernetes-validations': [
        { rule: "self.name != '' && size(self.tags) < 3 && !('a' in self.labels)", message: 'm' },
      ],
    });
    expect(found).toEqual([
      expect.stringMatching(/^spec\.name: is read by rule .* but has no maxLength$/),
      expect.stringMatching(/^spec\.tags: is read by rule .* but has no maxItems$/),
      expect.stringMatching(/^spec\.labels: is read by rule .* but has no maxProperties$/),
    ]);
  });

  it('does not count has() checks as reads', () => {
    const schema = {
      type: 'object',
      properties: { at: { type: 'string', format: 'date-time' } },
      'x-kubernetes-validations': [{ rule: '!has(self.at)', message: 'm' }],
    };
    expect(problems(schema)).toEqual([]);
  });

  it('finds unbounded lists around items that carry rules', () => {
    const found = problems({
      type: 'object',
      properties: {
        entries: {
          type: 'array',
          items: { type: 'object', 'x-kubernetes-validations': [{ rule: 'has(self.x)', message: 'm' }] },
        },
      },
    });
    expect(found).toEqual(['spec.entries: encloses rules at spec.entries[0] but has no maxItems']);
  });

  it('finds invalid defaults and list-map keys that may be missing', () => {
    const found = problems({
      type: 'object',
      properties: {
        policy: { type: 'string', enum: ['Delete', 'Orphan'], default: 'Keep' },
        entries: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name'],
          items: { type: 'object', properties: { name: { type: 'string' } } },
        },
      },
    });
    expect(found).toEqual([
      expect.stringMatching(/^spec\.policy: default "Keep" is invalid/),
      'spec.entries: list-map key name is neither required nor defaulted',
    ]);
  });

  it('finds printer columns without a valid type or pointing at no field', () => {
    const found = problems({ type: 'object', properties: { size: { type: 'integer' } } }, [
      { name: 'Size', type: 'integer', jsonPath: '.spec.size' },
      { name: 'Typo', type: 'integer', jsonPath: '.spec.sise' },
      { name: 'Untyped', type: undefined as never, jsonPath: '.spec.size' },
    ]);
    expect(found).toEqual([
      'printer column Typo: .spec.sise is not a field of the schema',
      'printer column Untyped: type undefined',
    ]);
  });
});
