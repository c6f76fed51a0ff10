import { Controller, Get, Inject } from '@nestjs/common';
import { Access } from '../auth/access.decorator';
import type { StorageRuntime } from '../storage/storage-runtime';
import { STORAGE_RUNTIME } from '../storage/tokens';

/** Liveness and readiness probes (Kubernetes and load balancers). */
@Controller()
export class HealthController {
  constructor(@Inject(STORAGE_RUNTIME) private readonly storage: StorageRuntime) {}

  @Get('healthz')
  @Access({ tokens: 'any', public: true })
  live() {
    return { status: 'ok' };
  }

  /** Not ready until the ingest log is replayed, and not ready once the log failed. */
  @Get('readyz')
  @Access({ tokens: 'any', public: true })
  ready() {
    this.storage.assertReady(); // throws 503 while replaying and once the log has failed
    return {
      status: 'ready',
      shape: this.storage.shape,
      roles: this.storage.config.roles,
      uncompactedRows: this.storage.tail.rows,
      logSegments: this.storage.appendLog?.stats().segments ?? 0,
    };
  }
}
