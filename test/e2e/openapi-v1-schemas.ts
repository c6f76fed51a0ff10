import * as fs from 'node:fs';
import * as path from 'node:path';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

/**
 * Request and response schemas of Axiom's v1 documents (libs/management-node/openapi/v1.json and
 * v1-edge-query.json) for the query e2e tests, the way test/support/openapi-responses.ts does it for
 * v2.json. Two translations besides OpenAPI → JSON Schema: Go-swagger writes `interface{}` (any JSON value,
 * e.g. an aggregation's `value`) as `{"type": "object", "properties": {}}`, read here as "any value"; and
 * `Filter.children` is typed `string[]` although both official clients send nested filters, so it is read
 * as an array of anything.
 */
type Json = Record<string, unknown>;
const DIR = path.resolve(__dirname, '../../libs/management-node/openapi');

function toJsonSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toJsonSchema);
  if (schema === null || typeof schema !== 'object') return schema;
  const source = schema as Json;
  const keys = Object.keys(source).filter((k) => !k.startsWith('x-') && k !== 'description');
  const isAny =
    source.type === 'object' &&
    keys.every((k) => k === 'type' || k === 'properties') &&
    Object.keys((source.properties as Json | undefined) ?? {}).length === 0;
  if (isAny) return {};
  const out: Json = {};
  for (const [key, value] of Object.entries(source)) {
    if (key === 'nullable' || key === 'example' || key === 'discriminator' || key.startsWith('x-')) continue;
    if ((key === 'properties' || key === 'schemas') && value && typeof value === 'object') {
      out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toJsonSchema(v)]));
    } else out[key] = toJsonSchema(value);
  }
  if (source.nullable === true) return { anyOf: [out, { type: 'null' }] };
  return out;
}

const documents = new Map<string, { ajv: Ajv; doc: Json; id: string }>();

function load(file: 'v1.json' | 'v1-edge-query.json') {
  let loaded = documents.get(file);
  if (loaded) return loaded;
  const doc = JSON.parse(fs.readFileSync(path.join(DIR, file), 'utf8')) as Json;
  const components = doc.components as { schemas: Json };
  const filter = components.schemas.Filter as { properties?: Json } | undefined;
  if (filter?.properties?.children) filter.properties.children = { type: 'array' };
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv);
  for (const f of ['int32', 'int64', 'uint8', 'uint32', 'uint64', 'float', 'double']) ajv.addFormat(f, true);
  const id = `openapi-${file}`;
  ajv.addSchema({ $id: id, components: toJsonSchema({ schemas: components.schemas }) }, id);
  loaded = { ajv, doc, id };
  documents.set(file, loaded);
  return loaded;
}

const compiled = new Map<string, ValidateFunction>();

function validatorOf(file: 'v1.json' | 'v1-edge-query.json', schema: unknown, key: string): ValidateFunction {
  let validate = compiled.get(key);
  if (validate) return validate;
  const { ajv, id } = load(file);
  const anchored = JSON.parse(
    JSON.stringify(schema).replace(/"\$ref":"#\/components\//g, `"$ref":"${id}#/components/`),
  );
  validate = ajv.compile(toJsonSchema(anchored) as object);
  compiled.set(key, validate);
  return validate;
}

type Operation = { requestBody?: Json; responses?: Record<string, Json> };

/** `'POST /v1/datasets/{dataset_name}/query'` → its operation object in v1.json or the edge document. */
function operationOf(operation: string): { file: 'v1.json' | 'v1-edge-query.json'; op: Operation } {
  const [method, fullPath] = operation.split(' ');
  const route = fullPath.replace(/^\/v1/, '');
  for (const file of ['v1.json', 'v1-edge-query.json'] as const) {
    const paths = load(file).doc.paths as Record<string, Record<string, Operation>>;
    const op = paths[route]?.[method.toLowerCase()];
    if (op) return { file, op };
  }
  throw new Error(`no v1 document has ${operation}`);
}

const problemsOf = (validate: ValidateFunction, value: unknown) =>
  validate(value)
    ? []
    : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? e.keyword}`);

/** Problems of a request body against the operation's JSON request schema ([] when it conforms). */
export function requestProblems(operation: string, body: unknown): string[] {
  const { file, op } = operationOf(operation);
  const schema = (op.requestBody as { content?: Record<string, { schema?: unknown }> } | undefined)
    ?.content?.['application/json']?.schema;
  if (schema === undefined) throw new Error(`${operation} has no JSON request schema`);
  return problemsOf(validatorOf(file, schema, `${operation} request`), body);
}

/** Problems of a response body against the operation's JSON schema for `status` (or `default`). */
export function responseProblems(operation: string, status: number | 'default', body: unknown): string[] {
  const { file, op } = operationOf(operation);
  const response = (op.responses?.[String(status)] ?? undefined) as
    { content?: Record<string, { schema?: unknown }> } | undefined;
  const schema = response?.content?.['application/json']?.schema;
  if (schema === undefined) throw new Error(`${operation} has no JSON response schema for ${status}`);
  return problemsOf(validatorOf(file, schema, `${operation} ${status}`), body);
}

/** A named schema of a document's components (`Result`, `QueryError`, ...). */
export function schemaProblems(
  file: 'v1.json' | 'v1-edge-query.json',
  name: string,
  value: unknown,
): string[] {
  return problemsOf(validatorOf(file, { $ref: `#/components/schemas/${name}` }, `${file} ${name}`), value);
}
