import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Admission } from '@quarry/nest-kit';
import type { StorageRuntime } from '../storage/storage-runtime';
import type { ThreadMemory } from '../workers/thread-memory';

/**
 * Prometheus metrics of one Quarry process, in a registry of its own (tests run several servers in one
 * process). Counters are updated by the services; storage gauges are read when scraped.
 */
export class QuarryMetrics {
  readonly registry = new Registry();

  readonly ingestRequests = new Counter({
    name: 'quarry_ingest_requests_total',
    help: 'Ingest requests by outcome (ok or the error kind).',
    labelNames: ['outcome'],
    registers: [this.registry],
  });
  readonly ingestEvents = new Counter({
    name: 'quarry_ingest_events_total',
    help: 'Events received by ingest, by result (ingested or failed).',
    labelNames: ['result'],
    registers: [this.registry],
  });
  readonly ingestBytes = new Counter({
    name: 'quarry_ingest_processed_bytes_total',
    help: 'Uncompressed request bytes processed by ingest.',
    registers: [this.registry],
  });
  readonly queryRequests = new Counter({
    name: 'quarry_query_requests_total',
    help: 'APL queries by outcome (ok or the error kind).',
    labelNames: ['outcome'],
    registers: [this.registry],
  });
  readonly queryDuration = new Histogram({
    name: 'quarry_query_duration_seconds',
    help: 'Wall time of successful APL queries.',
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });
  readonly metricPoints = new Counter({
    name: 'quarry_metrics_points_total',
    help: 'OTLP metric data points received, by result (ingested or rejected).',
    labelNames: ['result'],
    registers: [this.registry],
  });
  readonly sharesServed = new Counter({
    name: 'quarry_distributed_shares_served_total',
    help: 'Shares of distributed summarizes computed for other query nodes, by outcome (ok, aborted when the coordinator went away, or the error kind).',
    labelNames: ['outcome'],
    registers: [this.registry],
  });
  readonly rowsExamined = new Counter({
    name: 'quarry_query_rows_examined_total',
    help: 'Rows examined by queries.',
    registers: [this.registry],
  });

  readonly monitorRuns = new Counter({
    name: 'quarry_monitor_runs_total',
    help: 'Monitor evaluations run by this node, by monitor type and outcome (ok or failed).',
    labelNames: ['type', 'outcome'],
    registers: [this.registry],
  });
  readonly notificationDeliveries = new Counter({
    name: 'quarry_notification_deliveries_total',
    help: 'Alert notifications sent by this node, by notifier channel and outcome (delivered, failed after retries, refused).',
    labelNames: ['channel', 'outcome'],
    registers: [this.registry],
  });

  readonly admissionRejections = new Counter({
    name: 'quarry_admission_rejections_total',
    help: 'Requests refused before they were applied, by reason (ingest_inflight_bytes, query_queue_full, query_queue_timeout: 503; rate_limit, ingest_quota: 429).',
    labelNames: ['reason'],
    registers: [this.registry],
  });

  /**
   * Event-loop delay since the previous scrape (perf_hooks.monitorEventLoopDelay, 10 ms resolution): a
   * busy loop delays every request on the node, so this is the first thing to read when latency climbs.
   */
  private readonly loopDelay: IntervalHistogram = monitorEventLoopDelay({ resolution: 10 });

  constructor(storage: StorageRuntime, admission?: Admission) {
    collectDefaultMetrics({ register: this.registry, prefix: 'quarry_process_' });
    this.loopDelay.enable();
    const loopDelay = this.loopDelay;
    new Gauge({
      name: 'quarry_event_loop_lag_seconds',
      help: 'Event-loop delay over the interval since the previous scrape, by quantile (0.5, 0.99, 1 = max).',
      labelNames: ['quantile'],
      registers: [this.registry],
      collect() {
        // An empty interval reports NaN/huge sentinel values: report 0 instead.
        const seconds = (ns: number) => (Number.isFinite(ns) && loopDelay.count > 0 ? ns / 1e9 : 0);
        this.set({ quantile: '0.5' }, seconds(loopDelay.percentile(50)));
        this.set({ quantile: '0.99' }, seconds(loopDelay.percentile(99)));
        this.set({ quantile: '1' }, seconds(loopDelay.max));
        loopDelay.reset();
      },
    });
    if (admission) {
      admission.onRejected = (reason) => this.admissionRejections.inc({ reason });
      const admissionGauge = (name: string, help: string, read: () => number) =>
        new Gauge({
          name,
          help,
          registers: [this.registry],
          collect() {
            this.set(read());
          },
        });
      admissionGauge(
        'quarry_ingest_inflight_bytes',
        'Request body bytes ingest holds right now (bounded by QUARRY_INGEST_MAX_INFLIGHT_BYTES).',
        () => admission.ingestInflightBytes,
      );
      admissionGauge(
        'quarry_queries_running',
        'Queries running right now (bounded by QUARRY_QUERY_MAX_CONCURRENT).',
        () => admission.queriesRunning,
      );
      admissionGauge(
        'quarry_queries_queued',
        'Queries waiting for a slot (bounded by QUARRY_QUERY_MAX_QUEUED).',
        () => admission.queriesQueued,
      );
      registerLimitsSyncMetrics(this.registry, admission);
    }
    const gauge = (name: string, help: string, read: () => number) =>
      new Gauge({
        name,
        help,
        registers: [this.registry],
        collect() {
          this.set(read());
        },
      });
    gauge('quarry_tail_rows', 'Acknowledged rows not yet compacted into blocks.', () => storage.tail.rows);
    gauge(
      'quarry_log_segments',
      'Segment files of the ingest log.',
      () => storage.appendLog?.stats().segments ?? 0,
    );
    gauge('quarry_log_bytes', 'Bytes in the ingest log.', () => storage.appendLog?.stats().bytes ?? 0);
    gauge('quarry_log_failed', '1 once the ingest log failed (no more acknowledgements).', () =>
      storage.appendLog?.stats().failed ? 1 : 0,
    );
    gauge(
      'quarry_log_torn_tail_truncations',
      'Torn records truncated from the log tail at open.',
      () => storage.appendLog?.stats().tornTailTruncations ?? 0,
    );
    gauge(
      'quarry_compacted_rows',
      'Rows compacted into blocks since start.',
      () => storage.compactor?.totals.rows ?? 0,
    );
    gauge(
      'quarry_compacted_blocks',
      'Blocks written since start.',
      () => storage.compactor?.totals.blocks ?? 0,
    );
    gauge(
      'quarry_compactor_consecutive_failures',
      'Compaction attempts failed in a row (0 when healthy).',
      () => storage.compactor?.consecutiveFailures ?? 0,
    );
    gauge('quarry_blocks', 'Registered event blocks.', () => storage.blocks.totals().blocks);
    gauge('quarry_block_bytes', 'Bytes of the registered event blocks.', () => storage.blocks.totals().bytes);
    gauge('quarry_block_rows', 'Rows in the registered event blocks.', () => storage.blocks.totals().rows);
    gauge(
      'quarry_merged_blocks',
      'Blocks written by the merge loop since start.',
      () => storage.merger?.totals.merged ?? 0,
    );
    // A counter read from the sweep's own totals at scrape time (the sweep knows nothing of prom-client).
    new Counter({
      name: 'quarry_retention_blocks_deleted_total',
      help: "Blocks dropped since start because their newest event was older than their dataset's retentionDays.",
      registers: [this.registry],
      collect() {
        this.reset();
        this.inc(storage.retention?.totals.blocks ?? 0);
      },
    });
    gauge(
      'quarry_column_cache_bytes',
      'Estimated bytes of decoded columns cached for queries.',
      () => storage.catalog.cachedColumnBytes,
    );
    // Where RSS lives besides the main isolate (whose heap and external memory are the
    // quarry_process_nodejs_* metrics): each worker thread's heap and Buffers, the block-reader caches
    // of the main thread and of each query worker, PGlite's WebAssembly memory.
    new Gauge({
      name: 'quarry_thread_memory_bytes',
      help: 'Memory of the worker threads as each last reported it (every 2 s), by thread (query-N, cpu-N, metastore) and kind (heap_used, heap_total, external, array_buffers, malloced, wasm).',
      labelNames: ['thread', 'kind'],
      registers: [this.registry],
      collect() {
        this.reset();
        const threads = storage.threadMemory();
        const put = (thread: string, m: ThreadMemory) => {
          this.set({ thread, kind: 'heap_used' }, m.heapUsed);
          this.set({ thread, kind: 'heap_total' }, m.heapTotal);
          this.set({ thread, kind: 'external' }, m.external);
          this.set({ thread, kind: 'array_buffers' }, m.arrayBuffers);
          this.set({ thread, kind: 'malloced' }, m.mallocedMemory);
        };
        threads.query.forEach((m, i) => m && put(`query-${i}`, m));
        threads.cpu.forEach((m, i) => put(`cpu-${i}`, m));
        const meta = threads.metastore;
        if (meta) {
          this.set({ thread: 'metastore', kind: 'heap_used' }, meta.heapUsed);
          this.set({ thread: 'metastore', kind: 'heap_total' }, meta.heapTotal);
          this.set({ thread: 'metastore', kind: 'external' }, meta.external);
          this.set({ thread: 'metastore', kind: 'array_buffers' }, meta.arrayBuffers);
          this.set({ thread: 'metastore', kind: 'wasm' }, meta.wasmMemory);
        }
      },
    });
    new Gauge({
      name: 'quarry_cache_bytes',
      help: 'Bytes held by the block-reader caches, by thread (main, query-N) and cache (column: QUARRY_COLUMN_CACHE_BYTES; file: QUARRY_FILE_CACHE_BYTES; footer; filter).',
      labelNames: ['thread', 'cache'],
      registers: [this.registry],
      collect() {
        this.reset();
        const put = (
          thread: string,
          c: Pick<ThreadMemory, 'columnCache' | 'fileCache' | 'footerCache' | 'filterCache'>,
        ) => {
          this.set({ thread, cache: 'column' }, c.columnCache);
          this.set({ thread, cache: 'file' }, c.fileCache);
          this.set({ thread, cache: 'footer' }, c.footerCache);
          this.set({ thread, cache: 'filter' }, c.filterCache);
        };
        put('main', storage.catalog.cacheBytes);
        storage.threadMemory().query.forEach((m, i) => m && put(`query-${i}`, m));
      },
    });
    gauge(
      'quarry_query_split_summarizes',
      'Summarizes split across the query worker threads since start.',
      () => storage.querySplits,
    );
    gauge(
      'quarry_metrics_series',
      'Series in the metrics catalog.',
      () => storage.metrics.store.stats.series,
    );
    gauge(
      'quarry_metrics_blocks',
      'Registered metric point blocks (falls as the merge loop joins the blocks of a time bucket).',
      () => storage.metrics.store.stats.blocks,
    );
    gauge(
      'quarry_metrics_tail_points',
      'Acknowledged metric points not yet compacted into blocks.',
      () => storage.metrics.store.stats.tailPoints,
    );
    gauge(
      'quarry_log_appended_records',
      'Records the ingest log acknowledged since start.',
      () => storage.appendLog?.stats().appendedRecords ?? 0,
    );
    gauge(
      'quarry_compaction_conflicts',
      'Compaction steps rolled back because another compactor had committed the partition (cluster rebalances).',
      () => storage.compactor?.totals.conflicts ?? 0,
    );
    gauge(
      'quarry_log_records_lost',
      "Acknowledged log records the log's retention deleted before they were compacted (must stay 0; cluster).",
      () => storage.compactor?.totals.lostRecords ?? 0,
    );
    gauge(
      'quarry_catalog_refreshes',
      'Catalog refreshes applied since start (cluster nodes).',
      () => storage.sync?.totals.refreshes ?? 0,
    );
    gauge(
      'quarry_catalog_refresh_failures',
      'Catalog refreshes that failed since start (cluster nodes).',
      () => storage.sync?.totals.failures ?? 0,
    );
    gauge(
      'quarry_catalog_age_seconds',
      'Seconds since the last applied catalog refresh (cluster nodes; 0 for the embedded shape).',
      () =>
        storage.sync && storage.sync.totals.lastRefreshMs > 0
          ? (Date.now() - storage.sync.totals.lastRefreshMs) / 1000
          : 0,
    );
    gauge(
      'quarry_log_followed_records',
      'Log records a query node has read into its tail since start (cluster).',
      () => (storage.followers ? storage.followers.events.records + storage.followers.metrics.records : 0),
    );
    gauge(
      'quarry_distributed_queries',
      'Summarizes this query node split across the live query nodes since start (cluster).',
      () => storage.distributedTotals.splits,
    );
    gauge(
      'quarry_distributed_remote_shares',
      'Shares of split summarizes this node sent to other query nodes since start (cluster).',
      () => storage.distributedTotals.remoteShares,
    );
    gauge(
      'quarry_distributed_share_retries',
      'Shares re-run on another node after their node failed, timed out or answered garbage (cluster).',
      () => storage.distributedTotals.retries,
    );
    gauge('quarry_merge_lease_held', '1 while this compactor holds the merge lease (cluster).', () =>
      storage.holdsMergeLease ? 1 : 0,
    );
    gauge('quarry_ready', '1 when the log is replayed and the process accepts ingest.', () =>
      storage.ready ? 1 : 0,
    );
  }
}

/** The label for an outcome: `ok`, or the error kind of a QuarryError, or `internal`. */
export function outcomeOf(err: unknown): string {
  const kind = (err as { kind?: unknown })?.kind;
  return typeof kind === 'string' ? kind : 'internal';
}

/**
 * Cluster-wide limits (`ClusterCounterSync`, docs/reliability.md "Limits in a cluster"): whether this
 * node's syncs with the region's shared counters work. All 0 where the node counts alone (the standalone
 * server, every per-token limit off). Read when scraped, like the gauges above.
 */
export function registerLimitsSyncMetrics(registry: Registry, admission: Admission): void {
  new Counter({
    name: 'quarry_limits_sync_failures_total',
    help: 'Failed syncs with the shared rate-limit counters in the metastore, by operation (sync: add and read back; cleanup: delete ended windows). While syncs fail the node counts on its own (per-node limits).',
    labelNames: ['operation'],
    registers: [registry],
    collect() {
      this.reset();
      this.inc({ operation: 'sync' }, admission.limitsSync?.failed ?? 0);
      this.inc({ operation: 'cleanup' }, admission.limitsSync?.cleanupFailed ?? 0);
    },
  });
  new Gauge({
    name: 'quarry_limits_sync_age_seconds',
    help: 'Seconds since the last successful sync with the shared rate-limit counters (since start before the first); 0 where limits are not shared.',
    registers: [registry],
    collect() {
      this.set(admission.limitsSync?.ageSeconds() ?? 0);
    },
  });
  new Counter({
    name: 'quarry_limits_cleanup_deleted_rows_total',
    help: 'Rows of ended windows this node deleted from the shared rate-limit counters.',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(admission.limitsSync?.cleanupDeletedRows ?? 0);
    },
  });
}
