import { SEMCONV_ATTRIBUTE_PREFIXES, SEMCONV_ATTRIBUTES } from './otel-semconv-registry';

const NAMES = new Set(SEMCONV_ATTRIBUTES);

/**
 * Whether an attribute name is one of OpenTelemetry's semantic conventions (the registry generated from
 * `@opentelemetry/semantic-conventions`), or lies under a templated one (`http.request.header.<key>`).
 * Axiom keeps such attributes as `attributes.<key>` and every other one in the map `attributes.custom`.
 */
export function isSemanticConvention(key: string): boolean {
  if (NAMES.has(key)) return true;
  for (const prefix of SEMCONV_ATTRIBUTE_PREFIXES) {
    if (key.length > prefix.length && key.startsWith(prefix)) return true;
  }
  return false;
}
