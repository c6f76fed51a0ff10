import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { LocalCluster, type ClusterRole } from '@quarry/local-cluster';

const HELP = `npm run cluster [-- --ingest N --query N --compactor N --management N --s3 auto|fake|radosgw]

Starts a Quarry cluster on this machine: PostgreSQL, the Kafka protocol and S3 (from the environment
when given, otherwise local ones), then every role as its own process and a gateway in front.

Environment:
  PORT                    the gateway's port (default 8080)
  QUARRY_DATA_DIR         where everything lives (default ./data); cluster.json is written there
  QUARRY_BOOTSTRAP_TOKEN  the admin API token to register (default: kept from cluster.json, or new)
  QUARRY_METASTORE_URL    an existing PostgreSQL (default: the machine's PostgreSQL binaries)
  QUARRY_KAFKA_BROKERS    an existing Kafka (default: librdkafka's mock cluster, in memory; the topics
                          quarry-ingest and quarry-metrics must exist on a real one)
  QUARRY_S3_ENDPOINT      an existing S3-compatible store (with QUARRY_S3_BUCKET, AWS_ACCESS_KEY_ID and
                          AWS_SECRET_ACCESS_KEY); otherwise --s3 picks a local one: Ceph radosgw when
                          installed and run as root (auto, the default; it starts empty every time),
                          or an S3 fake that keeps its objects in QUARRY_DATA_DIR/s3
  QUARRY_REGION           the region this cluster serves (default local); a second region shares the
  QUARRY_HOME_REGION      first one's PostgreSQL (QUARRY_METASTORE_URL) and names the same home region
  QUARRY_REGIONS          every region's gateway as name=url,... (README: "Regions")

The local Kafka is librdkafka's mock cluster: it keeps nothing once stopped, so Ctrl-C first stops the
ingest nodes and waits for the compactors to compact everything it holds.
`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      help: { type: 'boolean' },
      ingest: { type: 'string' },
      query: { type: 'string' },
      compactor: { type: 'string' },
      management: { type: 'string' },
      s3: { type: 'string' },
    },
  });
  if (values.help) {
    process.stdout.write(HELP);
    return;
  }
  const counts: Partial<Record<ClusterRole, number>> = {};
  for (const role of ['ingest', 'query', 'compactor', 'management'] as const) {
    const raw = values[role];
    if (raw === undefined) continue;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 1 || n > 16) {
      process.stderr.write(`--${role} must be a whole number from 1 to 16, not ${JSON.stringify(raw)}\n`);
      process.exitCode = 2;
      return;
    }
    counts[role] = n;
  }
  const localS3 = values.s3 ?? 'auto';
  if (localS3 !== 'auto' && localS3 !== 'fake' && localS3 !== 'radosgw') {
    process.stderr.write(`--s3 must be auto, fake or radosgw, not ${JSON.stringify(localS3)}\n`);
    process.exitCode = 2;
    return;
  }
  const env = process.env;
  const port = env.PORT === undefined || env.PORT === '' ? 8080 : Number(env.PORT);
  const dataDir = path.resolve(env.QUARRY_DATA_DIR || './data');
  const started = Date.now();
  let cluster: LocalCluster;
  try {
    cluster = await LocalCluster.start({
      dataDir,
      port,
      bootstrapToken: env.QUARRY_BOOTSTRAP_TOKEN || undefined,
      counts,
      metastoreUrl: env.QUARRY_METASTORE_URL || undefined,
      kafkaBrokers: env.QUARRY_KAFKA_BROKERS || undefined,
      s3: env.QUARRY_S3_ENDPOINT
        ? { endpoint: env.QUARRY_S3_ENDPOINT, bucket: env.QUARRY_S3_BUCKET || undefined }
        : undefined,
      localS3,
      region: env.QUARRY_REGION || undefined,
      homeRegion: env.QUARRY_HOME_REGION || undefined,
      regions: parseRegions(env.QUARRY_REGIONS),
      progress: (line) => process.stdout.write(`  ${line}\n`),
    });
  } catch (err) {
    process.stderr.write(`\nThe cluster did not start: ${(err as Error).message}\n`);
    process.exit(1);
  }
  const json = cluster.writeClusterJson();
  const lines = [
    '',
    `Quarry cluster is serving on ${cluster.url} (gateway; started in ${((Date.now() - started) / 1000).toFixed(1)} s)`,
    `  admin API token: ${cluster.token}`,
    `  processes:       ${json.processes.map((p) => `${p.name} (pid ${p.pid})`).join(', ')}`,
    `  data:            ${dataDir} (cluster.json lists every process and its URL)`,
    '',
    `  try: curl -X POST ${cluster.url}/v2/datasets -H "Authorization: Bearer ${cluster.token}" -H "Content-Type: application/json" -d '{"name":"logs"}'`,
    '',
    'Ctrl-C stops everything.',
    '',
  ];
  process.stdout.write(lines.join('\n'));
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`\n${signal}: stopping the cluster\n`);
    cluster.stop().then(
      () => process.exit(0),
      (err) => {
        process.stderr.write(`stopping failed: ${(err as Error).message}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  // Nothing else keeps the event loop alive: the role processes are unref'd children.
  setInterval(() => undefined, 1 << 30);
}

/** `name=url,...` (the nodes validate it again, with messages). */
function parseRegions(raw: string | undefined): Record<string, string> | undefined {
  if (!raw) return undefined;
  const regions: Record<string, string> = {};
  for (const entry of raw
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const at = entry.indexOf('=');
    regions[entry.slice(0, at)] = entry.slice(at + 1);
  }
  return regions;
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
