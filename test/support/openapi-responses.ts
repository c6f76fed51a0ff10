import * as fs from 'node:fs';
import * as path from 'node:path';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

/**
 * Checks response bodies against the response schemas of libs/management-node/openapi/v2.json, so a shape that
 * drifts from the published API fails a test. OpenAPI 3.0 → JSON Schema: `nullable` becomes a `null`
 * type, boolean exclusive bounds become numbers, OpenAPI-only keywords are dropped.
 */
const DOC_PATH = path.resolve(__dirname, '../../libs/management-node/openapi/v2.json');
const DOC_ID = 'openapi-v2-responses';

type Json = Record<string, unknown>;

function toJsonSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toJsonSchema);
  if (schema === null || typeof schema !== 'object') return schema;
  const source = schema as Json;
  const out: Json = {};
  for (const [key, value] of Object.entries(source)) {
    if (key === 'nullable' || key === 'example' || key === 'discriminator' || key.startsWith('x-')) continue;
    if ((key === 'properties' || key === 'schemas') && value && typeof value === 'object') {
      out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toJsonSchema(v)]));
    } else out[key] = toJsonSchema(value);
  }
  for (const [exclusive, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ]) {
    if (typeof out[exclusive] !== 'boolean') continue;
    if (out[exclusive] === true) {
      out[exclusive] = out[bound];
      delete out[bound];
    } else delete out[exclusive];
  }
  if (source.nullable !== true) return out;
  if (typeof out.type === 'string') return { ...out, type: [out.type, 'null'] };
  return { anyOf: [out, { type: 'null' }] };
}

let ajv: Ajv | undefined;
let doc: { paths: Record<string, Record<string, { responses?: Record<string, Json> }>> } | undefined;
const compiled = new Map<string, ValidateFunction>();

function load() {
  if (ajv && doc) return { ajv, doc };
  doc = JSON.parse(fs.readFileSync(DOC_PATH, 'utf8'));
  ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv);
  for (const f of ['int32', 'int64', 'uint64', 'float', 'double', 'byte', 'binary', 'password'])
    ajv.addFormat(f, true);
  const components = (JSON.parse(fs.readFileSync(DOC_PATH, 'utf8')) as { components: Json }).components;
  ajv.addSchema({ $id: DOC_ID, components: toJsonSchema({ schemas: components.schemas }) }, DOC_ID);
  return { ajv, doc: doc! };
}

/**
 * Problems of `body` against the response schema of `operation` (`'GET /v2/rbac/roles/{id}'`) for
 * `status`; an empty list when it conforms. Throws when the document has no such schema (a test bug).
 */
export function responseProblems(operation: string, status: number, body: unknown): string[] {
  const key = `${operation} ${status}`;
  let validate = compiled.get(key);
  if (!validate) {
    const { ajv: a, doc: d } = load();
    const [method, fullPath] = operation.split(' ');
    const route = fullPath.replace(/^\/v2/, '');
    const response = d.paths[route]?.[method.toLowerCase()]?.responses?.[String(status)] as
      { content?: Record<string, { schema?: unknown }> } | undefined;
    const schema = response?.content?.['application/json']?.schema;
    if (schema === undefined) throw new Error(`v2.json has no JSON response schema for ${key}`);
    const anchored = JSON.parse(
      JSON.stringify(schema).replace(/"\$ref":"#\/components\//g, `"$ref":"${DOC_ID}#/components/`),
    );
    validate = a.compile(toJsonSchema(anchored) as object);
    compiled.set(key, validate);
  }
  if (validate(body)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? e.keyword}`);
}
