import { loadConfig } from './config';

describe('loadConfig', () => {
  it('applies defaults', () => {
    const config = loadConfig({});
    expect(config.port).toBe(8080);
    expect(config.roles).toEqual(['ingest', 'query', 'compactor', 'management']);
    expect(config.dataDir.endsWith('/data')).toBe(true);
  });

  it('bounds the raw-file cache of all threads by one variable (32 MiB by default)', () => {
    expect(loadConfig({}).fileCacheBytes).toBe(32 * 1024 * 1024);
    expect(loadConfig({ QUARRY_FILE_CACHE_BYTES: '0' }).fileCacheBytes).toBe(0);
    expect(() => loadConfig({ QUARRY_FILE_CACHE_BYTES: '-1' })).toThrow(/QUARRY_FILE_CACHE_BYTES/);
  });

  it('lists every bad variable at once', () => {
    expect(() =>
      loadConfig({ PORT: 'eighty', QUARRY_ROLES: 'ingest,frobnicate', QUARRY_BOOTSTRAP_TOKEN: 'abc' }),
    ).toThrow(/PORT="eighty".*\n.*QUARRY_ROLES=.*\n.*QUARRY_BOOTSTRAP_TOKEN/s);
  });

  it('picks the embedded shape by default and the cluster shape when Kafka, S3 and PostgreSQL are all given', () => {
    expect(loadConfig({}).shape).toBe('embedded');
    const cluster = loadConfig({
      QUARRY_KAFKA_BROKERS: 'k1:9092, k2:9092',
      QUARRY_S3_BUCKET: 'quarry-blocks',
      QUARRY_S3_PREFIX: 'eu-1',
      QUARRY_S3_FORCE_PATH_STYLE: 'true',
      QUARRY_METASTORE_URL: 'postgres://q:q@db:5432/quarry',
      QUARRY_KAFKA_SASL_MECHANISM: 'scram-sha-512',
      QUARRY_KAFKA_SASL_USERNAME: 'quarry',
      QUARRY_KAFKA_SASL_PASSWORD: 'secret',
    });
    expect(cluster.shape).toBe('cluster');
    expect(cluster.kafka).toMatchObject({
      brokers: ['k1:9092', 'k2:9092'],
      topic: 'quarry-ingest',
      metricsTopic: 'quarry-metrics',
      sasl: { mechanism: 'scram-sha-512', username: 'quarry', password: 'secret' },
    });
    expect(cluster.s3).toMatchObject({ bucket: 'quarry-blocks', prefix: 'eu-1/', forcePathStyle: true });
  });

  it('refuses half a cluster, naming what is missing, and a SASL mechanism without credentials', () => {
    expect(() => loadConfig({ QUARRY_KAFKA_BROKERS: 'k1:9092' })).toThrow(
      /needs Kafka, S3 and PostgreSQL together: set QUARRY_S3_BUCKET and QUARRY_METASTORE_URL/,
    );
    expect(() =>
      loadConfig({
        QUARRY_KAFKA_BROKERS: 'k1',
        QUARRY_S3_BUCKET: 'b',
        QUARRY_KAFKA_SASL_MECHANISM: 'plain',
      }),
    ).toThrow(/QUARRY_KAFKA_BROKERS="k1": each broker must be host:port.*\n.*QUARRY_S3_BUCKET="b"/s);
    expect(() =>
      loadConfig({
        QUARRY_KAFKA_BROKERS: 'k1:9092',
        QUARRY_S3_BUCKET: 'bucket',
        QUARRY_METASTORE_URL: 'postgres://q:q@db/quarry',
        QUARRY_KAFKA_SASL_MECHANISM: 'plain',
      }),
    ).toThrow(/QUARRY_KAFKA_SASL_MECHANISM needs QUARRY_KAFKA_SASL_USERNAME/);
  });
});
