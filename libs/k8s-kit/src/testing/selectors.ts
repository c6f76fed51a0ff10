import { statusErrors } from './api-status';
import { parseLabelSelector } from './label-selector';
import type { KubeObject } from './resource-types';

/** Whether an object passes a list's or watch's `labelSelector` and `fieldSelector`. */
export type ObjectFilter = (object: KubeObject | undefined) => boolean;

const FIELD_CLAUSE = /^\s*(metadata\.name|metadata\.namespace)\s*(==|=|!=)\s*([^,]*?)\s*$/;

/**
 * Builds the filter for a request's selectors. Field selectors support `metadata.name` and
 * `metadata.namespace` (every resource has those); anything else is refused as the apiserver refuses an
 * unknown field label, so a test cannot silently rely on a filter the fake does not apply.
 */
export function objectFilter(labelSelector: string | null, fieldSelector: string | null): ObjectFilter {
  const labels = parseLabelSelector(labelSelector ?? undefined);
  if (!labels.ok) throw statusErrors.badRequest(`unable to parse labelSelector: ${labels.message}`);
  const fields: Array<(object: KubeObject) => boolean> = [];
  for (const clause of (fieldSelector ?? '').split(',').filter((c) => c.trim() !== '')) {
    const match = FIELD_CLAUSE.exec(clause);
    if (!match) throw statusErrors.badRequest(`field label not supported: ${clause.split(/[=!]/)[0].trim()}`);
    const [, field, op, value] = match;
    const read = (object: KubeObject) =>
      (field === 'metadata.name' ? object.metadata?.name : object.metadata?.namespace) ?? '';
    fields.push(op === '!=' ? (o) => read(o) !== value : (o) => read(o) === value);
  }
  return (object) =>
    object !== undefined && labels.matches(object.metadata?.labels) && fields.every((f) => f(object));
}
