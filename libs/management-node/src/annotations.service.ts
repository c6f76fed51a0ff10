import { Inject, Injectable } from '@nestjs/common';
import { prefixedId, systemClock, type Clock } from '@quarry/common';
import { resourceNotFound, type ResourceFilter, type ResourceRecord } from '@quarry/metastore';
import { type StorageRuntime, STORAGE_RUNTIME } from '@quarry/server';
import { annotationContent, parseAnnotation, type AnnotationDocument } from './annotations.input';

type AnnotationRecord = ResourceRecord<AnnotationDocument>;

export interface AnnotationFilter {
  datasets?: string[];
  /** Annotations whose range ends at or after this time. */
  start?: string;
  /** Annotations that start at or before this time. */
  end?: string;
}

/** Annotations (`/v2/annotations`): events marked on the charts of their datasets. */
@Injectable()
export class AnnotationsService {
  private readonly clock: Clock = systemClock;

  constructor(@Inject(STORAGE_RUNTIME) private readonly storage: StorageRuntime) {}

  list(filter: AnnotationFilter): Promise<AnnotationRecord[]> {
    const query: ResourceFilter = {
      datasets: filter.datasets,
      endsAtOrAfter: filter.start,
      startsAtOrBefore: filter.end,
    };
    return this.storage.metastore.resources.list<AnnotationDocument>('annotation', query);
  }

  async get(id: string): Promise<AnnotationRecord> {
    const record = await this.storage.metastore.resources.get<AnnotationDocument>('annotation', id);
    if (!record) throw resourceNotFound('annotation', id);
    return record;
  }

  create(body: Record<string, unknown>, who: string): Promise<AnnotationRecord> {
    const doc = parseAnnotation(body, this.nowIso());
    return this.storage.metastore.resources.create(
      'annotation',
      prefixedId('ann_'),
      annotationContent(doc),
      who,
    );
  }

  /** A partial update: members left out keep their values. */
  async update(id: string, body: Record<string, unknown>, who: string): Promise<AnnotationRecord> {
    const current = await this.get(id);
    const doc = parseAnnotation(body, this.nowIso(), current.document);
    return this.storage.metastore.resources.replace('annotation', id, annotationContent(doc), who);
  }

  async delete(id: string): Promise<void> {
    await this.storage.metastore.resources.delete('annotation', id);
  }

  private nowIso(): string {
    return new Date(this.clock.nowMs()).toISOString();
  }
}
