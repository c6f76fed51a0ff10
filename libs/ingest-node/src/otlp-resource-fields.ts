import { attributesOf, isEmpty, type Json, obj } from './otlp-values';

/**
 * The fields every OTLP event (span, log record) takes from its resource and instrumentation scope,
 * as Axiom lays them out: `service.name` at the top level, other resource attributes under `resource.`,
 * the scope under `scope.`.
 */
export interface ResourceFields {
  serviceName: unknown;
  /** Resource attributes other than `service.name`, stored under `resource.`. */
  others: Json;
}

/** `service.name` is a top-level field (Axiom's trace views group by it); the rest go under `resource`. */
export function resourceFields(attributes: unknown): ResourceFields {
  const others = attributesOf(attributes);
  const serviceName = others['service.name'];
  delete others['service.name'];
  return { serviceName, others };
}

/** `scope.name`, `scope.version` and the scope's attributes under `scope.attributes`; null when empty. */
export function scopeFields(scope: unknown): Json | null {
  const s = obj(scope);
  const out = Object.create(null) as Json;
  if (typeof s.name === 'string' && s.name !== '') out.name = s.name;
  if (typeof s.version === 'string' && s.version !== '') out.version = s.version;
  const attributes = attributesOf(s.attributes);
  if (!isEmpty(attributes)) out.attributes = attributes;
  return isEmpty(out) ? null : out;
}

export function addResourceAndScope(event: Json, resource: ResourceFields, scope: Json | null): void {
  if (resource.serviceName !== undefined) event['service.name'] = resource.serviceName;
  if (!isEmpty(resource.others)) event.resource = resource.others;
  if (scope !== null) event.scope = scope;
}
