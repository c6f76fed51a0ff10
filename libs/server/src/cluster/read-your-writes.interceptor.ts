import {
  Inject,
  Injectable,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { from, switchMap, type Observable } from 'rxjs';
import type { StorageRuntime } from '../storage/storage-runtime';
import { STORAGE_RUNTIME } from '../storage/tokens';

/**
 * Read-your-writes for the routes of a query node: before the handler runs, the node's tail catches up
 * with the log's end (cluster shape; a no-op for the embedded one). Runs after the auth guard, so an
 * unauthenticated request never costs a round trip to the brokers.
 */
abstract class ReadYourWritesInterceptor implements NestInterceptor {
  protected abstract readonly log: 'events' | 'metrics';

  constructor(@Inject(STORAGE_RUNTIME) private readonly storage: StorageRuntime) {}

  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return from(this.storage.readYourWrites(this.log)).pipe(switchMap(() => next.handle()));
  }
}

/** APL: every event acknowledged before the query is in its answer. */
@Injectable()
export class EventsReadYourWrites extends ReadYourWritesInterceptor {
  protected readonly log = 'events' as const;
}

/** MPL and the metrics info endpoints: every point acknowledged before the request is seen. */
@Injectable()
export class MetricsReadYourWrites extends ReadYourWritesInterceptor {
  protected readonly log = 'metrics' as const;
}
