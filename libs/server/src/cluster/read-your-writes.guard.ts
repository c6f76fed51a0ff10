import { Inject, Injectable, type CanActivate } from '@nestjs/common';
import type { StorageRuntime } from '../storage/storage-runtime';
import { STORAGE_RUNTIME } from '../storage/tokens';

/**
 * Read-your-writes for the routes of a query node: before the handler runs, the node's tail catches up
 * with the log's end (cluster shape; a no-op for the embedded one), or the request fails with 503 past
 * QUARRY_READ_YOUR_WRITES_TIMEOUT_MS. Applied per controller or route, it runs after the global auth
 * guard, so an unauthenticated request never costs a round trip to the brokers.
 *
 * A guard rather than an interceptor because it only has to wait before the handler: Nest runs an
 * interceptor through RxJS and binds two async resources per request (`AsyncResource.bind`, which on
 * Node 20 also builds deprecation wrappers), about 5% of the CPU of a query answered from metadata.
 */
abstract class ReadYourWritesGuard implements CanActivate {
  protected abstract readonly log: 'events' | 'metrics';

  constructor(@Inject(STORAGE_RUNTIME) private readonly storage: StorageRuntime) {}

  async canActivate(): Promise<boolean> {
    await this.storage.readYourWrites(this.log);
    return true;
  }
}

/** APL: every event acknowledged before the query is in its answer. */
@Injectable()
export class EventsReadYourWrites extends ReadYourWritesGuard {
  protected readonly log = 'events' as const;
}

/** MPL and the metrics info endpoints: every point acknowledged before the request is seen. */
@Injectable()
export class MetricsReadYourWrites extends ReadYourWritesGuard {
  protected readonly log = 'metrics' as const;
}
