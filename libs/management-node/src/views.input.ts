import type { ResourceRecord } from '@quarry/metastore';
import { referencedDatasets } from '@quarry/query';
import { validateBody } from './openapi-validation';
import { BodyReader, checkAplMember } from './resource-validation';

/** A view as stored: the View schema of v2.json (a named, shared APL query). */
export interface ViewDocument extends Record<string, unknown> {
  name: string;
  aplQuery: string;
  datasets: string[];
  description: string;
}

/** Validates a View body; `datasets` defaults to the datasets the query reads. */
export function parseView(body: Record<string, unknown>): ViewDocument {
  validateBody('POST /views', body);
  const reader = new BodyReader(body);
  const name = reader.string('name', { required: true, maxLength: 256 });
  const aplQuery = reader.string('aplQuery', { required: true, maxLength: 100_000 });
  const datasets = reader.stringArray('datasets');
  const description = reader.string('description', { maxLength: 1024 }) ?? '';
  reader.finish('view', 'view_invalid');
  checkAplMember(aplQuery!, 'aplQuery', 'view', 'view_invalid');
  return {
    name: name!,
    aplQuery: aplQuery!,
    datasets: datasets ?? referencedDatasets(aplQuery!),
    description,
  };
}

/** View, plus the `id` its routes use (the schema omits it). */
export function viewView(record: ResourceRecord<ViewDocument>) {
  const d = record.document;
  return {
    id: record.id,
    name: d.name,
    aplQuery: d.aplQuery,
    datasets: d.datasets,
    description: d.description,
  };
}
