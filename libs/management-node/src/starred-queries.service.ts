import { Inject, Injectable } from '@nestjs/common';
import { prefixedId } from '@quarry/common';
import { resourceNotFound, type ResourceFilter, type ResourceRecord } from '@quarry/metastore';
import { type Principal, type StorageRuntime, STORAGE_RUNTIME } from '@quarry/server';
import { holdsDatasetCapability, requireDatasetCapability } from './dataset-capability';
import {
  datasetsOfStarredQuery,
  parseStarredQuery,
  type StarredQueryDocument,
} from './starred-queries.input';

type StarredQueryRecord = ResourceRecord<StarredQueryDocument>;

export interface StarredQueryFilter {
  limit: number;
  offset: number;
  dataset?: string;
  /** Omitted: the caller's own; `all`: everyone's; `team`: everyone's but the caller's; else a user id. */
  who?: string;
  /** Case-insensitive text searched in the name and the APL. */
  qs?: string;
}

/**
 * Starred APL queries (`/v2/apl-starred-queries`). Each needs the starredQueries capability on the
 * datasets it is about (its `dataset`, else the datasets its APL reads); lists leave out the others.
 */
@Injectable()
export class StarredQueriesService {
  constructor(@Inject(STORAGE_RUNTIME) private readonly storage: StorageRuntime) {}

  async list(filter: StarredQueryFilter, principal: Principal): Promise<StarredQueryRecord[]> {
    const query: ResourceFilter = { datasets: filter.dataset ? [filter.dataset] : undefined };
    if (filter.who === undefined || filter.who === '') query.owner = principal.userId;
    else if (filter.who === 'team') query.ownerNot = principal.userId;
    else if (filter.who !== 'all') query.owner = filter.who;
    const needle = filter.qs?.toLowerCase();
    const visible = (
      await this.storage.metastore.resources.list<StarredQueryDocument>('starred_query', query)
    )
      .filter((r) => holdsDatasetCapability(principal, r.datasets, 'starredQueries', 'read'))
      .filter(
        (r) =>
          !needle ||
          r.document.name.toLowerCase().includes(needle) ||
          r.document.query.apl.toLowerCase().includes(needle),
      );
    // Paged after the capability and text filters, so a page is never short because of hidden entries.
    return visible.slice(filter.offset, filter.offset + filter.limit);
  }

  async get(id: string, principal: Principal): Promise<StarredQueryRecord> {
    const record = await this.find(id);
    requireDatasetCapability(principal, record.datasets, 'starredQueries', 'read');
    return record;
  }

  create(body: Record<string, unknown>, principal: Principal): Promise<StarredQueryRecord> {
    const doc = parseStarredQuery(body);
    const datasets = datasetsOfStarredQuery(doc);
    requireDatasetCapability(principal, datasets, 'starredQueries', 'create');
    return this.storage.metastore.resources.create(
      'starred_query',
      prefixedId('sq_'),
      { datasets, owner: principal.userId, document: doc },
      principal.userId,
    );
  }

  async update(id: string, body: Record<string, unknown>, principal: Principal): Promise<StarredQueryRecord> {
    const current = await this.find(id);
    requireDatasetCapability(principal, current.datasets, 'starredQueries', 'update');
    const doc = parseStarredQuery(body);
    const datasets = datasetsOfStarredQuery(doc);
    requireDatasetCapability(principal, datasets, 'starredQueries', 'update');
    return this.storage.metastore.resources.replace(
      'starred_query',
      id,
      { datasets, owner: current.owner, document: doc },
      principal.userId,
    );
  }

  async delete(id: string, principal: Principal): Promise<void> {
    const current = await this.find(id);
    requireDatasetCapability(principal, current.datasets, 'starredQueries', 'delete');
    await this.storage.metastore.resources.delete('starred_query', id);
  }

  private async find(id: string): Promise<StarredQueryRecord> {
    const record = await this.storage.metastore.resources.get<StarredQueryDocument>('starred_query', id);
    if (!record) throw resourceNotFound('starred_query', id);
    return record;
  }
}
