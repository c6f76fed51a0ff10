/**
 * Checks a CRD for what the apiserver would refuse or mis-handle but kubernetes-models does not catch
 * (k8s.md §1, §9.4): every schema node typed and structural; every string, list and map a CEL rule
 * reads carries its own bound (`maxLength`, `maxItems`, `maxProperties`), as do the lists and maps
 * around a node with rules (the estimated cost multiplies by their size); list-map keys required;
 * defaults valid against their own schema; printer columns typed and pointing at declared fields.
 *
 * Each problem is one line naming the path, so a failing test says what to fix.
 */
import type { CelRule } from '../openapi';
import type { CustomResourceDefinition, JsonSchemaProps } from '../crd';
import { createAjv } from './schema-validation';
import { indexPath, keyPath, propertyPath } from './structural';

const TYPES = new Set(['object', 'array', 'string', 'integer', 'number', 'boolean']);
/** Keywords a structural schema may not use (or may only use without types, which we never need). */
const FORBIDDEN = [
  'anyOf',
  'oneOf',
  'allOf',
  'not',
  'x-kubernetes-preserve-unknown-fields',
  'uniqueItems',
  '$ref',
];

interface Node {
  readonly schema: JsonSchemaProps;
  readonly path: string;
  /** Lists and maps enclosing this node, outermost first. */
  readonly enclosing: readonly Node[];
}

function* walk(schema: JsonSchemaProps, path = '', enclosing: readonly Node[] = []): Generator<Node> {
  const node: Node = { schema, path, enclosing };
  yield node;
  for (const [name, sub] of Object.entries(schema.properties ?? {})) {
    yield* walk(sub, propertyPath(path, name), enclosing);
  }
  if (schema.additionalProperties)
    yield* walk(schema.additionalProperties, keyPath(path, '*'), [...enclosing, node]);
  if (schema.items) yield* walk(schema.items, indexPath(path, 0), [...enclosing, node]);
}

/** The bound keyword a node of this shape needs when CEL reads it; undefined for scalars without one. */
function boundKeyword(schema: JsonSchemaProps): 'maxLength' | 'maxItems' | 'maxProperties' | undefined {
  if (schema.type === 'string') return 'maxLength';
  if (schema.type === 'array') return 'maxItems';
  if (schema.type === 'object' && schema.additionalProperties) return 'maxProperties';
  return undefined;
}

function checkBound(schema: JsonSchemaProps, path: string, why: string, problems: string[]): void {
  const bound = boundKeyword(schema);
  if (bound !== undefined && typeof schema[bound] !== 'number') {
    problems.push(`${path || '<root>'}: ${why} but has no ${bound}`);
  }
}

/**
 * Nodes a rule reads by value: `self` itself when used bare, and every `self.a.b` chain resolved through
 * properties. Chains inside `has(...)` only test presence (constant cost) and are not counted.
 */
function nodesReadBy(
  rule: string,
  schema: JsonSchemaProps,
  path: string,
): { schema: JsonSchemaProps; path: string }[] {
  const withoutHas = rule.replace(/has\(\s*self(\.[A-Za-z_][A-Za-z0-9_]*)+\s*\)/g, 'true');
  const read: { schema: JsonSchemaProps; path: string }[] = [];
  for (const match of withoutHas.matchAll(/\b(?:old)?[sS]elf((?:\.[A-Za-z_][A-Za-z0-9_]*)*)/g)) {
    const chain = match[1].split('.').filter(Boolean);
    let node: JsonSchemaProps | undefined = schema;
    let nodePath = path;
    if (chain.length === 0) {
      read.push({ schema, path });
      continue;
    }
    for (const name of chain) {
      // A method call such as self.startsWith(...) ends the chain at the node it is called on.
      if (!node?.properties?.[name]) break;
      node = node.properties[name];
      nodePath = propertyPath(nodePath, name);
    }
    if (node) read.push({ schema: node, path: nodePath });
  }
  return read;
}

function lintSchema(root: JsonSchemaProps, problems: string[]): void {
  const ajv = createAjv();
  for (const { schema, path, enclosing } of walk(root)) {
    const where = path || '<root>';
    if (!TYPES.has(String(schema.type)))
      problems.push(`${where}: has no type (structural schemas type every node)`);
    for (const keyword of FORBIDDEN) {
      if (keyword in schema) problems.push(`${where}: uses ${keyword}`);
    }
    if (schema.properties && schema.additionalProperties) {
      problems.push(`${where}: has both properties and additionalProperties`);
    }
    if (schema.type === 'array' && !schema.items) problems.push(`${where}: array without items`);
    if (schema['x-kubernetes-list-type'] === 'map') {
      for (const key of (schema['x-kubernetes-list-map-keys'] as string[] | undefined) ?? []) {
        const item = schema.items;
        const required = item?.required?.includes(key) || item?.properties?.[key]?.default !== undefined;
        if (!required) problems.push(`${where}: list-map key ${key} is neither required nor defaulted`);
      }
    }
    if (schema.default !== undefined) {
      const validate = ajv.compile({ ...schema, default: undefined });
      if (!validate(structuredClone(schema.default))) {
        problems.push(
          `${where}: default ${JSON.stringify(schema.default)} is invalid: ${ajv.errorsText(validate.errors)}`,
        );
      }
    }
    const rules = (schema['x-kubernetes-validations'] as CelRule[] | undefined) ?? [];
    for (const rule of rules) {
      if (!rule.message) problems.push(`${where}: rule ${JSON.stringify(rule.rule)} has no message`);
      for (const read of nodesReadBy(rule.rule, schema, path)) {
        checkBound(read.schema, read.path, `is read by rule ${JSON.stringify(rule.rule)}`, problems);
      }
    }
    if (rules.length > 0) {
      for (const outer of enclosing) {
        checkBound(outer.schema, outer.path, `encloses rules at ${where}`, problems);
      }
    }
  }
}

/** Resolves a printer column JSONPath (`.status.conditions[?(@.type=="Ready")].reason`) in the schema. */
function resolveColumnPath(jsonPath: string, root: JsonSchemaProps): JsonSchemaProps | undefined {
  let node: JsonSchemaProps | undefined = root;
  const steps = jsonPath
    .replace(/\[[^\]]*\]/g, '[]')
    .split('.')
    .slice(1);
  for (const step of steps) {
    const isList = step.endsWith('[]');
    const name = isList ? step.slice(0, -2) : step;
    if (name === 'metadata' && node === root) return { type: 'object' };
    node = node?.properties?.[name];
    if (isList) node = node?.items;
    if (!node) return undefined;
  }
  return node;
}

const COLUMN_TYPES = new Set(['string', 'integer', 'number', 'boolean', 'date']);

/** Every problem found in `crd`; empty when it is clean. */
export function lintCrd(crd: CustomResourceDefinition): string[] {
  const problems: string[] = [];
  for (const version of crd.spec.versions) {
    const root = version.schema.openAPIV3Schema;
    lintSchema(root, problems);
    for (const column of version.additionalPrinterColumns ?? []) {
      if (!COLUMN_TYPES.has(column.type))
        problems.push(`printer column ${column.name}: type ${String(column.type)}`);
      const isMetadata = column.jsonPath.startsWith('.metadata.');
      if (!isMetadata && resolveColumnPath(column.jsonPath, root) === undefined) {
        problems.push(`printer column ${column.name}: ${column.jsonPath} is not a field of the schema`);
      }
    }
  }
  return problems.map((problem) => `${crd.metadata.name}: ${problem}`);
}
