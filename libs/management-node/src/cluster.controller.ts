import { Controller, Get, Inject } from '@nestjs/common';
import {
  Access,
  CLUSTER_RPC_VERSION,
  QUARRY_VERSION,
  STORAGE_RUNTIME,
  type StorageRuntime,
} from '@quarry/server';

/**
 * `GET /v1/cluster` (operators: a token with every org capability, API tokens only): the nodes of this
 * cluster as they registered in the metastore — role, URL, version, start time, last heartbeat — and
 * whether each is up (a heartbeat within QUARRY_MEMBER_TIMEOUT_MS) or down. docs/architecture.md.
 */
@Controller()
export class ClusterController {
  constructor(@Inject(STORAGE_RUNTIME) private readonly storage: StorageRuntime) {}

  @Get('v1/cluster')
  @Access({ tokens: 'api', admin: true })
  async cluster() {
    const { config, membership } = this.storage;
    // The standalone server is a cluster of one.
    const members = membership
      ? await membership.all()
      : [
          {
            nodeId: config.nodeId,
            roles: config.roles,
            advertiseUrl: config.advertiseUrl,
            version: QUARRY_VERSION,
            rpcVersion: CLUSTER_RPC_VERSION,
            startedAt: this.storage.startedAt,
            heartbeatAt: new Date().toISOString(),
            live: true,
          },
        ];
    return {
      shape: this.storage.shape,
      self: config.nodeId,
      members: members.map((m) => ({
        nodeId: m.nodeId,
        roles: m.roles,
        url: m.advertiseUrl,
        version: m.version,
        rpcVersion: m.rpcVersion,
        startedAt: m.startedAt,
        lastHeartbeat: m.heartbeatAt,
        state: m.live ? 'up' : 'down',
      })),
    };
  }
}
