import * as os from 'node:os';
import * as path from 'node:path';
import { z } from 'zod';
import { invalid } from '@quarry/common';

/**
 * Configuration comes from environment variables only, parsed once at start. Each variable has its
 * default and help text next to it, and validation reports every bad variable at once.
 */
const ROLES = ['ingest', 'query', 'compactor', 'management'] as const;
export type Role = (typeof ROLES)[number];

const MiB = 1024 * 1024;

/** A quarter of the machine's memory, kept between 256 MiB and 4 GiB. */
function defaultColumnCacheBytes(): number {
  return Math.min(4096 * MiB, Math.max(256 * MiB, Math.floor(os.totalmem() / 4)));
}

const booleanVar = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const int = (min: number, max: number) =>
  z.coerce.number().int(`must be an integer`).min(min, `must be >= ${min}`).max(max, `must be <= ${max}`);

/** A region (edge deployment) name: also part of a PostgreSQL schema name, so kept plain. */
const regionName = z
  .string()
  .regex(
    /^[a-z0-9][a-z0-9.-]{0,39}$/,
    'must be 1-40 lowercase letters, digits, dots and dashes (such as eu-central-1 or cloud.eu-central-1.aws)',
  );

export const CONFIG_VARIABLES = {
  PORT: { schema: int(0, 65535), default: '8080', help: 'HTTP port to listen on.' },
  HOST: { schema: z.string().min(1), default: '0.0.0.0', help: 'Interface to listen on.' },
  QUARRY_OTLP_GRPC_PORT: {
    schema: int(0, 65535).optional(),
    default: undefined,
    help: 'Ingest role: also take OTLP/gRPC exports (traces, logs, metrics) on this port (0 = any free one); unset = OTLP over HTTP only.',
  },
  QUARRY_DATA_DIR: {
    schema: z.string().min(1),
    default: './data',
    help: 'Directory for the ingest log, blocks and the embedded metastore.',
  },
  QUARRY_METASTORE_URL: {
    schema: z
      .string()
      .regex(/^postgres(ql)?:\/\/\S+$/, 'must be a postgres://user:password@host:port/database URL')
      .optional(),
    default: undefined,
    help: 'PostgreSQL server for the metastore (cluster); unset = embedded PGlite in QUARRY_DATA_DIR/meta.',
  },
  QUARRY_ROLES: {
    schema: z
      .string()
      .transform((s) =>
        s
          .split(',')
          .map((r) => r.trim())
          .filter(Boolean),
      )
      .pipe(z.array(z.enum(ROLES)).min(1, 'name at least one role')),
    default: ROLES.join(','),
    help: `Comma-separated roles this process runs (${ROLES.join(', ')}); the standalone server runs all.`,
  },
  QUARRY_BOOTSTRAP_TOKEN: {
    schema: z
      .string()
      .regex(/^xaat-[A-Za-z0-9-]{8,200}$/, 'must look like xaat-<8 to 200 letters, digits or dashes>')
      .optional(),
    default: undefined,
    help: 'Makes the bootstrap admin API token this known value (for scripts and CI).',
  },
  QUARRY_BOOTSTRAP_PAT: {
    schema: z
      .string()
      .regex(/^xapt-[A-Za-z0-9-]{8,200}$/, 'must look like xapt-<8 to 200 letters, digits or dashes>')
      .optional(),
    default: undefined,
    help: 'Makes the bootstrap personal access token this known value.',
  },
  QUARRY_MAX_BODY_BYTES: {
    schema: int(1024, 1024 * MiB),
    default: String(64 * MiB),
    help: 'Largest request body accepted on the wire (compressed), in bytes; larger gets 413.',
  },
  QUARRY_COMPACT_INTERVAL_MS: {
    schema: int(50, 3_600_000),
    default: '2000',
    help: 'How often the compactor turns the log tail into blocks, in milliseconds.',
  },
  QUARRY_COMPACT_MAX_TAIL_ROWS: {
    schema: int(1, 100_000_000),
    default: '200000',
    help: 'Compact early once this many un-compacted rows are buffered.',
  },
  QUARRY_COMPACT_DEFER_TAIL_BYTES: {
    schema: int(0, 1024 * 1024 * MiB),
    default: String(256 * MiB),
    help: 'Ingest parsing goes before compaction and merging on the CPU workers until the un-compacted records in memory pass this many bytes (encoded); then compaction goes first until it catches up. 0: no priority (first come, first served). Standalone only.',
  },

  QUARRY_GEOIP_DATABASE: {
    schema: z.string().min(1).optional(),
    default: undefined,
    help: 'Path of a MaxMind City database (GeoLite2-City.mmdb or GeoIP2-City) for geo_info_from_ip_address, read once per query thread on first use; unset: that function answers 400 and says so.',
  },

  QUARRY_QUERY_DEFAULT_LIMIT: {
    schema: int(1, 1_000_000),
    default: '1000',
    help: 'Rows returned by a raw-event query that sets no limit of its own.',
  },
  QUARRY_QUERY_MAX_GROUPS: {
    schema: int(1, 1_000_000_000),
    default: '1000000',
    help: 'Groups one summarize may produce; more fails the query with 400 (bounds query memory).',
  },
  QUARRY_QUERY_MAX_HELD_ROWS: {
    schema: int(1, 2_000_000_000),
    default: '20000000',
    help: 'Rows one query may hold at once in sorts, join build sides and results; more fails with 400.',
  },
  QUARRY_COLUMN_CACHE_BYTES: {
    schema: int(0, 1024 * 1024 * MiB),
    default: String(defaultColumnCacheBytes()),
    help: 'Memory for decoded block columns shared by queries (estimated bytes; default a quarter of RAM, 256 MiB to 4 GiB); 0 disables it.',
  },
  QUARRY_FILE_CACHE_BYTES: {
    schema: int(0, 64 * 1024 * MiB),
    default: String(32 * MiB),
    help: 'Memory for raw block files kept between queries (half for the main thread, half shared by the query workers when there are any); the OS page cache holds local files anyway. 0 disables it.',
  },
  QUARRY_MERGE_INTERVAL_MS: {
    schema: int(100, 3_600_000),
    default: '30000',
    help: 'How often the compactor merges runs of small blocks into large ones, in milliseconds.',
  },
  QUARRY_RETENTION_INTERVAL_MS: {
    schema: int(100, 86_400_000),
    default: '600000',
    help: "How often the compactor drops the blocks of datasets with retentionDays > 0 whose newest event is older than the dataset's retention, in milliseconds.",
  },
  QUARRY_BLOCK_SPAN_MS: {
    schema: int(60_000, 31 * 86_400_000),
    default: '3600000',
    help: 'Blocks hold events of one such time span (aligned to the epoch) when there are enough of them, so a query over a short window reads few blocks.',
  },
  QUARRY_METRICS_MAX_BODY_BYTES: {
    schema: int(1024, 1024 * MiB),
    default: String(4 * MiB),
    help: 'Largest OTLP metrics body after decompression (POST /v1/metrics), in bytes; larger gets 413.',
  },
  QUARRY_METRICS_COMPACT_INTERVAL_MS: {
    schema: int(50, 3_600_000),
    default: '5000',
    help: 'How often the metrics compactor turns logged points into blocks, in milliseconds.',
  },
  QUARRY_METRICS_MAX_QUERY_POINTS: {
    schema: int(1000, 1_000_000_000),
    default: '20000000',
    help: 'Points one MPL query may read; a query reading more fails with 400 (bounds query memory).',
  },
  QUARRY_WORKER_THREADS: {
    schema: int(0, 256),
    default: String(Math.min(8, os.availableParallelism())),
    help: 'Worker threads for parsing ingest bodies and building blocks (default: the CPU count, at most 8); 0 runs that work on the main thread.',
  },
  QUARRY_QUERY_WORKERS: {
    schema: int(0, 256),
    default: String(Math.min(8, os.availableParallelism())),
    help: 'Worker threads that scan blocks for large summarizes in parallel (default: the CPU count, at most 8); 0 scans on the main thread only.',
  },
  QUARRY_QUERY_WORKER_HEAP_MB: {
    schema: int(64, 1_048_576),
    default: String(Math.max(512, Math.min(8192, Math.floor(os.totalmem() / MiB / 4)))),
    help: 'Heap limit of each query worker thread, in MiB (default a quarter of RAM, 512 to 8192); a query part that outgrows it fails with 400 instead of exhausting the process.',
  },
  QUARRY_QUERY_SPLIT_MIN_ROWS: {
    schema: int(1, 2_000_000_000),
    // Below ~250k rows a summarize takes a few milliseconds here, about what the round trip costs.
    default: '250000',
    help: 'A summarize is split across the query workers (and, in a cluster, the live query nodes) when the blocks it scans hold at least this many rows.',
  },
  QUARRY_MPL_SPLIT_MIN_SERIES: {
    schema: int(1, 1_000_000_000),
    // A metric with a few series answers in a few milliseconds on one node: not worth the round trips.
    default: '64',
    help: 'In a cluster, an MPL query is split over series across the live query nodes when the metric it reads has at least this many series.',
  },
  QUARRY_METRICS_MAX_QUERY_SERIES: {
    schema: int(1, 100_000_000),
    default: '10000',
    help: 'Series one MPL source may select after its filters; more fails the query with 400.',
  },
  QUARRY_METRICS_MAX_QUERY_CELLS: {
    schema: int(1000, 2_000_000_000),
    default: '20000000',
    help: 'Grid slots (series x windows) one MPL stage may hold; more fails the query with 400 (bounds query memory).',
  },
  QUARRY_KAFKA_BROKERS: {
    schema: z
      .string()
      .transform((s) =>
        s
          .split(',')
          .map((b) => b.trim())
          .filter(Boolean),
      )
      .pipe(
        z
          .array(z.string().regex(/^[^\s:/]+:\d{1,5}$/, 'each broker must be host:port'))
          .min(1, 'name at least one broker'),
      )
      .optional(),
    default: undefined,
    help: 'Kafka bootstrap brokers (host:port,...). Set, with QUARRY_S3_BUCKET and QUARRY_METASTORE_URL, for the cluster shape: the ingest log is then a Kafka topic.',
  },
  QUARRY_KAFKA_TOPIC: {
    schema: z.string().regex(/^[A-Za-z0-9._-]{1,249}$/, 'must be a Kafka topic name'),
    default: 'quarry-ingest',
    help: 'Topic of the events ingest log (created by the operator beforehand, with as many partitions as compactors should share).',
  },
  QUARRY_KAFKA_METRICS_TOPIC: {
    schema: z.string().regex(/^[A-Za-z0-9._-]{1,249}$/, 'must be a Kafka topic name'),
    default: 'quarry-metrics',
    help: 'Topic of the metrics ingest log; only its partition 0 is used (points keep one order).',
  },
  QUARRY_KAFKA_CLIENT_ID: {
    schema: z.string().min(1),
    default: 'quarry',
    help: 'Kafka client id (shows in broker logs and quotas).',
  },
  QUARRY_KAFKA_COMPACTOR_GROUP: {
    schema: z.string().min(1),
    default: 'quarry-compactor',
    help: "Prefix of the compactor nodes' consumer groups (one per node and topic; the nodes split the partitions through leases in the metastore).",
  },
  QUARRY_COMPACTOR_LEASE_MS: {
    schema: int(1_000, 300_000),
    default: '10000',
    help: "Cluster: how long a compactor's partition leases last without renewal: a dead compactor's partitions move to the others after at most this long.",
  },
  QUARRY_KAFKA_SSL: {
    schema: booleanVar,
    default: 'false',
    help: 'Connect to the brokers over TLS.',
  },
  QUARRY_KAFKA_SSL_CA_FILE: {
    schema: z.string().min(1).optional(),
    default: undefined,
    help: "PEM file of the CA that signed the brokers' certificates (default: the system CAs).",
  },
  QUARRY_KAFKA_SSL_REJECT_UNAUTHORIZED: {
    schema: booleanVar,
    default: 'true',
    help: 'Refuse brokers whose certificate does not verify.',
  },
  QUARRY_KAFKA_SASL_MECHANISM: {
    schema: z.enum(['plain', 'scram-sha-256', 'scram-sha-512']).optional(),
    default: undefined,
    help: 'SASL mechanism (plain, scram-sha-256, scram-sha-512); unset = no SASL.',
  },
  QUARRY_KAFKA_SASL_USERNAME: { schema: z.string().optional(), default: undefined, help: 'SASL user name.' },
  QUARRY_KAFKA_SASL_PASSWORD: { schema: z.string().optional(), default: undefined, help: 'SASL password.' },
  QUARRY_KAFKA_MAX_MESSAGE_BYTES: {
    schema: int(16 * 1024, 1024 * MiB),
    default: '1000000',
    help: "The brokers' record-batch limit (message.max.bytes): larger ingest batches are split into records under it.",
  },
  QUARRY_KAFKA_SESSION_TIMEOUT_MS: {
    schema: int(3_000, 300_000),
    default: '10000',
    help: "Consumer session timeout: how long a silent compactor keeps its partitions before the group's other members take them over.",
  },
  QUARRY_KAFKA_BUFFER_BYTES: {
    schema: int(1024 * 1024, 64 * 1024 * MiB),
    default: String(16 * MiB),
    help: 'Fetched log bytes a compactor or query node holds per partition before it stops fetching that partition (Kafka keeps the rest).',
  },
  QUARRY_KAFKA_LOG_LEVEL: {
    schema: z.enum(['nothing', 'error', 'warn', 'info', 'debug']),
    default: 'warn',
    help: 'Log level of the Kafka client (kafkajs) and of the Kafka log adapter.',
  },
  QUARRY_S3_ENDPOINT: {
    schema: z.string().url('must be a URL such as http://127.0.0.1:9000').optional(),
    default: undefined,
    help: 'S3 endpoint URL (MinIO, Ceph, ...); unset = AWS S3 in QUARRY_S3_REGION.',
  },
  QUARRY_S3_BUCKET: {
    schema: z
      .string()
      .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be an S3 bucket name')
      .optional(),
    default: undefined,
    help: 'Bucket for blocks (cluster shape). Credentials come from the AWS SDK default chain (AWS_ACCESS_KEY_ID, ...).',
  },
  QUARRY_S3_PREFIX: {
    schema: z.string().regex(/^([^/\\][^\\]*)?$/, 'must be a relative key prefix such as quarry/eu-1/'),
    default: '',
    help: 'Key prefix inside the bucket (one bucket can hold several clusters).',
  },
  QUARRY_S3_REGION: { schema: z.string().min(1), default: 'us-east-1', help: 'S3 region.' },
  QUARRY_S3_FORCE_PATH_STYLE: {
    schema: booleanVar,
    default: 'false',
    help: 'Path-style bucket addressing (MinIO, Ceph radosgw and most S3-compatible stores need it).',
  },
  QUARRY_S3_MAX_SOCKETS: {
    schema: int(1, 4096),
    default: '64',
    help: 'Most connections open to S3 at once per process.',
  },
  QUARRY_S3_CREATE_BUCKET: {
    schema: booleanVar,
    default: 'false',
    help: 'Create the bucket at start when it is missing (development clusters).',
  },
  QUARRY_OBJECT_CACHE_BYTES: {
    schema: int(0, 1024 * 1024 * MiB),
    default: String(1024 * MiB),
    help: 'Query nodes: block bytes fetched from S3 (footers, column chunks) kept on local disk under QUARRY_DATA_DIR/object-cache; 0 disables it.',
  },
  QUARRY_AUTH_CACHE_MS: {
    schema: int(0, 60_000),
    default: '3000',
    help: 'How long a resolved token is trusted before it is looked up again: a deleted token stops working on every node within this bound.',
  },
  QUARRY_CATALOG_REFRESH_MS: {
    schema: int(50, 60_000),
    default: '1000',
    help: 'Cluster: how often a node refreshes its copy of the catalog (datasets, blocks, offsets) in the background; queries and management requests also refresh first.',
  },
  QUARRY_READ_YOUR_WRITES_TIMEOUT_MS: {
    schema: int(100, 600_000),
    default: '10000',
    help: 'Cluster: how long a query waits for its node to catch up with the ingest log before it answers 503.',
  },
  QUARRY_NODE_ID: {
    schema: z
      .string()
      .regex(/^[A-Za-z0-9._:-]{1,128}$/, 'must be letters, digits, dots, dashes or colons')
      .optional(),
    default: undefined,
    help: 'Name of this process in the cluster (leases, logs, consumer groups); default <hostname>-<pid>.',
  },
  QUARRY_ADVERTISE_URL: {
    schema: z
      .string()
      .url('must be the URL other nodes reach this one at, such as http://10.0.0.7:8080')
      .optional(),
    default: undefined,
    help: 'Cluster: the URL other nodes reach this one at (registered in the metastore); default http://<hostname>:<PORT>.',
  },
  QUARRY_HEARTBEAT_MS: {
    schema: int(100, 60_000),
    default: '2000',
    help: 'Cluster: how often a node renews its membership; after QUARRY_MEMBER_TIMEOUT_MS without one it is out.',
  },
  QUARRY_MEMBER_TIMEOUT_MS: {
    schema: int(500, 600_000),
    default: '10000',
    help: 'Cluster: a node whose last heartbeat is older than this is out (no work is sent to it).',
  },
  QUARRY_CLUSTER_SECRET: {
    schema: z.string().min(16, 'must be at least 16 characters').optional(),
    default: undefined,
    help: 'Cluster: the secret query nodes present to one another on their internal RPC (never a user token); unset = each query runs on the node that received it.',
  },
  QUARRY_REGION: {
    schema: regionName,
    default: 'local',
    help: 'The region (edge deployment) this cluster serves: ingest and edge queries for datasets of another region are refused with 421 and where they live; the main query API forwards them there.',
  },
  QUARRY_HOME_REGION: {
    schema: regionName.optional(),
    default: undefined,
    help: "The installation's home region (default QUARRY_REGION): the organization's default edge deployment, and the region whose cluster keeps its coordination tables in PostgreSQL's public schema (every other region gets a schema of its own). Set it to the same value in every region.",
  },
  QUARRY_REGIONS: {
    schema: z
      .string()
      .transform((s, ctx) => {
        const regions: Record<string, string> = {};
        for (const entry of s
          .split(',')
          .map((e) => e.trim())
          .filter(Boolean)) {
          const at = entry.indexOf('=');
          const name = entry.slice(0, at);
          const url = entry.slice(at + 1).replace(/\/$/, '');
          if (at < 1 || !regionName.safeParse(name).success || !/^https?:\/\/[^/]+/.test(url)) {
            ctx.addIssue({
              code: 'custom',
              message: `"${entry}" is not name=url (a region name of lowercase letters, digits, dots and dashes, and an http(s) URL)`,
            });
            continue;
          }
          regions[name] = url;
        }
        return regions;
      })
      .optional(),
    default: undefined,
    help: "The installation's regions as name=url,... (url: the region's public API, its gateway): where the main query API forwards queries of other regions' datasets, and each dataset's edgeDeploymentUrl.",
  },
  QUARRY_QUERY_RPC_TIMEOUT_MS: {
    schema: int(100, 3_600_000),
    default: '60000',
    help: "Cluster: how long a query node waits for another's share of a query before it re-runs the share elsewhere.",
  },
  QUARRY_ORPHAN_MIN_AGE_MS: {
    schema: int(60_000, 30 * 86_400_000),
    default: '3600000',
    help: 'Cluster: unreferenced block objects are deleted once older than this (uploads still being registered are younger).',
  },
  QUARRY_ALERTING_ENABLED: {
    schema: booleanVar,
    default: 'true',
    help: 'Run the monitor scheduler in this process (the standalone server and management nodes; in a cluster every management node runs it and each monitor interval is claimed by exactly one).',
  },
  QUARRY_ALERTING_TICK_MS: {
    schema: int(100, 600_000),
    default: '10000',
    help: 'How often the monitor scheduler looks for monitors whose interval is due, in milliseconds.',
  },
  QUARRY_SMTP_URL: {
    schema: z
      .string()
      .regex(/^smtps?:\/\/\S+$/, 'must be smtp://[user:password@]host[:port] or smtps://...')
      .optional(),
    default: undefined,
    help: 'SMTP server email notifiers send through (smtps:// for TLS from the start; smtp:// upgrades with STARTTLS when offered, ?starttls=required|never to insist or to stay in clear text); unset = email notifiers are refused with 400.',
  },
  QUARRY_SMTP_FROM: {
    schema: z.string().regex(/^[^\s<>@]+@[^\s<>@]+$/, 'must be an email address'),
    default: 'quarry@localhost',
    help: 'Sender address of email notifications.',
  },
  QUARRY_NOTIFIER_ALLOW: {
    schema: z.string().optional(),
    default: undefined,
    help: 'Comma-separated hosts notifiers may call (CIDRs, IP addresses, host names, *.suffix patterns); unset = any host not on the deny list.',
  },
  QUARRY_NOTIFIER_DENY: {
    schema: z.string(),
    default: '169.254.0.0/16,fe80::/10,0.0.0.0/32,metadata.google.internal',
    help: 'Comma-separated hosts notifiers must never call (same forms as the allow list; checked against the resolved addresses too); the default keeps link-local and cloud metadata addresses out.',
  },
  QUARRY_NOTIFIER_TIMEOUT_MS: {
    schema: int(100, 300_000),
    default: '10000',
    help: 'Timeout of one notification request (HTTP or SMTP), in milliseconds.',
  },
  QUARRY_NOTIFIER_ATTEMPTS: {
    schema: int(1, 10),
    default: '3',
    help: 'Attempts per notification; network errors, timeouts, 429 and 5xx answers are retried with exponential backoff.',
  },
  QUARRY_NOTIFIER_BACKOFF_MS: {
    schema: int(0, 600_000),
    default: '1000',
    help: 'Wait before the first retry of a notification, doubled for each further one, in milliseconds.',
  },
  QUARRY_LOG_LEVEL: {
    schema: z.enum(['error', 'warn', 'log', 'debug', 'verbose']),
    default: 'log',
    help: 'Server log level.',
  },
} as const;

type Vars = typeof CONFIG_VARIABLES;

export interface QuarryConfig {
  port: number;
  /** OTLP/gRPC port of the ingest role (undefined = off). */
  otlpGrpcPort?: number;
  host: string;
  dataDir: string;
  /** PostgreSQL URL of the metastore; undefined = embedded PGlite under `dataDir`. */
  metastoreUrl?: string;
  roles: Role[];
  bootstrapToken?: string;
  bootstrapPat?: string;
  maxBodyBytes: number;
  compactIntervalMs: number;
  compactMaxTailRows: number;
  /** Un-compacted record bytes until which ingest parsing goes before compaction (0: no priority). */
  compactDeferTailBytes: number;
  queryDefaultLimit: number;
  queryMaxGroups: number;
  queryMaxHeldRows: number;
  columnCacheBytes: number;
  /** Raw block files cached for queries, all threads together (QUARRY_FILE_CACHE_BYTES). */
  fileCacheBytes: number;
  mergeIntervalMs: number;
  /** How often the retention sweep runs (QUARRY_RETENTION_INTERVAL_MS). */
  retentionIntervalMs: number;
  workerThreads: number;
  blockSpanMs: number;
  queryWorkers: number;
  queryWorkerHeapMb: number;
  querySplitMinRows: number;
  mplSplitMinSeries: number;
  logLevel: 'error' | 'warn' | 'log' | 'debug' | 'verbose';
  metricsMaxBodyBytes: number;
  metricsCompactIntervalMs: number;
  metricsMaxQueryPoints: number;
  metricsMaxQuerySeries: number;
  metricsMaxQueryCells: number;
  /** Where the ingest log, blocks and metadata live: embedded in `dataDir`, or Kafka + S3 + PostgreSQL. */
  shape: 'embedded' | 'cluster';
  kafka?: KafkaConfig;
  s3?: S3Config;
  objectCacheBytes: number;
  authCacheMs: number;
  catalogRefreshMs: number;
  readYourWritesTimeoutMs: number;
  compactorLeaseMs: number;
  nodeId: string;
  advertiseUrl: string;
  heartbeatMs: number;
  memberTimeoutMs: number;
  clusterSecret?: string;
  queryRpcTimeoutMs: number;
  orphanMinAgeMs: number;
  /** The region this cluster serves, the installation's home region, and every region's public URL. */
  region: string;
  homeRegion: string;
  regions: Record<string, string>;
  /** The monitor scheduler (libs/alerting). */
  alerting: { enabled: boolean; tickMs: number };
  /** Outbound notifications: SMTP for email (undefined = not configured) and the HTTP guard rails. */
  notifiers: {
    smtp?: { url: string; from: string };
    allow: string[];
    deny: string[];
    timeoutMs: number;
    attempts: number;
    backoffMs: number;
  };
}

export interface KafkaConfig {
  brokers: string[];
  topic: string;
  metricsTopic: string;
  clientId: string;
  compactorGroup: string;
  ssl: boolean;
  sslCaFile?: string;
  sslRejectUnauthorized: boolean;
  sasl?: { mechanism: 'plain' | 'scram-sha-256' | 'scram-sha-512'; username: string; password: string };
  maxMessageBytes: number;
  sessionTimeoutMs: number;
  logLevel: 'nothing' | 'error' | 'warn' | 'info' | 'debug';
  bufferBytes: number;
}

export interface S3Config {
  endpoint?: string;
  bucket: string;
  prefix: string;
  region: string;
  forcePathStyle: boolean;
  maxSockets: number;
  createBucket: boolean;
}

/** Parses the environment; throws one `invalid` error listing every problem. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): QuarryConfig {
  const values: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [name, spec] of Object.entries(CONFIG_VARIABLES) as [keyof Vars, Vars[keyof Vars]][]) {
    const raw = env[name] === undefined || env[name] === '' ? spec.default : env[name];
    if (raw === undefined) continue;
    const parsed = (spec.schema as z.ZodType).safeParse(raw);
    if (parsed.success) values[name] = parsed.data;
    else
      problems.push(
        `${name}=${JSON.stringify(raw)}: ${parsed.error.issues.map((i) => i.message).join('; ')}`,
      );
  }
  const kafka = kafkaConfig(values, problems);
  const s3 = s3Config(values);
  const clusterParts = {
    QUARRY_KAFKA_BROKERS: kafka,
    QUARRY_S3_BUCKET: s3,
    QUARRY_METASTORE_URL: values.QUARRY_METASTORE_URL,
  };
  const given = Object.entries(clusterParts).filter(([, v]) => v !== undefined);
  if ((kafka !== undefined || s3 !== undefined) && given.length < 3) {
    const missing = Object.entries(clusterParts)
      .filter(([, v]) => v === undefined)
      .map(([name]) => name);
    problems.push(
      `the cluster shape needs Kafka, S3 and PostgreSQL together: set ${missing.join(' and ')} as well (or unset ${given
        .map(([name]) => name)
        .filter((n) => n !== 'QUARRY_METASTORE_URL')
        .join(' and ')} for the embedded shape)`,
    );
  }
  if (problems.length > 0) {
    throw invalid(`invalid configuration:\n  ${problems.join('\n  ')}`, { code: 'config_invalid' });
  }
  return {
    shape: kafka !== undefined ? 'cluster' : 'embedded',
    kafka,
    s3,
    objectCacheBytes: values.QUARRY_OBJECT_CACHE_BYTES as number,
    authCacheMs: values.QUARRY_AUTH_CACHE_MS as number,
    catalogRefreshMs: values.QUARRY_CATALOG_REFRESH_MS as number,
    readYourWritesTimeoutMs: values.QUARRY_READ_YOUR_WRITES_TIMEOUT_MS as number,
    compactorLeaseMs: values.QUARRY_COMPACTOR_LEASE_MS as number,
    advertiseUrl:
      (values.QUARRY_ADVERTISE_URL as string | undefined)?.replace(/\/$/, '') ??
      `http://${os.hostname()}:${values.PORT as number}`,
    heartbeatMs: values.QUARRY_HEARTBEAT_MS as number,
    memberTimeoutMs: values.QUARRY_MEMBER_TIMEOUT_MS as number,
    clusterSecret: values.QUARRY_CLUSTER_SECRET as string | undefined,
    queryRpcTimeoutMs: values.QUARRY_QUERY_RPC_TIMEOUT_MS as number,
    region: values.QUARRY_REGION as string,
    homeRegion: (values.QUARRY_HOME_REGION as string | undefined) ?? (values.QUARRY_REGION as string),
    regions: (values.QUARRY_REGIONS as Record<string, string> | undefined) ?? {},
    alerting: {
      enabled: values.QUARRY_ALERTING_ENABLED as boolean,
      tickMs: values.QUARRY_ALERTING_TICK_MS as number,
    },
    notifiers: {
      smtp:
        values.QUARRY_SMTP_URL === undefined
          ? undefined
          : { url: values.QUARRY_SMTP_URL as string, from: values.QUARRY_SMTP_FROM as string },
      allow: listOf((values.QUARRY_NOTIFIER_ALLOW as string | undefined) ?? ''),
      deny: listOf(values.QUARRY_NOTIFIER_DENY as string),
      timeoutMs: values.QUARRY_NOTIFIER_TIMEOUT_MS as number,
      attempts: values.QUARRY_NOTIFIER_ATTEMPTS as number,
      backoffMs: values.QUARRY_NOTIFIER_BACKOFF_MS as number,
    },
    nodeId: (values.QUARRY_NODE_ID as string | undefined) ?? `${os.hostname()}-${process.pid}`,
    orphanMinAgeMs: values.QUARRY_ORPHAN_MIN_AGE_MS as number,
    port: values.PORT as number,
    otlpGrpcPort: values.QUARRY_OTLP_GRPC_PORT as number | undefined,
    host: values.HOST as string,
    dataDir: path.resolve(values.QUARRY_DATA_DIR as string),
    metastoreUrl: values.QUARRY_METASTORE_URL as string | undefined,
    roles: values.QUARRY_ROLES as Role[],
    bootstrapToken: values.QUARRY_BOOTSTRAP_TOKEN as string | undefined,
    bootstrapPat: values.QUARRY_BOOTSTRAP_PAT as string | undefined,
    maxBodyBytes: values.QUARRY_MAX_BODY_BYTES as number,
    compactIntervalMs: values.QUARRY_COMPACT_INTERVAL_MS as number,
    compactMaxTailRows: values.QUARRY_COMPACT_MAX_TAIL_ROWS as number,
    compactDeferTailBytes: values.QUARRY_COMPACT_DEFER_TAIL_BYTES as number,
    queryDefaultLimit: values.QUARRY_QUERY_DEFAULT_LIMIT as number,
    queryMaxGroups: values.QUARRY_QUERY_MAX_GROUPS as number,
    queryMaxHeldRows: values.QUARRY_QUERY_MAX_HELD_ROWS as number,
    columnCacheBytes: values.QUARRY_COLUMN_CACHE_BYTES as number,
    fileCacheBytes: values.QUARRY_FILE_CACHE_BYTES as number,
    mergeIntervalMs: values.QUARRY_MERGE_INTERVAL_MS as number,
    retentionIntervalMs: values.QUARRY_RETENTION_INTERVAL_MS as number,
    workerThreads: values.QUARRY_WORKER_THREADS as number,
    blockSpanMs: values.QUARRY_BLOCK_SPAN_MS as number,
    queryWorkers: values.QUARRY_QUERY_WORKERS as number,
    queryWorkerHeapMb: values.QUARRY_QUERY_WORKER_HEAP_MB as number,
    querySplitMinRows: values.QUARRY_QUERY_SPLIT_MIN_ROWS as number,
    mplSplitMinSeries: values.QUARRY_MPL_SPLIT_MIN_SERIES as number,
    logLevel: values.QUARRY_LOG_LEVEL as QuarryConfig['logLevel'],
    metricsMaxBodyBytes: values.QUARRY_METRICS_MAX_BODY_BYTES as number,
    metricsCompactIntervalMs: values.QUARRY_METRICS_COMPACT_INTERVAL_MS as number,
    metricsMaxQueryPoints: values.QUARRY_METRICS_MAX_QUERY_POINTS as number,
    metricsMaxQuerySeries: values.QUARRY_METRICS_MAX_QUERY_SERIES as number,
    metricsMaxQueryCells: values.QUARRY_METRICS_MAX_QUERY_CELLS as number,
  };
}

function listOf(text: string): string[] {
  return text
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
}

function kafkaConfig(values: Record<string, unknown>, problems: string[]): KafkaConfig | undefined {
  const brokers = values.QUARRY_KAFKA_BROKERS as string[] | undefined;
  if (brokers === undefined) return undefined;
  const mechanism = values.QUARRY_KAFKA_SASL_MECHANISM as
    NonNullable<KafkaConfig['sasl']>['mechanism'] | undefined;
  const username = values.QUARRY_KAFKA_SASL_USERNAME as string | undefined;
  const password = values.QUARRY_KAFKA_SASL_PASSWORD as string | undefined;
  if (mechanism !== undefined && (!username || password === undefined)) {
    problems.push(
      'QUARRY_KAFKA_SASL_MECHANISM needs QUARRY_KAFKA_SASL_USERNAME and QUARRY_KAFKA_SASL_PASSWORD',
    );
  }
  if (values.QUARRY_KAFKA_TOPIC === values.QUARRY_KAFKA_METRICS_TOPIC) {
    problems.push('QUARRY_KAFKA_TOPIC and QUARRY_KAFKA_METRICS_TOPIC must name two different topics');
  }
  return {
    brokers,
    topic: values.QUARRY_KAFKA_TOPIC as string,
    metricsTopic: values.QUARRY_KAFKA_METRICS_TOPIC as string,
    clientId: values.QUARRY_KAFKA_CLIENT_ID as string,
    compactorGroup: values.QUARRY_KAFKA_COMPACTOR_GROUP as string,
    ssl: values.QUARRY_KAFKA_SSL as boolean,
    sslCaFile: values.QUARRY_KAFKA_SSL_CA_FILE as string | undefined,
    sslRejectUnauthorized: values.QUARRY_KAFKA_SSL_REJECT_UNAUTHORIZED as boolean,
    sasl:
      mechanism !== undefined && username && password !== undefined
        ? { mechanism, username, password }
        : undefined,
    maxMessageBytes: values.QUARRY_KAFKA_MAX_MESSAGE_BYTES as number,
    sessionTimeoutMs: values.QUARRY_KAFKA_SESSION_TIMEOUT_MS as number,
    logLevel: values.QUARRY_KAFKA_LOG_LEVEL as KafkaConfig['logLevel'],
    bufferBytes: values.QUARRY_KAFKA_BUFFER_BYTES as number,
  };
}

function s3Config(values: Record<string, unknown>): S3Config | undefined {
  const bucket = values.QUARRY_S3_BUCKET as string | undefined;
  if (bucket === undefined) return undefined;
  const prefix = values.QUARRY_S3_PREFIX as string;
  return {
    endpoint: values.QUARRY_S3_ENDPOINT as string | undefined,
    bucket,
    prefix: prefix === '' || prefix.endsWith('/') ? prefix : `${prefix}/`,
    region: values.QUARRY_S3_REGION as string,
    forcePathStyle: values.QUARRY_S3_FORCE_PATH_STYLE as boolean,
    maxSockets: values.QUARRY_S3_MAX_SOCKETS as number,
    createBucket: values.QUARRY_S3_CREATE_BUCKET as boolean,
  };
}

/** Help text for `--help` and docs: every variable with its default. */
export function configHelp(): string {
  return Object.entries(CONFIG_VARIABLES)
    .map(
      ([name, spec]) =>
        `  ${name}${spec.default !== undefined ? ` (default ${spec.default})` : ''}\n      ${spec.help}`,
    )
    .join('\n');
}
