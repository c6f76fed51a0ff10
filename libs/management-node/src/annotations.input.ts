import { invalid } from '@quarry/common';
import type { ResourceRecord } from '@quarry/metastore';
import { validateBody } from './openapi-validation';
import { BodyReader } from './resource-validation';

/** An annotation as stored (the Annotation schema without `id`). */
export interface AnnotationDocument extends Record<string, unknown> {
  type: string;
  datasets: string[];
  time: string;
  endTime: string | null;
  title?: string;
  description?: string;
  url?: string;
}

const TYPE_RE = /^[a-z0-9-]+$/;
const MEMBERS = ['type', 'datasets', 'time', 'endTime', 'title', 'description', 'url'] as const;

/**
 * Validates NewAnnotation (create: `type` and `datasets` required, `time` defaults to now) or
 * UpdatedAnnotation (update: every member optional, merged over `current`).
 */
export function parseAnnotation(
  body: Record<string, unknown>,
  nowIso: string,
  current?: AnnotationDocument,
): AnnotationDocument {
  const creating = current === undefined;
  validateBody(creating ? 'POST /annotations' : 'PUT /annotations/{id}', body);
  const reader = new BodyReader(body);
  const type = reader.string('type', { required: creating, maxLength: 256, pattern: TYPE_RE });
  const datasets = reader.stringArray('datasets', { required: creating, minItems: 1 });
  const time = reader.dateTime('time');
  const endTime = reader.dateTime('endTime');
  const title = reader.string('title', { maxLength: 256 });
  const description = reader.string('description', { maxLength: 512 });
  const url = reader.string('url', { maxLength: 512 });
  reader.finish('annotation', 'annotation_invalid');
  const merged: AnnotationDocument = {
    ...(current ?? { type: '', datasets: [], time: nowIso, endTime: null }),
    ...defined({ type, datasets, time, endTime, title, description, url }),
  };
  if (merged.endTime !== null && Date.parse(merged.endTime) < Date.parse(merged.time))
    throw invalid('invalid annotation: "endTime" must not be before "time"', { code: 'annotation_invalid' });
  return merged;
}

function defined<T extends Record<string, unknown>>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** The stored form: the document plus the columns lists filter on (datasets, time range). */
export function annotationContent(doc: AnnotationDocument) {
  return { datasets: doc.datasets, startTime: doc.time, endTime: doc.endTime, document: doc };
}

/** Annotation: members in schema order; optional text members only when set. */
export function annotationView(record: ResourceRecord<AnnotationDocument>) {
  const view: Record<string, unknown> = { id: record.id };
  for (const member of MEMBERS) {
    const value = record.document[member];
    if (value !== undefined) view[member] = value;
  }
  return view;
}
