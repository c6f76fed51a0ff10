import * as fs from 'node:fs';
import * as path from 'node:path';
import { Logger } from '@nestjs/common';
import type { ClusterMember, Metastore } from '@quarry/metastore';

/**
 * Version of the protocol query nodes speak to one another (plan fragments and partial states). A node
 * only sends work to members of the same RPC version, so a cluster mid-upgrade keeps answering from the
 * nodes that understand each other, and a node refuses requests of another version.
 */
export const CLUSTER_RPC_VERSION = 1;

/** This build's version (the node runtime's package version). */
export const QUARRY_VERSION: string = (() => {
  try {
    return (
      JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
        version: string;
      }
    ).version;
  } catch {
    return 'unknown';
  }
})();

export interface MembershipOptions {
  nodeId: string;
  roles: string[];
  advertiseUrl: string;
  heartbeatMs: number;
  /** A member whose last heartbeat is older than this is out. */
  timeoutMs: number;
}

/**
 * This node's entry in `cluster_members`, renewed every `heartbeatMs`, and the live members as of the
 * last heartbeat (no DNS, no gossip: the metastore every node already talks to is the registry).
 */
export class Membership {
  private readonly logger = new Logger('membership');
  private readonly startedAt = new Date().toISOString();
  private timer: NodeJS.Timeout | null = null;
  private members: ClusterMember[] = [];
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly metastore: Metastore,
    readonly options: MembershipOptions,
  ) {}

  get nodeId(): string {
    return this.options.nodeId;
  }

  /** Registers, then beats every `heartbeatMs` (a failed beat is logged; the next one retries). */
  async start(): Promise<void> {
    await this.beat();
    const tick = () => {
      this.running = this.beat()
        .catch((err) => this.logger.warn(`heartbeat failed: ${(err as Error).message}`))
        .finally(() => {
          if (this.timer !== null) this.timer = setTimeout(tick, this.options.heartbeatMs);
        });
    };
    this.timer = setTimeout(tick, this.options.heartbeatMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
    await this.metastore.cluster.leave(this.options.nodeId).catch(() => undefined);
  }

  /** Live members running `role` that speak this node's RPC version (this node included when it does). */
  live(role: string): ClusterMember[] {
    return this.members.filter(
      (m) => m.live && m.roles.includes(role) && m.rpcVersion === CLUSTER_RPC_VERSION,
    );
  }

  /** Every registered member with its state (for `GET /v1/cluster`), read now. */
  async all(): Promise<ClusterMember[]> {
    return this.metastore.cluster.members(this.options.timeoutMs);
  }

  private async beat(): Promise<void> {
    await this.metastore.cluster.heartbeat({
      nodeId: this.options.nodeId,
      roles: this.options.roles,
      advertiseUrl: this.options.advertiseUrl,
      version: QUARRY_VERSION,
      rpcVersion: CLUSTER_RPC_VERSION,
      startedAt: this.startedAt,
    });
    this.members = await this.metastore.cluster.members(this.options.timeoutMs);
  }
}
