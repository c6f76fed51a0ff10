/**
 * Evaluates every `x-kubernetes-validations` rule of a structural schema over an object, as the
 * apiserver does after OpenAPI validation: `self` is the node carrying the rule, `oldSelf` the same node
 * of the stored object on update. Transition rules (those naming `oldSelf`) run only where an old value
 * correlates: same property path, same map key, or same key of a `x-kubernetes-list-type: map` list.
 *
 * Not modelled: the cost budget (the apiserver refuses over-budget CRDs; bounds are linted instead),
 * `messageExpression`, `optionalOldSelf`, validation ratcheting, and Kubernetes-only CEL libraries
 * (`isURL`, `quantity`, …). Integers reach CEL as `bigint` (CEL `int`), as they do in Kubernetes.
 */
import { celEnv, isCelError, parse, plan, type CelInput, type CelResult } from '@bufbuild/cel';
import { strings } from '@bufbuild/cel/ext';
import type { CelRule } from '../openapi';
import type { JsonSchemaProps } from '../crd';
import { shownType, type FieldError } from './field-errors';
import { childOf, indexPath, isObject, keyPath, propertyPath } from './structural';

type Program = (bindings: Record<string, CelInput>) => CelResult;

/** A rule that does not compile is a bug in the CRD, not a bad object: thrown when rules are loaded. */
export class CelRuleCompileError extends Error {
  constructor(
    readonly rule: string,
    readonly path: string,
    cause: unknown,
  ) {
    super(`x-kubernetes-validations rule at ${path || '<root>'} does not compile: ${rule}: ${String(cause)}`);
    this.name = 'CelRuleCompileError';
  }
}

interface CompiledRule {
  readonly rule: CelRule;
  readonly program: Program;
  readonly isTransition: boolean;
}

/** Converts JSON to CEL input typed by the schema: schema integers become `bigint` (CEL `int`). */
export function toCel(value: unknown, schema: JsonSchemaProps | undefined): CelInput {
  if (typeof value === 'number') {
    return schema?.type === 'integer' && Number.isInteger(value) ? BigInt(value) : value;
  }
  if (Array.isArray(value)) return value.map((item) => toCel(item, schema?.items));
  if (isObject(value)) {
    const out: Record<string, CelInput> = {};
    for (const [key, child] of Object.entries(value)) {
      out[key] = toCel(child, schema ? childOf(schema, key)?.schema : undefined);
    }
    return out as CelInput;
  }
  return value as CelInput;
}

/** The name the apiserver prints instead of a value when a rule fails (`Invalid value: "object"`). */
function schemaTypeName(schema: JsonSchemaProps): string {
  return schema.type ?? 'object';
}

/** `.name` / `.a.b` / `['x.y']` relative field path → absolute Kubernetes path. */
function resolveFieldPath(base: string, fieldPath: string | undefined): string {
  if (!fieldPath) return base;
  let path = base;
  const matcher = /\.([A-Za-z_][A-Za-z0-9_]*)|\['([^']*)'\]/g;
  for (const match of fieldPath.matchAll(matcher)) {
    path = propertyPath(path, match[1] ?? match[2]);
  }
  return path;
}

export class CelValidator {
  private readonly compiled = new Map<JsonSchemaProps, CompiledRule[]>();
  private readonly env = celEnv({ funcs: strings });

  /** Compiles every rule under `schema` now, so a broken CRD fails at load time. */
  constructor(private readonly schema: JsonSchemaProps) {
    this.compileAll(schema, '');
  }

  /** False for a schema without rules: the apiserver then has no CEL validator at all. */
  get hasRules(): boolean {
    return this.compiled.size > 0;
  }

  validate(object: unknown, oldObject?: unknown): FieldError[] {
    const errors: FieldError[] = [];
    this.visit(this.schema, object, oldObject, '', errors);
    return errors;
  }

  private compileAll(schema: JsonSchemaProps, path: string): void {
    const rules = (schema['x-kubernetes-validations'] as CelRule[] | undefined) ?? [];
    if (rules.length > 0) {
      this.compiled.set(
        schema,
        rules.map((rule) => {
          try {
            const program = plan(this.env, parse(rule.rule)) as Program;
            return { rule, program, isTransition: /\boldSelf\b/.test(rule.rule) };
          } catch (err) {
            throw new CelRuleCompileError(rule.rule, path, err);
          }
        }),
      );
    }
    for (const [name, sub] of Object.entries(schema.properties ?? {}))
      this.compileAll(sub, propertyPath(path, name));
    if (schema.additionalProperties) this.compileAll(schema.additionalProperties, keyPath(path, '*'));
    if (schema.items) this.compileAll(schema.items, indexPath(path, 0));
  }

  private visit(
    schema: JsonSchemaProps,
    value: unknown,
    old: unknown,
    path: string,
    errors: FieldError[],
  ): void {
    if (value === undefined) return;
    for (const compiled of this.compiled.get(schema) ?? []) {
      if (compiled.isTransition && old === undefined) continue;
      const bindings: Record<string, CelInput> = { self: toCel(value, schema) };
      if (compiled.isTransition) bindings.oldSelf = toCel(old, schema);
      const result = compiled.program(bindings);
      if (result === true) continue;
      const shown = shownType(schemaTypeName(schema));
      if (isCelError(result)) {
        // Reported at the rule's node, naming the rule, as the apiserver does for evaluation errors.
        errors.push({
          type: 'FieldValueInvalid',
          field: path,
          value: shown,
          detail: `${result.message} evaluating rule: ${compiled.rule.message}`,
        });
        continue;
      }
      const field = resolveFieldPath(path, compiled.rule.fieldPath);
      const detail = compiled.rule.message;
      errors.push({ type: compiled.rule.reason ?? 'FieldValueInvalid', field, value: shown, detail });
    }
    this.visitChildren(schema, value, old, path, errors);
  }

  private visitChildren(
    schema: JsonSchemaProps,
    value: unknown,
    old: unknown,
    path: string,
    errors: FieldError[],
  ) {
    if (Array.isArray(value)) {
      if (!schema.items) return;
      const oldByKey = this.correlateListItems(schema, old);
      value.forEach((item, i) => {
        const oldItem = oldByKey?.get(this.listKeyOf(schema, item));
        this.visit(schema.items!, item, oldItem, indexPath(path, i), errors);
      });
      return;
    }
    if (!isObject(value)) return;
    for (const [key, child] of Object.entries(value)) {
      if (path === '' && key === 'metadata') continue;
      const sub = childOf(schema, key);
      if (!sub) continue;
      const oldChild = isObject(old) ? old[key] : undefined;
      this.visit(
        sub.schema,
        child,
        oldChild,
        sub.isMapEntry ? keyPath(path, key) : propertyPath(path, key),
        errors,
      );
    }
  }

  /** Old items of a list-map by key; other list types do not correlate (no oldSelf inside them). */
  private correlateListItems(schema: JsonSchemaProps, old: unknown): Map<string, unknown> | undefined {
    if (schema['x-kubernetes-list-type'] !== 'map' || !Array.isArray(old)) return undefined;
    return new Map(old.map((item) => [this.listKeyOf(schema, item), item]));
  }

  private listKeyOf(schema: JsonSchemaProps, item: unknown): string {
    const keys = (schema['x-kubernetes-list-map-keys'] as string[] | undefined) ?? [];
    return JSON.stringify(keys.map((key) => (isObject(item) ? item[key] : undefined)));
  }
}
