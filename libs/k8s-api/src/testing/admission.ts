/**
 * Admission of custom resources from their CRDs, as the apiserver does it, for fakes and fixtures:
 *
 *   const admission = CrdAdmission.fromDirectory('crds');
 *   const result = admission.admit(object, oldObject); // oldObject only on update
 *   if (!result.ok) reply(result.status, toKubeStatus(result));
 *
 * Steps, in the apiserver's order: find the CRD by apiVersion + kind; prune unknown fields and null
 * fields (reported as warnings); apply defaults; validate the openAPIV3Schema; check set / map list
 * uniqueness; run the CEL rules (skipped, with the apiserver's notice, after a type, enum, required or
 * size error). The result is a defaulted copy of the object or a 422 with one cause per problem.
 *
 * The caller owns everything that is not validation: metadata (names, generation, resourceVersion),
 * status-subresource isolation (copy the old status or spec before admitting) and storage.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import type { CustomResourceDefinition } from '../crd';
import { CelValidator } from './cel-validation';
import { causeOf, formatFieldError, type FieldError, type StatusCause } from './field-errors';
import { SchemaValidator, createAjv } from './schema-validation';
import { isObject, listTypeErrors, prune } from './structural';

export interface Admitted {
  readonly ok: true;
  /** The object after pruning and defaulting (a copy; the input is not changed). */
  readonly object: Record<string, unknown>;
  /** `unknown field "spec.foo"` for each pruned field, as the apiserver's Warning headers say. */
  readonly warnings: string[];
}

export interface Rejected {
  readonly ok: false;
  readonly status: 422 | 400 | 404;
  readonly reason: 'Invalid' | 'BadRequest' | 'NotFound';
  /** The whole message, e.g. `Dataset.quarry.dev "logs" is invalid: spec.kind: Invalid value: …`. */
  readonly message: string;
  readonly causes: StatusCause[];
  /** The same problems as data, for tests that assert on types and paths rather than text. */
  readonly errors: FieldError[];
  readonly details: { readonly name?: string; readonly group?: string; readonly kind?: string };
}

export type AdmissionResult = Admitted | Rejected;

/** The notice the apiserver adds when it skips CEL rules because of type or enum errors. */
export const CEL_SKIPPED_NOTICE =
  'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation';

/**
 * Errors after which the object lacks the shape its CEL rules were written for, so the apiserver skips
 * the rules (apiextensions-apiserver `hasBlockingErr`): type, enum, required and size violations.
 * Pattern, format and minimum errors do not block.
 */
const BLOCKING: ReadonlySet<FieldError['type']> = new Set([
  'FieldValueTypeInvalid',
  'FieldValueNotSupported',
  'FieldValueRequired',
  'FieldValueTooLong',
  'FieldValueTooMany',
]);

function blocksCel(errors: FieldError[]): boolean {
  return errors.some((error) => BLOCKING.has(error.type));
}

interface LoadedKind {
  readonly crd: CustomResourceDefinition;
  readonly version: string;
  readonly schema: SchemaValidator;
  readonly openApi: CustomResourceDefinition['spec']['versions'][number]['schema']['openAPIV3Schema'];
  readonly cel: CelValidator;
}

export class CrdAdmission {
  private readonly kinds = new Map<string, LoadedKind>();

  /** Compiles every served version of `crds`; throws if a schema or a CEL rule does not compile. */
  constructor(crds: readonly CustomResourceDefinition[]) {
    const ajv = createAjv();
    for (const crd of crds) {
      for (const version of crd.spec.versions) {
        if (!version.served) continue;
        const openApi = version.schema.openAPIV3Schema;
        this.kinds.set(`${crd.spec.group}/${version.name}|${crd.spec.names.kind}`, {
          crd,
          version: version.name,
          schema: new SchemaValidator(openApi, ajv),
          openApi,
          cel: new CelValidator(openApi),
        });
      }
    }
  }

  /** Loads every CustomResourceDefinition document of the `*.yaml` files in `dir` (not recursive). */
  static fromDirectory(dir: string): CrdAdmission {
    const crds: CustomResourceDefinition[] = [];
    for (const name of readdirSync(dir).sort()) {
      if (!name.endsWith('.yaml') && !name.endsWith('.yml')) continue;
      for (const document of parseAllDocuments(readFileSync(join(dir, name), 'utf8'))) {
        const value = document.toJS() as unknown;
        if (isObject(value) && value.kind === 'CustomResourceDefinition')
          crds.push(value as unknown as CustomResourceDefinition);
      }
    }
    return new CrdAdmission(crds);
  }

  /** The loaded CRDs, once each (for discovery documents and routing by plural in a fake server). */
  get crds(): CustomResourceDefinition[] {
    return [...new Set([...this.kinds.values()].map((loaded) => loaded.crd))];
  }

  /** The CRD serving `apiVersion` + `kind`, if any (for routing in a fake server). */
  crdFor(apiVersion: string, kind: string): CustomResourceDefinition | undefined {
    return this.kinds.get(`${apiVersion}|${kind}`)?.crd;
  }

  /** Validates `object` as a create, or as an update of `oldObject` (which enables transition rules). */
  admit(object: unknown, oldObject?: unknown): AdmissionResult {
    if (!isObject(object)) return badRequest('the object must be a JSON object');
    const { apiVersion, kind } = object;
    const loaded =
      typeof apiVersion === 'string' && typeof kind === 'string'
        ? this.kinds.get(`${apiVersion}|${kind}`)
        : undefined;
    if (loaded === undefined) {
      return {
        ok: false,
        status: 404,
        reason: 'NotFound',
        message: `no matches for kind ${JSON.stringify(kind)} in version ${JSON.stringify(apiVersion)}`,
        causes: [],
        errors: [],
        details: {},
      };
    }
    const copy = structuredClone(object);
    const warnings = prune(copy, loaded.openApi, '').map((path) => `unknown field ${JSON.stringify(path)}`);
    const errors = [...loaded.schema.validate(copy), ...listTypeErrors(copy, loaded.openApi, '')];
    errors.push(...celErrors(loaded, copy, oldObject, errors));
    if (errors.length === 0) return { ok: true, object: copy, warnings };
    return invalid(copy, loaded, errors);
  }
}

/** The CEL rules' findings, or the apiserver's notice that they were skipped because of `schemaErrors`. */
function celErrors(
  loaded: LoadedKind,
  object: unknown,
  oldObject: unknown,
  schemaErrors: FieldError[],
): FieldError[] {
  // No rules: the apiserver has no CEL validator for the kind, and says nothing about skipping one.
  if (!loaded.cel.hasRules) return [];
  if (blocksCel(schemaErrors)) return [{ type: 'FieldValueInvalid', field: '', detail: CEL_SKIPPED_NOTICE }];
  const old = isObject(oldObject) ? defaulted(oldObject, loaded) : undefined;
  return loaded.cel.validate(object, old);
}

/** The stored object as the apiserver reads it back: pruned and defaulted, never re-validated. */
function defaulted(object: Record<string, unknown>, loaded: LoadedKind): Record<string, unknown> {
  const copy = structuredClone(object);
  prune(copy, loaded.openApi, '');
  loaded.schema.validate(copy);
  return copy;
}

function invalid(object: Record<string, unknown>, loaded: LoadedKind, errors: FieldError[]): Rejected {
  const metadata = isObject(object.metadata) ? object.metadata : {};
  const name = typeof metadata.name === 'string' ? metadata.name : '';
  const { kind } = loaded.crd.spec.names;
  const group = loaded.crd.spec.group;
  const listed = errors.map(formatFieldError);
  const summary = listed.length === 1 ? listed[0] : `[${listed.join(', ')}]`;
  return {
    ok: false,
    status: 422,
    reason: 'Invalid',
    message: `${kind}.${group} ${JSON.stringify(name)} is invalid: ${summary}`,
    causes: errors.map(causeOf),
    errors,
    details: { name, group, kind },
  };
}

function badRequest(message: string): Rejected {
  return { ok: false, status: 400, reason: 'BadRequest', message, causes: [], errors: [], details: {} };
}

/** A rejection as the `metav1.Status` body the apiserver sends. */
export function toKubeStatus(rejected: Rejected): Record<string, unknown> {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: rejected.message,
    reason: rejected.reason,
    details: { ...rejected.details, causes: rejected.causes },
    code: rejected.status,
  };
}
