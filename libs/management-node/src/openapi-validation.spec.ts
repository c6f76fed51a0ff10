import { isQuarryError } from '@quarry/common';
import { OpenApiBodyValidator, toJsonSchema, validateBody } from './openapi-validation';

/** The message of the `invalid` error `validateBody` throws, or a failure when it does not throw one. */
function problemOf(operation: string, body: unknown): string {
  try {
    validateBody(operation, body);
  } catch (err) {
    if (isQuarryError(err) && err.kind === 'invalid') return err.message;
    throw err;
  }
  throw new Error(`expected ${operation} to reject ${JSON.stringify(body)}`);
}

describe('validateBody (v2.json request schemas)', () => {
  it.each([
    ['POST /rbac/roles', {}, '"name" is required'],
    ['POST /rbac/roles', { name: 7 }, 'name: must be string'],
    [
      'POST /rbac/roles',
      { name: 'r', orgCapabilities: { datasets: ['read', 'fly'] } },
      'orgCapabilities.datasets[1]: must be one of "create", "read", "update", "delete"',
    ],
    [
      'POST /rbac/roles',
      { name: 'r', datasetCapabilities: { logs: { ingest: ['read'] } } },
      'datasetCapabilities.logs.ingest[0]: must be one of "create"',
    ],
    ['POST /rbac/groups', { name: 'g', members: 'u1' }, 'members: must be array'],
    ['POST /users', { name: 'n', email: 'e@x' }, '"role" is required'],
    ['PUT /user', { name: 1 }, 'name: must be string'],
    ['POST /datasets/{dataset_id}/trim', {}, '"maxDuration" is required'],
    ['PUT /datasets/{dataset_id}/mapfields', ['a', 3], '[1]: must be string'],
  ])('%s rejects %j with %j', (operation, body, message) => {
    expect(problemOf(operation, body)).toContain(message);
  });

  it('accepts valid bodies and returns them unchanged', () => {
    const role = { name: 'readers', orgCapabilities: { datasets: ['read'] }, datasetCapabilities: {} };
    expect(validateBody('POST /rbac/roles', role)).toBe(role);
    expect(validateBody('PUT /datasets/{dataset_id}/mapfields', ['a.b'])).toEqual(['a.b']);
  });

  it('accepts null arrays as Go clients send them', () => {
    expect(() => validateBody('POST /rbac/groups', { name: 'g', members: null, roles: null })).not.toThrow();
    expect(() =>
      validateBody('POST /rbac/roles', { name: 'r', orgCapabilities: { datasets: null } }),
    ).not.toThrow();
  });

  it('requires a body for operations that declare one', () => {
    expect(problemOf('POST /rbac/roles', undefined)).toContain('request body is required');
  });

  it('treats unknown operations as a programming error, not a user error', () => {
    expect(() => validateBody('POST /nope', {})).toThrow(/not an operation of v2.json/);
  });

  it('compiles every request body schema of the document (refs resolve)', () => {
    const validator = new OpenApiBodyValidator();
    const operations = validator.operationsWithBody();
    expect(operations.length).toBeGreaterThan(20);
    for (const operation of operations) {
      try {
        validator.validate(operation, {});
      } catch (err) {
        if (!isQuarryError(err)) throw err;
      }
    }
  });
});

describe('toJsonSchema', () => {
  it('translates nullable and drops OpenAPI-only keywords', () => {
    expect(toJsonSchema({ type: 'string', nullable: true, example: 'x', 'x-go': 1 }, 'response')).toEqual({
      type: ['string', 'null'],
    });
    expect(toJsonSchema({ $ref: '#/a', nullable: true }, 'response')).toEqual({
      anyOf: [{ $ref: '#/a' }, { type: 'null' }],
    });
  });

  it('turns OpenAPI 3.0 boolean exclusive bounds into numbers', () => {
    expect(toJsonSchema({ type: 'integer', minimum: 0, exclusiveMinimum: true }, 'response')).toEqual({
      type: 'integer',
      exclusiveMinimum: 0,
    });
    expect(toJsonSchema({ maximum: 9, exclusiveMaximum: false }, 'response')).toEqual({ maximum: 9 });
  });

  it('keeps properties whose names look like keywords', () => {
    const schema = { type: 'object', properties: { example: { type: 'string' } } };
    expect(toJsonSchema(schema, 'response')).toEqual(schema);
  });

  it('does not require readOnly properties in requests', () => {
    const schema = { type: 'object', required: ['id', 'name'], properties: { id: { readOnly: true } } };
    expect(toJsonSchema(schema, 'request')).toMatchObject({ required: ['name'] });
    expect(toJsonSchema(schema, 'response')).toMatchObject({ required: ['id', 'name'] });
  });
});
