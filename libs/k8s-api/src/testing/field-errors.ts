/**
 * Validation failures as data, in the shape of the apiserver's `field.Error` (k8s.io/apimachinery
 * `pkg/util/validation/field`): a type, the field path, the bad value and a detail. `formatFieldError`
 * is the one place that turns them into the text kubectl prints, e.g.
 *   spec.kind: Unsupported value: "Foo": supported values: "Events", "OTelLogs"
 */

export type FieldErrorType =
  | 'FieldValueRequired'
  | 'FieldValueInvalid'
  | 'FieldValueNotSupported'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany'
  | 'FieldValueDuplicate'
  | 'FieldValueForbidden'
  | 'FieldValueTypeInvalid';

/** A value as a message prints it (see `shownValue`). */
export type BadValue = { readonly shown: string } | undefined;

export interface FieldError {
  readonly type: FieldErrorType;
  /** Kubernetes field path: `spec.datasetCapabilities[0].ingest`, `spec.secretTemplate.labels[a/b]`; '' = the object. */
  readonly field: string;
  readonly value?: BadValue;
  readonly detail?: string;
  /** Only for FieldValueNotSupported. */
  readonly supported?: readonly string[];
  /** Only for FieldValueTooLong / FieldValueTooMany. */
  readonly limit?: number;
  readonly actual?: number;
}

/** Renders a JSON value the way field errors quote it: strings quoted, numbers bare, Go syntax for the rest. */
export function shownValue(value: unknown): BadValue {
  if (value === undefined) return undefined;
  if (typeof value === 'string') return { shown: JSON.stringify(value) };
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
    return { shown: String(value) };
  }
  if (value === null) return { shown: '"null"' };
  // Go prints composite values with %#v: map[string]interface {}{"a":1}, []interface {}{"a"}.
  if (Array.isArray(value))
    return { shown: `[]interface {}{${value.map((v) => JSON.stringify(v)).join(', ')}}` };
  const fields = Object.entries(value as object).map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`);
  return { shown: `map[string]interface {}{${fields.join(', ')}}` };
}

/** The apiserver shows CEL failures with the schema type of the node instead of its value. */
export function shownType(type: string): BadValue {
  return { shown: JSON.stringify(type) };
}

function body(error: FieldError): string {
  const value = error.value?.shown ?? '"null"';
  const withDetail = (head: string) => (error.detail ? `${head}: ${error.detail}` : head);
  switch (error.type) {
    case 'FieldValueRequired':
      return withDetail('Required value');
    case 'FieldValueForbidden':
      return withDetail('Forbidden');
    case 'FieldValueDuplicate':
      return `Duplicate value: ${value}`;
    case 'FieldValueNotSupported': {
      const supported = (error.supported ?? []).map((s) => JSON.stringify(s)).join(', ');
      return `Unsupported value: ${value}: supported values: ${supported}`;
    }
    case 'FieldValueTooLong':
      return `Too long: may not be more than ${error.limit} bytes`;
    case 'FieldValueTooMany':
      return `Too many: ${error.actual}: must have at most ${error.limit} items`;
    case 'FieldValueInvalid':
    case 'FieldValueTypeInvalid':
      return withDetail(`Invalid value: ${value}`);
  }
}

export function formatFieldError(error: FieldError): string {
  return `${error.field === '' ? '<nil>' : error.field}: ${body(error)}`;
}

/** One `details.causes[]` entry of a metav1.Status. */
export interface StatusCause {
  readonly reason: FieldErrorType;
  readonly message: string;
  readonly field: string;
}

export function causeOf(error: FieldError): StatusCause {
  return { reason: error.type, message: body(error), field: error.field };
}
