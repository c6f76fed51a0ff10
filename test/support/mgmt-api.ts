import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import { sha256Hex } from '@quarry/common';
import type { TestTarget } from './test-server';

/**
 * Calls management operations by their OpenAPI name (`'GET /v2/dashboards/uid/{uid}'`, the form the
 * coverage table looks for) and checks every 2xx JSON body against that operation's response schema in
 * libs/management-node/openapi/v2.json, so a drift between server and document fails the suite that made the call.
 */

interface OpenApiOperation {
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}
interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: Record<string, unknown>;
}

const DOCUMENT_ID = 'v2.json';
const document: OpenApiDocument = JSON.parse(
  fs.readFileSync(path.join(__dirname, '..', '..', 'libs', 'management-node', 'openapi', 'v2.json'), 'utf8'),
);

/** Keywords whose value maps arbitrary names (a property may be called `example`) to schemas. */
const NAMED_SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'schemas']);

/**
 * OpenAPI 3.0 → JSON Schema as ajv reads it: `nullable` becomes a null type, boolean exclusive bounds
 * become numeric ones, annotations ajv does not know are dropped, `$ref`s point into the loaded document.
 */
function toJsonSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toJsonSchema);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'nullable' || key === 'example' || key === 'discriminator' || key.startsWith('x-')) continue;
    if (key === '$ref' && typeof value === 'string') out[key] = value.replace(/^#/, `${DOCUMENT_ID}#`);
    else if (NAMED_SCHEMA_MAPS.has(key) && value && typeof value === 'object')
      out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, toJsonSchema(sub)]));
    else out[key] = toJsonSchema(value);
  }
  for (const [exclusive, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof out[exclusive] !== 'boolean') continue;
    if (out[exclusive] === true) out[exclusive] = out[bound];
    else delete out[exclusive];
  }
  const source = schema as Record<string, unknown>;
  if (source.nullable !== true) return out;
  if (typeof out.type === 'string') return { ...out, type: [out.type, 'null'] };
  return { anyOf: [out, { type: 'null' }] };
}

/** The part of ajv 8's API used here. */
interface ValidateFunction {
  (data: unknown): boolean;
  errors?: unknown[] | null;
}
interface AjvInstance {
  compile(schema: object): ValidateFunction;
  addSchema(schema: object): unknown;
  addFormat(name: string, format: boolean): unknown;
  errorsText(errors?: unknown[] | null): string;
}

// ajv 8 is a dependency of @quarry/server; the repository root resolves eslint's ajv 6 instead.
const serverRequire = createRequire(path.join(__dirname, '..', '..', 'libs', 'server', 'package.json'));
const Ajv = (serverRequire('ajv') as { default: new (options: object) => AjvInstance }).default;
const addFormats = (serverRequire('ajv-formats') as { default: (ajv: AjvInstance) => void }).default;

const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
for (const format of ['int32', 'int64', 'uint64', 'float', 'double', 'byte', 'binary', 'password'])
  ajv.addFormat(format, true);
ajv.addSchema({ $id: DOCUMENT_ID, components: toJsonSchema(document.components) });

const validators = new Map<string, ValidateFunction | null>();

/** The validator of an operation's JSON response for a status, or null when the document has none. */
export function responseValidator(operation: string, status: number): ValidateFunction | null {
  const key = `${operation} ${status}`;
  if (validators.has(key)) return validators.get(key)!;
  const [method, route] = operation.split(' ');
  const op = document.paths[route.replace(/^\/v2/, '')]?.[method.toLowerCase()];
  if (!op) throw new Error(`${operation} is not an operation of v2.json`);
  const schema = op.responses?.[String(status)]?.content?.['application/json']?.schema;
  const validator = schema === undefined ? null : ajv.compile(toJsonSchema(schema) as object);
  validators.set(key, validator);
  return validator;
}

export interface ApiResponse {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

export interface CallOptions {
  /** Path parameters filled into the operation's template. */
  params?: Record<string, string>;
  query?: Record<string, string | string[]>;
  body?: unknown;
  /**
   * The bearer secret; the admin API token by default, `null` for no Authorization header. A personal
   * access token (`xapt-`) is sent with the `X-Axiom-Org-Id` header it needs.
   */
  token?: string | null;
}

/** Sends one operation; a 2xx JSON body must match the documented response schema (or the call throws). */
export async function call(
  server: TestTarget,
  operation: string,
  options: CallOptions = {},
): Promise<ApiResponse> {
  const [method, template] = operation.split(' ');
  let urlPath = template;
  for (const [name, value] of Object.entries(options.params ?? {}))
    urlPath = urlPath.replace(`{${name}}`, encodeURIComponent(value));
  if (/\{\w+\}/.test(urlPath)) throw new Error(`${operation}: missing path parameters in ${urlPath}`);
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(options.query ?? {}))
    for (const v of Array.isArray(value) ? value : [value]) search.append(name, v);
  const headers: Record<string, string> = {};
  const token = options.token === undefined ? server.token : options.token;
  if (token !== null) headers.Authorization = `Bearer ${token}`;
  // Personal access tokens name the organization they act in.
  if (token?.startsWith('xapt-')) headers['X-Axiom-Org-Id'] = server.orgId;
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(`${server.url}${urlPath}${search.size ? `?${search}` : ''}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await res.text();
  const body = text === '' ? undefined : JSON.parse(text);
  if (res.status >= 200 && res.status < 300) {
    const validate = responseValidator(operation, res.status);
    if (validate && !validate(body)) {
      throw new Error(
        `${operation} answered ${res.status} with a body that does not match v2.json: ` +
          `${ajv.errorsText(validate.errors)}\n${text.slice(0, 2000)}`,
      );
    }
  }
  return { status: res.status, body };
}

/** Creates an API token with exactly these capabilities and returns its secret. */
export async function tokenWith(
  server: TestTarget,
  capabilities: { orgCapabilities?: object; datasetCapabilities?: object },
): Promise<string> {
  const res = await call(server, 'POST /v2/tokens', {
    body: { name: `scoped-${Math.random().toString(36).slice(2)}`, ...capabilities },
  });
  if (res.status !== 200) throw new Error(`token create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.token as string;
}

/**
 * A new user (created over the API, with this built-in role) and a personal access token of theirs, for
 * tests that need a second person: audit fields, private resources. The API creates no PATs, so the
 * token goes straight into the metastore.
 */
export async function userWithPat(
  server: TestTarget,
  role: 'admin' | 'user' | 'read-only' | 'none' = 'user',
): Promise<{ userId: string; pat: string }> {
  const email = `person-${randomUUID()}@example.test`;
  const created = await call(server, 'POST /v2/users', { body: { name: email, email, role } });
  if (created.status !== 200) throw new Error(`user create failed: ${created.status}`);
  const pat = `xapt-${randomUUID()}`;
  await server.metastore.tokens.create({
    kind: 'personal',
    name: 'pat',
    secretHash: sha256Hex(pat),
    userId: created.body.id,
  });
  return { userId: created.body.id, pat };
}
