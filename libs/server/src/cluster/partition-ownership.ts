import { createHash } from 'node:crypto';
import { Logger } from '@nestjs/common';
import type { Metastore } from '@quarry/metastore';

const MEMBER_PREFIX = 'compactor-member:';

/**
 * Which log partitions this compactor compacts. Compactors register as members (a lease each, renewed
 * every `ttlMs / 3`), every member computes the same owner for each partition by rendezvous hashing
 * over the live members — so when one leaves, only its partitions move — and a node works on a partition
 * only while it holds the partition's lease. A dead compactor's leases expire after `ttlMs` and the
 * survivors take its partitions over.
 *
 * Why not Kafka's consumer group (docs/adr/0005): the metastore already decides what is compacted
 * (compare-and-set on the committed offset), group rebalances stop every member, and the Kafka-protocol
 * server CI runs on (librdkafka's mock) never settles groups in which a member gets no partition and
 * fails SyncGroup under load. Leases are about not doing work twice; correctness never depends on them.
 */
export class PartitionOwnership {
  private readonly logger = new Logger('ownership');
  /** `<log>:<partition>` keys whose lease this node holds. */
  private owned = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> = Promise.resolve();
  /** Ownership changes since start (for /metrics). */
  moves = 0;

  constructor(
    private readonly metastore: Metastore,
    private readonly nodeId: string,
    /** Every partition of each log, by log name ('events', 'metrics'). */
    private readonly partitions: () => Map<string, number[]>,
    private readonly ttlMs: number,
    private readonly onChange: (log: string, owned: number[]) => void = () => undefined,
  ) {}

  /** Partitions of `log` this node holds the lease of now. */
  ownedOf(log: string): number[] {
    const prefix = `${log}:`;
    return [...this.owned]
      .filter((key) => key.startsWith(prefix))
      .map((key) => Number(key.slice(prefix.length)))
      .sort((a, b) => a - b);
  }

  /** Joins, takes its first partitions, then renews every `ttlMs / 3`. */
  async start(): Promise<void> {
    await this.rebalance();
    const tick = () => {
      this.running = this.rebalance()
        .catch((err) => this.logger.warn(`partition ownership: ${(err as Error).message}`))
        .finally(() => {
          if (this.timer !== null) this.timer = setTimeout(tick, Math.max(100, this.ttlMs / 3));
        });
    };
    this.timer = setTimeout(tick, Math.max(100, this.ttlMs / 3));
  }

  /** Stops renewing and gives every lease back, so the others take over at once. */
  async stop(): Promise<void> {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
    const cluster = this.metastore.cluster;
    for (const key of this.owned)
      await cluster.releaseLease(leaseName(key), this.nodeId).catch(() => undefined);
    await cluster.releaseLease(`${MEMBER_PREFIX}${this.nodeId}`, this.nodeId).catch(() => undefined);
    this.owned = new Set();
  }

  /** One round: renew membership, compute who should own what, give back and take leases accordingly. */
  async rebalance(): Promise<void> {
    const cluster = this.metastore.cluster;
    await cluster.acquireLease(`${MEMBER_PREFIX}${this.nodeId}`, this.nodeId, this.ttlMs);
    const members = await cluster.liveHolders(MEMBER_PREFIX);
    if (!members.includes(this.nodeId)) members.push(this.nodeId);
    const next = new Set<string>();
    for (const [log, partitions] of this.partitions()) {
      for (const partition of partitions) {
        const key = `${log}:${partition}`;
        if (ownerOf(key, members) !== this.nodeId) {
          // Someone else should have it: give it back (between compaction steps; a step in flight that
          // still commits is harmless — the compare-and-set decides).
          if (this.owned.has(key)) await cluster.releaseLease(leaseName(key), this.nodeId);
          continue;
        }
        if (await cluster.acquireLease(leaseName(key), this.nodeId, this.ttlMs)) next.add(key);
      }
    }
    const changed = this.owned.size !== next.size || [...next].some((k) => !this.owned.has(k));
    this.owned = next;
    if (!changed) return;
    this.moves++;
    for (const log of this.partitions().keys()) this.onChange(log, this.ownedOf(log));
    this.logger.log(`owns ${[...next].sort().join(', ') || 'no partition'} (members: ${members.join(', ')})`);
  }
}

const leaseName = (key: string) => `partition:${key}`;

/** Rendezvous hashing: the member with the highest hash of (member, key) owns the key. */
export function ownerOf(key: string, members: readonly string[]): string | undefined {
  return rankOf(key, members)[0];
}

/**
 * Every member ordered by its rendezvous score for `key`, highest first: the owner, then who takes the
 * key over when the owner is gone (removing a member never reorders the others).
 */
export function rankOf(key: string, members: readonly string[]): string[] {
  return members
    .map((member) => ({ member, score: createHash('sha256').update(`${member}\0${key}`).digest('hex') }))
    .sort((a, b) => (a.score > b.score ? -1 : a.score < b.score ? 1 : 0))
    .map((m) => m.member);
}
