/**
 * Walking a structural schema beside a value: Kubernetes field paths, the child schema of a property /
 * map key / list item, pruning of unknown fields and nulls, and list-type (set / map) checks. These are
 * the steps the apiserver runs around OpenAPI validation (apiextensions-apiserver `pruning`,
 * `structurallisttype`).
 */
import type { JsonSchemaProps } from '../crd';
import { shownValue, type FieldError } from './field-errors';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `spec` + `name` → `spec.name`. */
export function propertyPath(parent: string, name: string): string {
  return parent === '' ? name : `${parent}.${name}`;
}

/** `spec.mapFields` + 2 → `spec.mapFields[2]`. */
export function indexPath(parent: string, index: number): string {
  return `${parent}[${index}]`;
}

/** Map keys are bracketed: `spec.secretTemplate.labels[quarry.dev/token]`. */
export function keyPath(parent: string, key: string): string {
  return `${parent}[${key}]`;
}

/** What a child of `schema` is: a declared property, a map entry, or unknown (to be pruned). */
export function childOf(
  schema: JsonSchemaProps,
  key: string,
): { schema: JsonSchemaProps; isMapEntry: boolean } | undefined {
  const property = schema.properties?.[key];
  if (property) return { schema: property, isMapEntry: false };
  if (schema.additionalProperties) return { schema: schema.additionalProperties, isMapEntry: true };
  return undefined;
}

/**
 * Removes fields the schema does not declare and object fields whose value is null (the apiserver drops
 * both before defaulting). Returns the paths of unknown fields, as `unknown field "spec.foo"` warnings.
 * `metadata` of the root is left alone: the apiserver validates ObjectMeta itself.
 */
export function prune(value: unknown, schema: JsonSchemaProps, path: string, isRoot = true): string[] {
  const unknown: string[] = [];
  if (Array.isArray(value)) {
    if (schema.items)
      value.forEach((item, i) => unknown.push(...prune(item, schema.items!, indexPath(path, i), false)));
    return unknown;
  }
  if (!isObject(value)) return unknown;
  for (const key of Object.keys(value)) {
    if (isRoot && key === 'metadata') continue;
    const child = childOf(schema, key);
    if (child === undefined) {
      unknown.push(propertyPath(path, key));
      delete value[key];
      continue;
    }
    if (value[key] === null) {
      delete value[key];
      continue;
    }
    const childPath = child.isMapEntry ? keyPath(path, key) : propertyPath(path, key);
    unknown.push(...prune(value[key], child.schema, childPath, false));
  }
  return unknown;
}

/** Go's `%#v` of a list-map key, as the apiserver prints a duplicate entry. */
function goMapLiteral(keys: Record<string, unknown>): string {
  const fields = Object.entries(keys)
    .map(([name, v]) => `${JSON.stringify(name)}:${JSON.stringify(v)}`)
    .join(', ');
  return `map[string]interface {}{${fields}}`;
}

/** Duplicate entries of `x-kubernetes-list-type: set` and `map` lists, anywhere in `value`. */
export function listTypeErrors(value: unknown, schema: JsonSchemaProps, path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (Array.isArray(value)) {
    const listType = schema['x-kubernetes-list-type'];
    const seen = new Set<string>();
    value.forEach((item, i) => {
      let identity: string | undefined;
      let shown: string | undefined;
      if (listType === 'set') {
        identity = JSON.stringify(item);
        shown = shownValue(item)?.shown;
      } else if (listType === 'map' && isObject(item)) {
        const keyNames = (schema['x-kubernetes-list-map-keys'] as string[] | undefined) ?? [];
        const keys = Object.fromEntries(keyNames.map((name) => [name, item[name]]));
        identity = JSON.stringify(keys);
        shown = goMapLiteral(keys);
      }
      if (identity !== undefined) {
        if (seen.has(identity))
          errors.push({ type: 'FieldValueDuplicate', field: indexPath(path, i), value: { shown: shown! } });
        seen.add(identity);
      }
      if (schema.items) errors.push(...listTypeErrors(item, schema.items, indexPath(path, i)));
    });
    return errors;
  }
  if (!isObject(value)) return errors;
  for (const [key, child] of Object.entries(value)) {
    if (path === '' && key === 'metadata') continue;
    const sub = childOf(schema, key);
    if (!sub) continue;
    errors.push(
      ...listTypeErrors(child, sub.schema, sub.isMapEntry ? keyPath(path, key) : propertyPath(path, key)),
    );
  }
  return errors;
}

/**
 * Converts an ajv instance path (`/spec/secretTemplate/labels/a~1b`) to a Kubernetes field path
 * (`spec.secretTemplate.labels[a/b]`), using the schema to tell properties, map keys and indexes apart.
 */
export function fieldPathOf(instancePath: string, root: JsonSchemaProps): string {
  if (instancePath === '') return '';
  const segments = instancePath
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  let path = '';
  let schema: JsonSchemaProps | undefined = root;
  for (const segment of segments) {
    if (schema?.type === 'array') {
      path = indexPath(path, Number(segment));
      schema = schema.items;
      continue;
    }
    const child = schema ? childOf(schema, segment) : undefined;
    path = child?.isMapEntry ? keyPath(path, segment) : propertyPath(path, segment);
    schema = child?.schema;
  }
  return path;
}
