import type { ResourceRecord } from '@quarry/metastore';
import { validateBody } from './openapi-validation';
import { BodyReader } from './resource-validation';

/** A VirtualField body (v2.json) after validation. */
export interface VirtualFieldInput extends Record<string, unknown> {
  dataset: string;
  name: string;
  expression: string;
  description: string;
  type: string;
  unit: string;
}

/**
 * A virtual field as stored: the input plus the id of the dataset incarnation it was defined on, so a
 * dataset deleted and created again under the same name does not inherit the old one's fields.
 */
export interface VirtualFieldDocument extends VirtualFieldInput {
  datasetId: string;
}

/** Letters, digits, `_`, `.` and `-`, starting with a letter or `_`: usable in APL as is or as `['…']`. */
const NAME_RE = /^[A-Za-z_][A-Za-z0-9_.-]{0,127}$/;

/** Validates a VirtualField body (create and update take the same schema). */
export function parseVirtualField(body: Record<string, unknown>): VirtualFieldInput {
  validateBody('POST /vfields', body);
  const reader = new BodyReader(body);
  const dataset = reader.string('dataset', { required: true });
  const name = reader.string('name', { required: true, pattern: NAME_RE });
  const expression = reader.string('expression', { required: true, maxLength: 10_000 });
  const description = reader.string('description', { maxLength: 1024 }) ?? '';
  const type = reader.string('type', { maxLength: 64 }) ?? '';
  const unit = reader.string('unit', { maxLength: 64 }) ?? '';
  reader.finish('virtual field', 'vfield_invalid');
  return { dataset: dataset!, name: name!, expression: expression!, description, type, unit };
}

/** A name is unique within one dataset incarnation. */
export const virtualFieldKey = (doc: VirtualFieldDocument) => `${doc.datasetId}/${doc.name}`;

/** VirtualFieldWithId. */
export function virtualFieldView(record: ResourceRecord<VirtualFieldDocument>) {
  const d = record.document;
  return {
    id: record.id,
    dataset: d.dataset,
    name: d.name,
    expression: d.expression,
    description: d.description,
    type: d.type,
    unit: d.unit,
  };
}
