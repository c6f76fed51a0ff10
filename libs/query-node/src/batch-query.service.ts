import { Inject, Injectable, Logger } from '@nestjs/common';
import { forbidden, isQuarryError } from '@quarry/common';
import { STATUS_OF_KIND, type ErrorBody } from '@quarry/nest-kit';
import { type Principal, type StorageRuntime, STORAGE_RUNTIME } from '@quarry/server';
import { type BatchItem, type BatchRequest } from './batch-request';
import { MplQueryService } from './mpl-query.service';
import { QueryService } from './query.service';

/** What one query of a batch answered: its result (`data`) or its error, never both. */
export type BatchOutcome =
  | { queryId: string; kind: 'apl' | 'mpl'; data: unknown }
  | { queryId: string; kind: 'apl' | 'mpl'; error: ErrorBody };

/**
 * `POST /v1/query/batch`: runs each APL or MPL query of a batch exactly as `/v1/query/_apl` (tabular) or
 * `/v1/query/_mpl` (metrics-v2) would, at most `maxConcurrency` at a time, and hands each outcome over as
 * soon as it is known. A query that fails is that query's outcome; the others still run.
 */
@Injectable()
export class BatchQueryService {
  private readonly logger = new Logger('batch-query');

  constructor(
    @Inject(STORAGE_RUNTIME) private readonly storage: StorageRuntime,
    private readonly apl: QueryService,
    private readonly mpl: MplQueryService,
  ) {}

  /**
   * Refuses the whole batch for a token that may query no dataset at all (no query of it could
   * succeed); narrower grants are checked per query, each refusal being that query's 403.
   */
  authorize(principal: Principal): void {
    const any = Object.values(principal.datasetCapabilities).some((c) => (c?.query ?? []).includes('read'));
    if (!any) {
      throw forbidden('this token lacks the query|read capability on every dataset', {
        code: 'auth_forbidden',
      });
    }
  }

  async run(
    batch: BatchRequest,
    principal: Principal,
    emit: (outcome: BatchOutcome) => void,
    signal: AbortSignal,
  ): Promise<void> {
    // Read-your-writes once for the whole batch (cluster shape; a no-op embedded).
    if (batch.items.some((i) => i.kind === 'apl')) await this.storage.readYourWrites('events');
    if (batch.items.some((i) => i.kind === 'mpl')) await this.storage.readYourWrites('metrics');
    let next = 0;
    const worker = async () => {
      while (next < batch.items.length && !signal.aborted) {
        const item = batch.items[next++];
        emit(await this.runOne(item, principal, signal));
      }
    };
    await Promise.all(Array.from({ length: Math.min(batch.maxConcurrency, batch.items.length) }, worker));
  }

  private async runOne(item: BatchItem, principal: Principal, signal: AbortSignal): Promise<BatchOutcome> {
    const { queryId, kind } = item;
    if (item.problem) {
      return {
        queryId,
        kind,
        error: { code: 400, message: `query "${queryId}": ${item.problem}`, error: 'batch_item_invalid' },
      };
    }
    try {
      const data =
        kind === 'apl'
          ? await this.apl.query(item.request, 'tabular', principal, undefined, { signal })
          : await this.mpl.query(item.request, {}, 'metrics-v2', principal, signal);
      return { queryId, kind, data };
    } catch (err) {
      return { queryId, kind, error: this.errorBodyOf(err) };
    }
  }

  /** The body `/v1/query/_apl` would have answered this error with (QuarryErrorFilter's shape). */
  private errorBodyOf(err: unknown): ErrorBody {
    if (!isQuarryError(err)) {
      this.logger.error(`batch query failed: ${(err as Error)?.stack ?? String(err)}`);
      return { code: 500, message: 'internal error; the server log has the details' };
    }
    const body: ErrorBody = { code: STATUS_OF_KIND[err.kind], message: err.message, error: err.code };
    if (err.span || err.details) {
      body.detail = {
        ...(err.details ?? {}),
        ...(err.span ? { line: err.span.line, column: err.span.column } : {}),
      };
    }
    return body;
  }
}
