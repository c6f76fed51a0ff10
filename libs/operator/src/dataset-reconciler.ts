import {
  createBody,
  datasetNameOf,
  desiredDataset,
  diffDataset,
  type DesiredDataset,
} from './dataset-desired';
import {
  available,
  ManagedReconciler,
  notReady,
  type KindHandler,
  type ReconcileContext,
  type ReconcileDeps,
  type SyncOutcome,
} from './managed-reconcile';
import { isManagementError, orMissing, type ApiDataset } from './management-api.port';
import { describe, olderClaimant } from './name-claims';

type Ctx = ReconcileContext<'Dataset'>;

/**
 * Dataset ↔ `/v2/datasets/{name}` (k8s.md §3.2). The name is the external id, so creation needs no
 * pending mark: a 409 on create means the dataset exists and is adopted. Kind and region cannot change
 * in Quarry; a difference is reported (`ImmutableFieldChanged`), never fixed by deleting data.
 */
export class DatasetHandler implements KindHandler<'Dataset'> {
  readonly kind = 'Dataset';
  /** Deleting a CR must not delete data by accident (k8s.md §11). */
  readonly defaultDeletionPolicy = 'Orphan';

  async check(ctx: Ctx) {
    const owner = olderClaimant(ctx.cr, await ctx.kube.claimants('Dataset', ctx.cr), datasetNameOf);
    if (!owner) return undefined;
    return notReady(
      'ResourceConflict',
      `dataset "${datasetNameOf(ctx.cr)}" is already managed by the older Dataset ${describe(owner)}`,
    );
  }

  async sync(ctx: Ctx): Promise<SyncOutcome<'Dataset'>> {
    const desired = desiredDataset(ctx.cr, ctx.connection);
    let observed = await orMissing(ctx.api.getDataset(desired.name));
    if (!observed) observed = await this.create(ctx, desired);

    const diff = diffDataset(desired, observed);
    if (diff.immutable.length > 0) {
      return {
        ready: notReady(
          'ImmutableFieldChanged',
          `${diff.immutable.join('; ')}; recreate the dataset under a new name to change it`,
        ),
        status: observedStatus(observed),
      };
    }
    if (diff.update) {
      observed = await ctx.api.updateDataset(desired.name, diff.update);
      await ctx.kube.recordEvent(
        'Dataset',
        ctx.cr,
        'Normal',
        'Updated',
        `Updated dataset "${desired.name}" in Quarry.`,
      );
    }
    if (diff.mapFields) {
      observed = { ...observed, mapFields: await ctx.api.replaceMapFields(desired.name, diff.mapFields) };
    }
    return { ready: available(), status: observedStatus(observed) };
  }

  async finalize(ctx: Ctx): Promise<'gone' | { retryAfterMs: number }> {
    // A CR that lost the name never owned the dataset: deleting it must not touch the owner's data.
    if (olderClaimant(ctx.cr, await ctx.kube.claimants('Dataset', ctx.cr), datasetNameOf)) return 'gone';
    const name = datasetNameOf(ctx.cr);
    try {
      await ctx.api.deleteDataset(name);
    } catch (err) {
      if (!isManagementError(err, 'NotFound')) throw err;
    }
    // Confirm before dropping the finalizer: the CR must not vanish while the data still exists.
    const still = await orMissing(ctx.api.getDataset(name));
    return still ? { retryAfterMs: 1_000 } : 'gone';
  }

  private async create(ctx: Ctx, desired: DesiredDataset): Promise<ApiDataset> {
    try {
      const created = await ctx.api.createDataset(createBody(desired));
      await ctx.kube.recordEvent(
        'Dataset',
        ctx.cr,
        'Normal',
        'Created',
        `Created dataset "${desired.name}" in Quarry.`,
      );
      if (desired.mapFields?.length)
        created.mapFields = await ctx.api.replaceMapFields(desired.name, desired.mapFields);
      return created;
    } catch (err) {
      if (!isManagementError(err, 'Conflict')) throw err;
      // Someone created it between our GET and POST: it is the dataset this CR names, so adopt it.
      const adopted = await ctx.api.getDataset(desired.name);
      await ctx.kube.recordEvent(
        'Dataset',
        ctx.cr,
        'Normal',
        'Adopted',
        `Adopted the existing dataset "${desired.name}".`,
      );
      return adopted;
    }
  }
}

function observedStatus(observed: ApiDataset) {
  return { datasetName: observed.name, region: observed.edgeDeployment, created: observed.created };
}

export function datasetReconciler(deps: ReconcileDeps): ManagedReconciler<'Dataset'> {
  return new ManagedReconciler(new DatasetHandler(), deps);
}
