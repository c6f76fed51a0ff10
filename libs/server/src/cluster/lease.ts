import { Logger } from '@nestjs/common';
import type { Metastore } from '@quarry/metastore';

/**
 * A lease in the metastore for work one node of the cluster does at a time (the block merger, the
 * orphan sweep). `hold()` takes or renews it; a holder that stops renewing loses it after `ttlMs`. The
 * work it guards must stay correct if two nodes ever overlap (a paused holder waking up after its lease
 * ran out): merges swap blocks only if every input is still registered, so the lease is about not
 * wasting work twice, not about correctness.
 */
export class Lease {
  private readonly logger = new Logger('lease');
  private held = false;

  constructor(
    private readonly metastore: Metastore,
    readonly name: string,
    readonly holder: string,
    private readonly ttlMs: number,
  ) {}

  /** True when this node holds the lease now (renewed for another `ttlMs`). */
  async hold(): Promise<boolean> {
    let held: boolean;
    try {
      held = await this.metastore.cluster.acquireLease(this.name, this.holder, this.ttlMs);
    } catch (err) {
      this.logger.warn(`could not renew lease "${this.name}": ${(err as Error).message}`);
      held = false;
    }
    if (held !== this.held) this.logger.log(`${held ? 'took' : 'lost'} lease "${this.name}"`);
    this.held = held;
    return held;
  }

  get isHeld(): boolean {
    return this.held;
  }

  async release(): Promise<void> {
    if (!this.held) return;
    this.held = false;
    await this.metastore.cluster.releaseLease(this.name, this.holder).catch(() => undefined);
  }
}
