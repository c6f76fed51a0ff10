/**
 * Defaulting and OpenAPI validation of a custom resource with ajv, reported as the apiserver reports
 * them (kube-openapi wording, converted to field errors the way apiextensions-apiserver does).
 */
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { JsonSchemaProps } from '../crd';
import { shownType, shownValue, type FieldError } from './field-errors';
import { fieldPathOf, propertyPath } from './structural';

/** CRD-only keywords: declared so ajv's strict mode still catches misspelt standard keywords. */
const KUBERNETES_KEYWORDS = [
  'x-kubernetes-validations',
  'x-kubernetes-list-type',
  'x-kubernetes-list-map-keys',
  'x-kubernetes-map-type',
  'x-kubernetes-preserve-unknown-fields',
  'x-kubernetes-embedded-resource',
  'x-kubernetes-int-or-string',
];

export function createAjv(): Ajv {
  // useDefaults: the apiserver defaults missing fields before it validates; allErrors: it lists them all.
  const ajv = new Ajv({
    allErrors: true,
    useDefaults: true,
    verbose: true,
    strict: true,
    strictRequired: false,
  });
  ajv.addVocabulary(KUBERNETES_KEYWORDS);
  addFormats(ajv, ['date-time', 'int32', 'int64']);
  return ajv;
}

function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** One ajv error → one field error, with kube-openapi's wording ("<path> in body should …"). */
function toFieldError(error: ErrorObject, root: JsonSchemaProps): FieldError {
  const field = fieldPathOf(error.instancePath, root);
  const value = shownValue(error.data);
  const params = error.params as Record<string, unknown>;
  const inBody = `${field} in body`;
  switch (error.keyword) {
    case 'required':
      return { type: 'FieldValueRequired', field: propertyPath(field, String(params.missingProperty)) };
    case 'type':
      return {
        type: 'FieldValueTypeInvalid',
        field,
        value: shownType(jsonTypeOf(error.data)),
        detail: `${inBody} must be of type ${params.type}: ${JSON.stringify(jsonTypeOf(error.data))}`,
      };
    case 'enum':
      return {
        type: 'FieldValueNotSupported',
        field,
        value,
        supported: (params.allowedValues as unknown[]).map(String),
      };
    case 'maxLength':
      return { type: 'FieldValueTooLong', field, value, limit: Number(params.limit) };
    case 'maxItems':
    case 'maxProperties': {
      const actual = Array.isArray(error.data) ? error.data.length : Object.keys(error.data as object).length;
      return { type: 'FieldValueTooMany', field, actual, limit: Number(params.limit) };
    }
    case 'minLength':
      return {
        type: 'FieldValueInvalid',
        field,
        value,
        detail: `${inBody} should be at least ${params.limit} chars long`,
      };
    case 'minItems':
      return {
        type: 'FieldValueInvalid',
        field,
        value,
        detail: `${inBody} should have at least ${params.limit} items`,
      };
    case 'minProperties':
      return {
        type: 'FieldValueInvalid',
        field,
        value,
        detail: `${inBody} should have at least ${params.limit} properties`,
      };
    case 'minimum':
      return {
        type: 'FieldValueInvalid',
        field,
        value,
        detail: `${inBody} should be greater than or equal to ${params.limit}`,
      };
    case 'maximum':
      return {
        type: 'FieldValueInvalid',
        field,
        value,
        detail: `${inBody} should be less than or equal to ${params.limit}`,
      };
    case 'pattern':
      return {
        type: 'FieldValueInvalid',
        field,
        value,
        detail: `${inBody} should match '${params.pattern}'`,
      };
    case 'format':
      return {
        type: 'FieldValueInvalid',
        field,
        value,
        detail: `${inBody} must be of type ${params.format}: ${JSON.stringify(error.data)}`,
      };
    default:
      return {
        type: 'FieldValueInvalid',
        field,
        value,
        detail: `${inBody} ${error.message ?? 'is invalid'}`,
      };
  }
}

/** A compiled openAPIV3Schema: `validate` defaults `object` in place and returns its errors. */
export class SchemaValidator {
  private readonly validateFn: ValidateFunction;

  constructor(
    private readonly schema: JsonSchemaProps,
    ajv: Ajv,
  ) {
    this.validateFn = ajv.compile(schema);
  }

  validate(object: unknown): FieldError[] {
    if (this.validateFn(object)) return [];
    return (this.validateFn.errors ?? []).map((error) => toFieldError(error, this.schema));
  }
}
