import { invalid } from '@quarry/common';
import type { ResourceRecord } from '@quarry/metastore';
import { referencedDatasets } from '@quarry/query';
import { validateBody } from './openapi-validation';
import { BodyReader } from './resource-validation';

/** A starred APL query as stored (StarredQuery without `who`, which is the owner column). */
export interface StarredQueryDocument extends Record<string, unknown> {
  kind: 'apl';
  name: string;
  query: Record<string, unknown> & { apl: string };
  metadata: Record<string, string>;
  dataset?: string;
}

/**
 * Validates a StarredQuery body. `who` is required by the schema but the server decides it: a starred
 * query always belongs to the caller.
 */
export function parseStarredQuery(body: Record<string, unknown>): StarredQueryDocument {
  validateBody('POST /apl-starred-queries', body);
  const reader = new BodyReader(body);
  const kind = reader.oneOf('kind', ['apl'] as const, true);
  const name = reader.string('name', { required: true, maxLength: 256 });
  reader.string('who', { required: true, minLength: 0 });
  const metadata = reader.stringMap('metadata', true);
  const dataset = reader.string('dataset');
  const query = reader.nested('query', true);
  const apl = query?.string('apl', { required: true, maxLength: 100_000 });
  query?.string('startTime');
  query?.string('endTime');
  reader.finish('starred query', 'starred_query_invalid');
  const doc: StarredQueryDocument = {
    kind: kind!,
    name: name!,
    query: { ...(body.query as Record<string, unknown>), apl: apl! },
    metadata: metadata!,
  };
  if (dataset) doc.dataset = dataset;
  return doc;
}

/** The datasets a starred query is about: its `dataset`, else the ones its APL reads. */
export function datasetsOfStarredQuery(doc: StarredQueryDocument): string[] {
  if (doc.dataset) return [doc.dataset];
  try {
    return referencedDatasets(doc.query.apl);
  } catch (err) {
    throw invalid(`invalid starred query: "query.apl" ${(err as Error).message}`, {
      code: 'starred_query_invalid',
    });
  }
}

/** StarredQueryWithId. */
export function starredQueryView(record: ResourceRecord<StarredQueryDocument>) {
  const { kind, name, query, metadata, dataset } = record.document;
  return {
    id: record.id,
    kind,
    name,
    who: record.owner,
    query,
    metadata,
    ...(dataset ? { dataset } : {}),
  };
}
