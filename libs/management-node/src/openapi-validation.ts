import * as fs from 'node:fs';
import * as path from 'node:path';
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { invalid } from '@quarry/common';

/**
 * Request-body validation driven by Axiom's OpenAPI document (libs/management-node/openapi/v2.json), so a controller
 * checks exactly what the published schema says and a message names the offending field:
 *
 *   validateBody('POST /rbac/roles', body);   // throws QuarryError invalid: `"name" is required`
 *
 * The document is OpenAPI 3.0, not JSON Schema: `nullable` is translated to a `null` type, OpenAPI-only
 * keywords (`example`, `x-*`, ...) are ignored, and `$ref`s resolve against the document's components.
 * Go clients marshal nil slices as `null`, so in request bodies every array also accepts `null` (meaning
 * "none"); services must treat a null array like an empty one.
 */

/** `METHOD /path-template` as written in v2.json, without the `/v2` prefix, e.g. `PUT /rbac/roles/{id}`. */
export type OpenApiOperation = string;

const DOCUMENT_ID = 'quarry-openapi-v2';

/** Formats OpenAPI defines for numbers and strings that ajv-formats does not know; accepted as annotations. */
const OPENAPI_ONLY_FORMATS = ['int32', 'int64', 'uint64', 'float', 'double', 'byte', 'binary', 'password'];

/** Path of v2.json from this file, the same from src/ (jest) and dist/ (build): `libs/management-node/openapi`. */
export function openApiDocumentPath(): string {
  return path.resolve(__dirname, '..', 'openapi', 'v2.json');
}

interface OpenApiDoc {
  paths: Record<string, Record<string, { requestBody?: RequestBody }>>;
  components: { schemas?: Record<string, unknown>; requestBodies?: Record<string, RequestBody> };
}
interface RequestBody {
  $ref?: string;
  required?: boolean;
  content?: Record<string, { schema?: unknown }>;
}

/** Keywords whose value is a map from arbitrary names (property names may be `example`, `x-id`, ...). */
const NAMED_SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'definitions', 'schemas']);

/**
 * Rewrites an OpenAPI 3.0 schema into JSON Schema (draft-07 as ajv reads it). In `request` mode every
 * array may also be null (see the header comment) and `readOnly` properties are not required, as OpenAPI
 * says; `response` mode keeps the schema strict.
 */
export function toJsonSchema(schema: unknown, mode: 'request' | 'response'): unknown {
  if (Array.isArray(schema)) return schema.map((item) => toJsonSchema(item, mode));
  if (schema === null || typeof schema !== 'object') return schema;
  const source = schema as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(source)) {
    if (key === 'nullable' || key === 'example' || key === 'discriminator' || key.startsWith('x-')) continue;
    if (NAMED_SCHEMA_MAPS.has(key) && value && typeof value === 'object') {
      const map: Record<string, unknown> = {};
      for (const [name, sub] of Object.entries(value)) map[name] = toJsonSchema(sub, mode);
      out[key] = map;
      continue;
    }
    out[key] = toJsonSchema(value, mode);
  }
  // OpenAPI 3.0 writes exclusive bounds as booleans next to minimum/maximum; JSON Schema wants numbers.
  for (const [exclusive, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof out[exclusive] !== 'boolean') continue;
    if (out[exclusive] === true && typeof out[bound] === 'number') {
      out[exclusive] = out[bound];
      delete out[bound];
    } else delete out[exclusive];
  }
  if (mode === 'request' && Array.isArray(out.required) && out.properties) {
    const props = out.properties as Record<string, { readOnly?: boolean }>;
    out.required = (out.required as string[]).filter((name) => props[name]?.readOnly !== true);
  }
  const nullable = source.nullable === true || (mode === 'request' && source.type === 'array');
  if (!nullable) return out;
  if (typeof out.type === 'string') {
    out.type = [out.type, 'null'];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
    return out;
  }
  // `nullable` next to a `$ref` or a composition: wrap, because `$ref` siblings are ignored in draft-07.
  return { anyOf: [out, { type: 'null' }] };
}

/** Compiles body validators lazily (one per operation) from one loaded document. */
export class OpenApiBodyValidator {
  private readonly ajv: Ajv;
  private readonly doc: OpenApiDoc;
  private readonly compiled = new Map<OpenApiOperation, ValidateFunction | null>();

  constructor(doc: OpenApiDoc = JSON.parse(fs.readFileSync(openApiDocumentPath(), 'utf8')) as OpenApiDoc) {
    this.doc = doc;
    this.ajv = new Ajv({ allErrors: true, strict: false, validateFormats: true });
    addFormats(this.ajv);
    for (const format of OPENAPI_ONLY_FORMATS) this.ajv.addFormat(format, true);
    this.ajv.addSchema(
      { $id: DOCUMENT_ID, components: toJsonSchema({ schemas: doc.components.schemas ?? {} }, 'request') },
      DOCUMENT_ID,
    );
  }

  /** Throws a QuarryError `invalid` naming the first problems; returns the body unchanged when valid. */
  validate<T = unknown>(operation: OpenApiOperation, body: unknown): T {
    const validator = this.validatorFor(operation);
    if (!validator) return body as T;
    if (body === undefined || body === null) throw invalid('request body is required (a JSON object)');
    if (validator(body)) return body as T;
    const problems = describeErrors(validator.errors ?? []);
    throw invalid(problems.join('; '), { code: 'request_invalid', details: { problems } });
  }

  /** The operations of the document that take a JSON body. */
  operationsWithBody(): OpenApiOperation[] {
    const ops: OpenApiOperation[] = [];
    for (const [route, methods] of Object.entries(this.doc.paths))
      for (const [method, op] of Object.entries(methods))
        if (op && typeof op === 'object' && op.requestBody) ops.push(`${method.toUpperCase()} ${route}`);
    return ops;
  }

  private validatorFor(operation: OpenApiOperation): ValidateFunction | null {
    const cached = this.compiled.get(operation);
    if (cached !== undefined) return cached;
    const schema = this.bodySchemaOf(operation);
    const validator = schema === null ? null : this.ajv.compile(this.anchor(schema));
    this.compiled.set(operation, validator);
    return validator;
  }

  /** The JSON body schema of an operation, or null when it takes none. Unknown operations are bugs. */
  private bodySchemaOf(operation: OpenApiOperation): unknown {
    const [method, route] = operation.split(' ');
    const op = this.doc.paths[route]?.[method?.toLowerCase()];
    if (!op) throw new Error(`openapi-validation: "${operation}" is not an operation of v2.json`);
    let body = op.requestBody;
    if (body?.$ref) body = this.doc.components.requestBodies?.[body.$ref.split('/').pop()!];
    const schema = body?.content?.['application/json']?.schema;
    return schema === undefined ? null : schema;
  }

  /** Points the body schema's local `$ref`s (`#/components/...`) at the registered document. */
  private anchor(schema: unknown): object {
    const rewritten = JSON.parse(
      JSON.stringify(schema).replace(/"\$ref":"#\/components\//g, `"$ref":"${DOCUMENT_ID}#/components/`),
    );
    return toJsonSchema(rewritten, 'request') as object;
  }
}

/** `/orgCapabilities/datasets/0` → `orgCapabilities.datasets[0]`. */
function fieldPath(instancePath: string): string {
  let out = '';
  for (const part of instancePath.split('/').slice(1)) {
    const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
    if (/^\d+$/.test(key)) out += `[${key}]`;
    else out += out ? `.${key}` : key;
  }
  return out;
}

/** Human messages, one per distinct problem; the `anyOf` noise of nullable wrappers is dropped. */
export function describeErrors(errors: ErrorObject[]): string[] {
  const messages: string[] = [];
  for (const error of errors) {
    const where = fieldPath(error.instancePath);
    let message: string;
    switch (error.keyword) {
      case 'required': {
        const missing = (error.params as { missingProperty: string }).missingProperty;
        message = where ? `${where}: "${missing}" is required` : `"${missing}" is required`;
        break;
      }
      case 'enum': {
        const allowed = (error.params as { allowedValues: unknown[] }).allowedValues.filter(
          (v) => v !== null,
        );
        message = `${where || 'body'}: must be one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}`;
        break;
      }
      case 'type': {
        const type = (error.params as { type: string | string[] }).type;
        const types = (Array.isArray(type) ? type : String(type).split(',')).filter((t) => t !== 'null');
        // The `null` branch of a nullable wrapper: the other branch reports the real problem.
        if (types.length === 0) continue;
        message = `${where || 'body'}: must be ${types.join(' or ')}`;
        break;
      }
      case 'additionalProperties': {
        const extra = (error.params as { additionalProperty: string }).additionalProperty;
        message = `${where || 'body'}: unknown property "${extra}"`;
        break;
      }
      case 'anyOf':
        continue;
      default:
        message = `${where || 'body'}: ${error.message ?? 'is invalid'}`;
    }
    if (!messages.includes(message)) messages.push(message);
  }
  return messages.length > 0 ? messages : ['request body is invalid'];
}

let shared: OpenApiBodyValidator | undefined;

/**
 * Validates a request body against the v2.json schema of `operation` (`'POST /rbac/roles'`) and returns it
 * typed. Throws QuarryError `invalid` (HTTP 400) with a message naming the field.
 */
export function validateBody<T = unknown>(operation: OpenApiOperation, body: unknown): T {
  shared ??= new OpenApiBodyValidator();
  return shared.validate<T>(operation, body);
}
