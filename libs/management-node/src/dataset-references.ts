import type { Metastore } from '@quarry/metastore';
import { annotationContent, type AnnotationDocument } from './annotations.input';

/** What deleting a dataset did to the resources that named it. */
export interface ReleasedReferences {
  virtualFields: number;
  /** Annotations that still mark other datasets and lost this one. */
  annotationsStripped: number;
  /** Annotations that marked only this dataset. */
  annotationsDeleted: number;
}

/**
 * Settles the management resources that name a dataset being deleted, inside the transaction that deletes
 * it (docs/management.md, "Deleting a dataset"). A name can be taken again by a new dataset, so whatever
 * describes the old one's data must not carry over to it:
 *
 * - virtual fields are defined on the dataset: deleted;
 * - annotations mark events in the dataset's charts: the name is removed from their `datasets`, and an
 *   annotation left with none is deleted (the schema requires at least one dataset);
 * - views, starred queries, monitors and dashboards are authored queries that name datasets in their APL:
 *   kept unchanged, like the query text they are (they read the namesake if one is created again);
 * - dataset capabilities of tokens and roles grant access by name: kept (token privileges cannot change
 *   after creation, and an ingest token keeps working for a dataset that is re-created).
 *
 * Map fields and field metadata live on the dataset's own rows and go with them.
 */
export async function releaseDatasetReferences(
  tx: Metastore,
  dataset: string,
  who: string,
): Promise<ReleasedReferences> {
  const virtualFields = await tx.resources.deleteOfDataset('vfield', dataset);
  const annotations = await tx.resources.list<AnnotationDocument>('annotation', { datasets: [dataset] });
  let annotationsDeleted = 0;
  for (const annotation of annotations) {
    const datasets = annotation.document.datasets.filter((d) => d !== dataset);
    if (datasets.length === 0) {
      await tx.resources.delete('annotation', annotation.id);
      annotationsDeleted++;
      continue;
    }
    const content = annotationContent({ ...annotation.document, datasets });
    await tx.resources.replace('annotation', annotation.id, content, who);
  }
  return {
    virtualFields: virtualFields.length,
    annotationsStripped: annotations.length - annotationsDeleted,
    annotationsDeleted,
  };
}
