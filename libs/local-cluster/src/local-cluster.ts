import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { regionSchemaName } from '@quarry/metastore';
import { Client } from 'pg';
import { waitForCompaction } from './drain';
import { MockKafkaCluster } from './mock-kafka';
import { Radosgw } from './radosgw';
import { LocalPostgres } from './postgres';
import { RoleProcess, type ClusterRole } from './role-process';
import { S3Fake, type S3FakeHandle } from './s3-fake';

export const CLUSTER_ROLES = ['management', 'ingest', 'compactor', 'query', 'gateway'] as const;

export interface LocalClusterOptions {
  /** Everything lives here: each node's directory, PostgreSQL's, the S3 fake's, and `cluster.json`. */
  dataDir: string;
  /** The gateway's port (0 or unset: a free one). */
  port?: number;
  /** The admin API token to register; default: the one `cluster.json` recorded, or a new one. */
  bootstrapToken?: string;
  /** Processes per role (gateway: 1). */
  counts?: Partial<Record<ClusterRole, number>>;
  /** Extra environment for every role process (compaction intervals in tests, ...). */
  env?: Record<string, string>;
  /** External infrastructure; whatever is unset is started locally. */
  metastoreUrl?: string;
  kafkaBrokers?: string;
  s3?: { endpoint: string; bucket?: string; accessKeyId?: string; secretAccessKey?: string; region?: string };
  /**
   * Which local S3 to start when `s3` is unset: `fake` (s3rver, objects kept in `dataDir/s3`), `radosgw`
   * (Ceph, root only, ~20 s, starts empty every time), or `auto`: radosgw when installed and allowed,
   * else the fake. Default `fake`.
   */
  localS3?: 'auto' | 'fake' | 'radosgw';
  /** Partitions of the local mock Kafka's events topic. */
  eventPartitions?: number;
  /**
   * Regions: the one this cluster serves (QUARRY_REGION), the installation's home region, and every
   * region's public URL (QUARRY_REGIONS). A second region shares the first one's metastore
   * (`metastoreUrl`) and has its own Kafka and S3.
   */
  region?: string;
  homeRegion?: string;
  regions?: Record<string, string>;
  /** Copy every process's output here (the CLI passes stdout). */
  echo?: NodeJS.WritableStream;
  /** Progress lines ("starting PostgreSQL ..."). */
  progress?: (line: string) => void;
}

export interface ClusterProcessInfo {
  role: ClusterRole;
  name: string;
  pid: number | undefined;
  url: string;
}

/** `$QUARRY_DATA_DIR/cluster.json`: how to reach the cluster and what runs in it. */
export interface ClusterJson {
  gateway: string;
  token: string;
  processes: ClusterProcessInfo[];
  infrastructure: { metastore: string; kafka: string; s3: string };
}

const TOPIC = 'quarry-ingest';
const METRICS_TOPIC = 'quarry-metrics';
const BUCKET = 'quarry';

/**
 * A whole cluster on this machine: PostgreSQL, the Kafka protocol and S3 (given, or started locally:
 * the machine's PostgreSQL binaries, librdkafka's mock cluster, an S3 fake), then every role as its own
 * process, and the gateway in front. Used by `npm run cluster` and by the cluster tests.
 */
export class LocalCluster {
  private readonly nodes: RoleProcess[] = [];
  private postgres: LocalPostgres | null = null;
  private kafka: MockKafkaCluster | null = null;
  private s3Fake: S3FakeHandle | null = null;
  private radosgw: Radosgw | null = null;
  private infra = { metastore: '', kafka: '', s3: '' };
  token = '';
  /** The secret query nodes present to one another (QUARRY_CLUSTER_SECRET), new every start. */
  private readonly clusterSecret = randomUUID();

  private constructor(readonly options: LocalClusterOptions) {}

  static async start(options: LocalClusterOptions): Promise<LocalCluster> {
    const cluster = new LocalCluster({ ...options, dataDir: path.resolve(options.dataDir) });
    try {
      await cluster.startAll();
    } catch (err) {
      await cluster.stop().catch(() => undefined);
      throw err;
    }
    return cluster;
  }

  get gateway(): RoleProcess {
    return this.nodes.find((n) => n.role === 'gateway')!;
  }

  get url(): string {
    return this.gateway.url;
  }

  /** The nodes of one role, in start order. */
  nodesOf(role: ClusterRole): RoleProcess[] {
    return this.nodes.filter((n) => n.role === role);
  }

  get metastoreUrl(): string {
    return this.infra.metastore;
  }

  get kafkaBrokers(): string {
    return this.infra.kafka;
  }

  /** The local mock Kafka (fault injection in tests), when this cluster started one. */
  get mockKafka(): MockKafkaCluster | null {
    return this.kafka;
  }

  /** The local S3 fake (stop/restart in tests), when this cluster started one. */
  get s3(): S3FakeHandle | null {
    return this.s3Fake;
  }

  /** The environment every role process gets (storage locations and credentials). */
  get roleEnv(): Record<string, string> {
    return this.sharedEnv();
  }

  processes(): ClusterProcessInfo[] {
    return this.nodes.map((n) => ({ role: n.role, name: n.name, pid: n.pid, url: n.url }));
  }

  private async startAll(): Promise<void> {
    const { dataDir } = this.options;
    const say = this.options.progress ?? (() => undefined);
    fs.mkdirSync(dataDir, { recursive: true });
    this.token = this.options.bootstrapToken ?? readPreviousToken(dataDir) ?? `xaat-${randomUUID()}`;

    if (this.options.metastoreUrl) this.infra.metastore = this.options.metastoreUrl;
    else {
      say("starting PostgreSQL (the machine's binaries)");
      this.postgres = await LocalPostgres.start({ dir: path.join(dataDir, 'postgres') });
      this.infra.metastore = this.postgres.url;
    }
    const counts = { management: 1, ingest: 2, compactor: 2, query: 2, gateway: 1, ...this.options.counts };
    if (this.options.kafkaBrokers) this.infra.kafka = this.options.kafkaBrokers;
    else {
      say("starting the Kafka protocol (librdkafka's mock cluster: in memory, nothing survives a restart)");
      // The mock keeps only 5 MB per partition (librdkafka's mock deletes older records): more partitions
      // and consumers that fetch eagerly (QUARRY_KAFKA_BUFFER_BYTES below) hold what Kafka would.
      // Metrics use partition 0 only (one order of points per series).
      this.kafka = await MockKafkaCluster.start({
        brokers: 3,
        topics: [
          { name: TOPIC, partitions: this.options.eventPartitions ?? 8, replicationFactor: 3 },
          { name: METRICS_TOPIC, partitions: 1, replicationFactor: 3 },
        ],
      });
      this.infra.kafka = this.kafka.bootstrap;
      await resetLogOffsets(this.infra.metastore, this.coordinationSchema());
    }
    const localS3 = this.options.localS3 ?? 'fake';
    if (this.options.s3) this.infra.s3 = this.options.s3.endpoint;
    else if (localS3 === 'radosgw' || (localS3 === 'auto' && Radosgw.unavailableReason() === null)) {
      const why = Radosgw.unavailableReason();
      if (why !== null)
        throw new Error(
          `Ceph radosgw cannot start here (${why}): apt-get install -y radosgw ceph-mon ceph-osd, as root`,
        );
      say('starting Ceph radosgw (about 20 s; it starts empty every time)');
      this.radosgw = await Radosgw.start({ dir: path.join(dataDir, 'ceph') });
      this.infra.s3 = this.radosgw.endpoint;
      // Blocks registered against an earlier, wiped store would point at nothing: start the catalog over.
      if (this.postgres !== null) wipeCatalog(this.postgres);
    } else {
      say('starting an S3 fake (s3rver)');
      this.s3Fake = await S3Fake.start({ dir: path.join(dataDir, 's3'), buckets: [BUCKET] });
      this.infra.s3 = this.s3Fake.endpoint;
    }

    const add = (role: ClusterRole, i: number, extra: Record<string, string> = {}, port?: number) => {
      const name = `${role}-${i}`;
      const node = new RoleProcess({
        role,
        name,
        dir: path.join(dataDir, 'nodes', name),
        env: { ...this.sharedEnv(), ...extra },
        port,
        echo: this.options.echo,
      });
      this.nodes.push(node);
      return node;
    };
    // Management first: it migrates the schema and bootstraps the organization and the token.
    say('starting the management node');
    const management = Array.from({ length: counts.management }, (_, i) =>
      add('management', i + 1, { QUARRY_BOOTSTRAP_TOKEN: this.token }),
    );
    await Promise.all(management.map((n) => n.start()));
    say(`starting ${counts.ingest} ingest, ${counts.compactor} compactor and ${counts.query} query nodes`);
    const workers = [
      ...Array.from({ length: counts.ingest }, (_, i) => add('ingest', i + 1)),
      ...Array.from({ length: counts.compactor }, (_, i) => add('compactor', i + 1)),
      ...Array.from({ length: counts.query }, (_, i) => add('query', i + 1)),
    ];
    await Promise.all(workers.map((n) => n.start()));
    const urls = (role: ClusterRole) =>
      this.nodesOf(role)
        .map((n) => n.url)
        .join(',');
    say('starting the gateway');
    const gateway = add(
      'gateway',
      1,
      {
        QUARRY_GATEWAY_INGEST_URLS: urls('ingest'),
        QUARRY_GATEWAY_QUERY_URLS: urls('query'),
        QUARRY_GATEWAY_MANAGEMENT_URLS: urls('management'),
        QUARRY_GATEWAY_HEALTH_INTERVAL_MS: '500',
      },
      this.options.port || undefined,
    );
    await gateway.start();
    this.writeClusterJson();
  }

  /** Where this cluster's nodes keep their offsets and leases (libs/metastore/src/region-schema.ts). */
  private coordinationSchema(): string {
    const { region, homeRegion } = this.options;
    return region !== undefined && region !== (homeRegion ?? region) ? regionSchemaName(region) : 'public';
  }

  private regionEnv(): Record<string, string> {
    const { region, homeRegion, regions } = this.options;
    return {
      ...(region !== undefined ? { QUARRY_REGION: region } : {}),
      ...(homeRegion !== undefined ? { QUARRY_HOME_REGION: homeRegion } : {}),
      ...(regions !== undefined
        ? {
            QUARRY_REGIONS: Object.entries(regions)
              .map(([name, url]) => `${name}=${url}`)
              .join(','),
          }
        : {}),
    };
  }

  private sharedEnv(): Record<string, string> {
    const s3 = this.options.s3;
    return {
      ...(this.kafka !== null ? { QUARRY_KAFKA_BUFFER_BYTES: String(512 * 1024 * 1024) } : {}),
      QUARRY_METASTORE_URL: this.infra.metastore,
      QUARRY_KAFKA_BROKERS: this.infra.kafka,
      QUARRY_KAFKA_TOPIC: TOPIC,
      QUARRY_KAFKA_METRICS_TOPIC: METRICS_TOPIC,
      QUARRY_S3_ENDPOINT: this.infra.s3,
      QUARRY_S3_BUCKET: s3?.bucket ?? BUCKET,
      QUARRY_S3_REGION: s3?.region ?? this.s3Fake?.region ?? this.radosgw?.region ?? 'us-east-1',
      QUARRY_S3_FORCE_PATH_STYLE: 'true',
      QUARRY_S3_CREATE_BUCKET: 'true',
      AWS_ACCESS_KEY_ID:
        s3?.accessKeyId ??
        this.s3Fake?.accessKeyId ??
        this.radosgw?.accessKeyId ??
        process.env.AWS_ACCESS_KEY_ID ??
        '',
      AWS_SECRET_ACCESS_KEY:
        s3?.secretAccessKey ??
        this.s3Fake?.secretAccessKey ??
        this.radosgw?.secretAccessKey ??
        process.env.AWS_SECRET_ACCESS_KEY ??
        '',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      QUARRY_CLUSTER_SECRET: this.clusterSecret,
      // Eight processes share this machine's cores: one worker thread each unless told otherwise.
      QUARRY_WORKER_THREADS: '1',
      QUARRY_QUERY_WORKERS: '1',
      QUARRY_COLUMN_CACHE_BYTES: String(256 * 1024 * 1024),
      QUARRY_QUERY_WORKER_HEAP_MB: '512',
      QUARRY_OBJECT_CACHE_BYTES: String(512 * 1024 * 1024),
      ...this.regionEnv(),
      ...this.options.env,
    };
  }

  /** Writes `$dataDir/cluster.json` (gateway URL, token, processes). */
  writeClusterJson(): ClusterJson {
    const json: ClusterJson = {
      gateway: this.url,
      token: this.token,
      processes: this.processes(),
      infrastructure: this.infra,
    };
    fs.writeFileSync(path.join(this.options.dataDir, 'cluster.json'), `${JSON.stringify(json, null, 2)}\n`);
    return json;
  }

  /**
   * Stops everything: first the gateway and the ingest nodes (no new acknowledgements); then, when the
   * Kafka is the local in-memory mock, waits (up to `drainMs`) until the compactors have compacted
   * everything it holds, since it keeps nothing once stopped; then the rest, then the infrastructure
   * this cluster started.
   */
  async stop(drainMs = 30_000): Promise<void> {
    for (const role of ['gateway', 'ingest'] as const)
      await Promise.all(this.nodesOf(role).map((n) => n.stop('SIGTERM')));
    if (this.kafka !== null && drainMs > 0 && this.nodesOf('compactor').some((n) => n.running)) {
      const drained = await waitForCompaction(
        {
          metastoreUrl: this.infra.metastore,
          brokers: this.infra.kafka,
          topics: { events: TOPIC, metrics: METRICS_TOPIC },
        },
        drainMs,
      ).catch(() => false);
      if (!drained)
        this.options.progress?.(
          'the compactors did not finish in time: uncompacted events are lost with the in-memory Kafka',
        );
    }
    for (const role of ['query', 'compactor', 'management'] as const)
      await Promise.all(this.nodesOf(role).map((n) => n.stop('SIGTERM')));
    await this.kafka?.stop();
    await this.s3Fake?.stop();
    await this.radosgw?.stop();
    await this.postgres?.stop();
  }
}

function readPreviousToken(dataDir: string): string | undefined {
  try {
    const json = JSON.parse(
      fs.readFileSync(path.join(dataDir, 'cluster.json'), 'utf8'),
    ) as Partial<ClusterJson>;
    return typeof json.token === 'string' && json.token.startsWith('xaat-') ? json.token : undefined;
  } catch {
    return undefined;
  }
}

/** An emptied object store means an empty catalog: every dataset's data is gone. */
function wipeCatalog(postgres: LocalPostgres): void {
  const hasSchema = postgres.psql("SELECT to_regclass('public.blocks') IS NOT NULL", 'quarry').trim();
  if (hasSchema !== 't') return;
  postgres.psql('TRUNCATE blocks, metric_blocks, metric_series, metric_metadata, dataset_fields', 'quarry');
}

/**
 * The mock Kafka starts empty every time, so offsets committed against an earlier one mean nothing:
 * start its partitions over — this cluster's (its region's schema), never another region's. (With a
 * real broker the log persists and nothing is reset.)
 */
async function resetLogOffsets(metastoreUrl: string, schema: string): Promise<void> {
  const client = new Client({ connectionString: metastoreUrl, options: `-c search_path=${schema},public` });
  await client.connect();
  try {
    const { rows } = await client.query<{ present: boolean }>(
      'SELECT to_regclass($1) IS NOT NULL AS present',
      [`${schema}.log_offsets`],
    );
    if (rows[0].present) await client.query('SELECT quarry_reset_log_offsets()');
  } finally {
    await client.end();
  }
}
