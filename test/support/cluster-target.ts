import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Kafka, logLevel, type Admin } from 'kafkajs';
import {
  LocalCluster,
  LocalPostgres,
  mockKafkaAvailability,
  type LocalClusterOptions,
} from '@quarry/local-cluster';
import { Metastore, regionSchemaName } from '@quarry/metastore';
import { requestWith, TEST_PAT, TEST_TOKEN, type TestTarget } from './test-server';

/** Why the cluster suites cannot run here, or null when they can (CI provides everything). */
export function clusterUnavailable(): string | null {
  const kafka = mockKafkaAvailability();
  if (!kafka.ok && !process.env.QUARRY_TEST_KAFKA_BROKERS) return kafka.reason;
  const pg = LocalPostgres.availability();
  if (!pg.ok) return pg.reason;
  if (!fs.existsSync(path.join(__dirname, '..', '..', 'apps', 'ingest', 'dist', 'main.js')))
    return 'the role apps are not built (npm test builds them first)';
  return null;
}

/**
 * `describe` for cluster suites: runs them when the machine can start a cluster, skips them with the
 * reason otherwise — except under CI=true, where a missing prerequisite fails the run (.ci/run installs
 * them), so CI never counts a skipped cluster suite as passing.
 */
export function describeCluster(name: string, body: () => void): void {
  const missing = clusterUnavailable();
  if (missing === null) describe(name, body);
  else if (process.env.CI === 'true')
    describe(name, () => {
      it('has what a cluster needs', () => {
        throw new Error(`cannot start a cluster under CI: ${missing}`);
      });
    });
  else describe.skip(`${name} (skipped: ${missing})`, body);
}

export interface ClusterTarget extends TestTarget {
  cluster: LocalCluster;
}

/**
 * A whole cluster on this machine (PostgreSQL, librdkafka's mock Kafka, an S3 fake — or Ceph radosgw
 * when QUARRY_TEST_S3_ENDPOINT is set — and every role as its own process behind the gateway), as a
 * test target: suites written for the standalone server run against it unchanged.
 */
export async function startClusterTarget(
  env: Record<string, string> = {},
  options: Partial<LocalClusterOptions> & {
    /**
     * Use the external servers of the environment when set (QUARRY_TEST_S3_ENDPOINT: Ceph radosgw in CI;
     * QUARRY_TEST_KAFKA_BROKERS), or always start local ones that a test can stop (fault tests).
     */
    external?: boolean;
  } = {},
): Promise<ClusterTarget> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-cluster-'));
  // PostgreSQL runs as its own system user when the tests run as root: it must reach its directory.
  fs.chmodSync(dataDir, 0o755);
  const external = options.external ?? true;
  const s3Endpoint = external ? process.env.QUARRY_TEST_S3_ENDPOINT : undefined;
  const cluster = await LocalCluster.start({
    dataDir,
    bootstrapToken: TEST_TOKEN,
    kafkaBrokers: (external && process.env.QUARRY_TEST_KAFKA_BROKERS) || undefined,
    s3: s3Endpoint
      ? {
          endpoint: s3Endpoint,
          // A bucket per cluster, so runs never see each other's blocks.
          bucket: `quarry-${path
            .basename(dataDir)
            .toLowerCase()
            .replace(/[^a-z0-9-]/g, '')}`,
          accessKeyId: process.env.AWS_ACCESS_KEY_ID,
          secretAccessKey: process.env.AWS_SECRET_ACCESS_KEY,
        }
      : undefined,
    ...options,
    env: {
      QUARRY_BOOTSTRAP_PAT: TEST_PAT,
      QUARRY_LOG_LEVEL: 'warn',
      QUARRY_COMPACT_INTERVAL_MS: '200',
      QUARRY_METRICS_COMPACT_INTERVAL_MS: '500',
      QUARRY_CATALOG_REFRESH_MS: '200',
      ...env,
    },
  });
  let metastore: Metastore;
  let kafka: Admin;
  try {
    // A region other than the home region reads its offsets from its own schema, as its nodes do.
    const { region, homeRegion } = options;
    const regional = region !== undefined && region !== (homeRegion ?? region);
    metastore = await Metastore.openRegional(
      cluster.metastoreUrl,
      regional ? regionSchemaName(region) : null,
    );
    kafka = new Kafka({ brokers: cluster.kafkaBrokers.split(','), logLevel: logLevel.NOTHING }).admin();
    await kafka.connect();
  } catch (err) {
    await cluster.stop();
    throw err;
  }
  const org = await metastore.orgs.get();
  const owner = (await metastore.users.list()).find((u) => u.role === 'owner');
  const target: ClusterTarget = {
    kind: 'cluster',
    cluster,
    url: cluster.url,
    token: TEST_TOKEN,
    pat: TEST_PAT,
    orgId: org?.id ?? '',
    userId: owner?.id ?? '',
    dataDir,
    metastore,
    request: requestWith(cluster.url, TEST_TOKEN),
    async compact(timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      const topics = await Promise.all(
        ['quarry-ingest', 'quarry-metrics'].map(async (topic) => {
          const offsets = await kafka.fetchTopicOffsets(topic);
          return new Map(offsets.map((o) => [o.partition, Number(o.high)]));
        }),
      );
      const [events, metrics] = topics;
      for (;;) {
        const committed = await metastore.blocks.committedOffsets();
        const metricsCommitted = await metastore.metricSeries.committedOffset();
        const done =
          [...events].every(([p, end]) => (committed.get(p) ?? 0) >= end) &&
          metricsCommitted >= (metrics.get(0) ?? 0);
        if (done) return;
        if (Date.now() > deadline) throw new Error('the compactors did not catch up with the log in time');
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    async close() {
      await kafka.disconnect().catch(() => undefined);
      await metastore.close().catch(() => undefined);
      await cluster.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return target;
}
