/**
 * TypeBox builders for the subset of OpenAPI v3 a structural CRD schema may use.
 *
 * TypeBox's own `Union`/`Record`/`Literal` emit `anyOf`/`patternProperties`/`const`, which a structural
 * schema forbids or restricts, so enums, maps and Kubernetes list types are built here as `Unsafe`
 * schemas: plain OpenAPI on the wire, precise static types in TypeScript.
 */
import { Type, type SchemaOptions, type StringOptions, type TSchema, type TUnsafe } from '@sinclair/typebox';

/** One `x-kubernetes-validations` entry (CRD `ValidationRule`). */
export interface CelRule {
  readonly rule: string;
  readonly message: string;
  /** Where the error is reported, relative to the node carrying the rule (`.name`). */
  readonly fieldPath?: string;
  readonly reason?: 'FieldValueInvalid' | 'FieldValueForbidden' | 'FieldValueRequired';
}

/** Schema options that attach CEL rules to a node. */
export function validations(...rules: CelRule[]): { 'x-kubernetes-validations': CelRule[] } {
  return { 'x-kubernetes-validations': rules };
}

/**
 * A string restricted to `values`; CRDs spell this `type: string` + `enum`, never `anyOf`. `maxLength`
 * is the longest value: the apiserver's CEL cost estimate ignores `enum`, so a rule comparing the field
 * would otherwise be costed as if it could hold megabytes.
 */
export function stringEnum<const T extends readonly string[]>(
  values: T,
  options: SchemaOptions & { default?: T[number] } = {},
): TUnsafe<T[number]> {
  const maxLength = Math.max(...values.map((value) => value.length));
  return Type.Unsafe<T[number]>({ ...options, type: 'string', enum: [...values], maxLength });
}

export function int32(options: SchemaOptions & { minimum?: number; maximum?: number } = {}) {
  return Type.Integer({ ...options, format: 'int32' });
}

export function int64(options: SchemaOptions & { minimum?: number } = {}) {
  return Type.Integer({ ...options, format: 'int64' });
}

/** An RFC 3339 time, as the apiserver stores it (a string). */
export function dateTime(options: SchemaOptions = {}) {
  return Type.String({ ...options, format: 'date-time' });
}

/** A string → string map (`additionalProperties`), bounded so CEL rules over it stay within budget. */
export function stringMap(
  options: SchemaOptions & { maxProperties: number },
  values: StringOptions = {},
): TUnsafe<Record<string, string>> {
  return Type.Unsafe<Record<string, string>>({
    ...options,
    type: 'object',
    additionalProperties: { type: 'string', ...values },
  });
}

/** `x-kubernetes-list-type: set`: unordered, duplicates rejected by the apiserver; scalars only. */
export function setOf<T extends TSchema>(
  items: T,
  options: SchemaOptions & { maxItems: number; minItems?: number },
) {
  return Type.Array(items, { ...options, 'x-kubernetes-list-type': 'set' });
}

/**
 * `x-kubernetes-list-type: map`: a list of objects keyed by `keys` (each key must be required), so
 * server-side apply merges entries instead of replacing the list.
 */
export function mapListOf<T extends TSchema>(
  items: T,
  keys: readonly string[],
  options: SchemaOptions & { maxItems: number },
) {
  return Type.Array(items, {
    ...options,
    'x-kubernetes-list-type': 'map',
    'x-kubernetes-list-map-keys': [...keys],
  });
}

/** Patterns shared by several kinds. */
export const PATTERNS = {
  /** RFC 1123 subdomain: names of Kubernetes objects such as Secrets and QuarryConnections. */
  dnsSubdomain: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$',
  /** A Go duration without the `µs` unit, e.g. `720h`, `1h30m`, `90s`; CEL's `duration()` parses it. */
  goDuration: '^([0-9]+(\\.[0-9]+)?(ns|us|ms|s|m|h))+$',
  /** Quarry region names, as the server's `QUARRY_REGION` accepts them (libs/server config). */
  region: '^[a-z0-9][a-z0-9.-]{0,39}$',
  /** A Secret data key. */
  secretKey: '^[-._a-zA-Z0-9]+$',
} as const;

/** Length limits shared by several kinds. */
export const LIMITS = {
  dnsSubdomain: 253,
  description: 1024,
  duration: 32,
  region: 40,
} as const;
