import { Client, credentials, Metadata, status as GrpcStatus, type ServiceError } from '@grpc/grpc-js';
import { OtlpGrpcServer } from '@quarry/ingest-node';
import * as protobuf from 'protobufjs';
import { rowsOf, startTestServer, type TestServer } from '../support/test-server';

/**
 * Issue 17, admission control on OTLP/gRPC (QUARRY_OTLP_GRPC_PORT): the gRPC port used to bypass the
 * per-token request rate, the ingest quota and the node's in-flight byte bound that OTLP/HTTP, HEC and
 * /v1 ingest obey. A real grpc-js client sends gzip-compressed `LogsService/Export` calls; refusals come
 * back as the OTLP specification says (RESOURCE_EXHAUSTED for the token's own limits, UNAVAILABLE for
 * an overloaded node), each with a `google.rpc.RetryInfo` in `grpc-status-details-bin`.
 */
const LOGS_EXPORT = '/opentelemetry.proto.collector.logs.v1.LogsService/Export';
const DATASET = 'grpc-admission';

/** ExportLogsServiceRequest{resource_logs{scope_logs{log_records{time_unix_nano, body{string_value}}}}}. */
function logsRequest(body: string): Buffer {
  const w = () => protobuf.Writer.create();
  const anyValue = w().uint32(10).string(body).finish();
  const record = w()
    .uint32(9)
    .fixed64(protobuf.util.LongBits.fromNumber(Date.now() * 1e6).toLong())
    .uint32(42)
    .bytes(anyValue)
    .finish();
  const scopeLogs = w().uint32(18).bytes(record).finish();
  const resourceLogs = w().uint32(18).bytes(scopeLogs).finish();
  return Buffer.from(w().uint32(10).bytes(resourceLogs).finish());
}

/** The retry delay (seconds) of the RetryInfo inside a google.rpc.Status, or null when there is none. */
function retryDelayOf(statusBin: Buffer): number | null {
  const status = protobuf.Reader.create(statusBin);
  while (status.pos < status.len) {
    const tag = status.uint32();
    if (tag >>> 3 !== 3) {
      status.skipType(tag & 7);
      continue;
    }
    const any = protobuf.Reader.create(status.bytes());
    let typeUrl = '';
    let value: Uint8Array | null = null;
    while (any.pos < any.len) {
      const t = any.uint32();
      if (t >>> 3 === 1) typeUrl = any.string();
      else if (t >>> 3 === 2) value = any.bytes();
      else any.skipType(t & 7);
    }
    if (typeUrl !== 'type.googleapis.com/google.rpc.RetryInfo' || value === null) continue;
    const retryInfo = protobuf.Reader.create(value);
    retryInfo.uint32(); // field 1: retry_delay
    const duration = protobuf.Reader.create(retryInfo.bytes());
    duration.uint32(); // field 1: seconds
    return Number(duration.int64());
  }
  return null;
}

interface Outcome {
  code: GrpcStatus;
  details?: string;
  retryDelay?: number | null;
  trailers?: Record<string, unknown>;
}

describe('OTLP/gRPC admission control', () => {
  let server: TestServer;
  let client: Client;
  const saved = { ...process.env };

  const start = async (env: Record<string, string>) => {
    Object.assign(process.env, env);
    server = await startTestServer({ QUARRY_OTLP_GRPC_PORT: '0' });
    const port = server.quarry.app.get(OtlpGrpcServer).port;
    // gzip on the wire, so the quota is seen to count the bytes after decompression.
    client = new Client(`127.0.0.1:${port}`, credentials.createInsecure(), {
      'grpc.default_compression_algorithm': 2,
    });
    const res = await server.request('POST', '/v2/datasets', {
      body: { name: DATASET, kind: 'otel:logs:v1' },
    });
    expect(res.status).toBe(200);
  };
  afterEach(async () => {
    client?.close();
    await server?.close();
    process.env = { ...saved };
  });

  const send = (body: string): Promise<Outcome> =>
    new Promise((resolve) => {
      const metadata = new Metadata();
      metadata.set('authorization', `Bearer ${server.token}`);
      metadata.set('x-axiom-dataset', DATASET);
      client.makeUnaryRequest(
        LOGS_EXPORT,
        (b: Buffer) => b,
        (b: Buffer) => b,
        logsRequest(body),
        metadata,
        (err: ServiceError | null) => {
          if (err === null) return resolve({ code: GrpcStatus.OK });
          const bin = err.metadata.get('grpc-status-details-bin')[0];
          resolve({
            code: err.code,
            details: err.details,
            retryDelay: Buffer.isBuffer(bin) ? retryDelayOf(bin) : null,
            trailers: err.metadata.getMap(),
          });
        },
      );
    });

  const stored = async () => {
    const res = await server.request('POST', '/v1/datasets/_apl?format=tabular', {
      body: { apl: `['${DATASET}'] | count` },
    });
    expect(res.status).toBe(200);
    return rowsOf((await res.json()).tables[0])[0].count;
  };

  it('charges the ingest quota the decompressed message and then refuses with RESOURCE_EXHAUSTED', async () => {
    await start({ QUARRY_INGEST_QUOTA_BYTES: '4000' });
    // 6,000 bytes of body: about 6 KB decompressed, a few dozen bytes gzip-compressed on the wire.
    const body = 'q'.repeat(6_000);
    const outcomes: Outcome[] = [];
    for (let i = 0; i < 3; i++) {
      const outcome = await send(body);
      outcomes.push(outcome);
      if (outcome.code !== GrpcStatus.OK) break;
    }
    expect(outcomes.map((o) => o.code)).toEqual([GrpcStatus.OK, GrpcStatus.RESOURCE_EXHAUSTED]);
    const refused = outcomes[1];
    expect(refused.details).toBe('ingest limit exceeded');
    // A quota window of 30 days by default: the delay is when it resets, never 0.
    expect(refused.retryDelay).toBeGreaterThan(0);
    expect(refused.trailers).toMatchObject({ 'x-ingestlimit-limit': '4000', 'x-ingestlimit-remaining': '0' });
    expect(await stored()).toBe(1);
    const metrics = await (await server.request('GET', '/metrics')).text();
    expect(metrics).toMatch(/quarry_admission_rejections_total\{reason="ingest_quota"\} 1/);
  });

  it('counts each Export against the token request rate, shared with the HTTP port', async () => {
    // The window is a calendar minute: the dataset creation in start() and the five Exports must fall in
    // one, or the creation's request is forgotten and a fourth Export is admitted. So wait for a fresh
    // minute before start() when less than half of this one is left (start and the sends take under 10 s, even on a loaded CI machine).
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 30_000) await new Promise((r) => setTimeout(r, 60_500 - intoMinute));
    await start({ QUARRY_RATE_LIMIT_PER_MINUTE: '4' });
    // The dataset creation spent one request of the token's 4 (same subject on both ports).
    const outcomes: Outcome[] = [];
    for (let i = 0; i < 5; i++) outcomes.push(await send('hello'));
    expect(outcomes.map((o) => o.code)).toEqual([
      GrpcStatus.OK,
      GrpcStatus.OK,
      GrpcStatus.OK,
      GrpcStatus.RESOURCE_EXHAUSTED,
      GrpcStatus.RESOURCE_EXHAUSTED,
    ]);
    expect(outcomes[3]).toMatchObject({
      details: 'rate limit exceeded',
      trailers: {
        'x-ratelimit-limit': '4',
        'x-ratelimit-remaining': '0',
        'x-ratelimit-scope': 'organization',
      },
    });
    expect(outcomes[3].retryDelay).toBeGreaterThanOrEqual(1);
    expect(outcomes[3].retryDelay).toBeLessThanOrEqual(60);
  }, 90_000);

  it('answers UNAVAILABLE with RetryInfo while the node holds its in-flight bytes', async () => {
    await start({ QUARRY_INGEST_MAX_INFLIGHT_BYTES: '1000', QUARRY_RETRY_AFTER_SECONDS: '3' });
    // Another request holds the whole budget.
    expect(server.quarry.admission.reserveIngest(1000)).toBe(true);
    const refused = await send('x'.repeat(500));
    expect(refused).toMatchObject({ code: GrpcStatus.UNAVAILABLE, retryDelay: 3 });
    expect(await stored()).toBe(0);
    server.quarry.admission.releaseIngest(1000);
    expect(await send('x'.repeat(500))).toEqual({ code: GrpcStatus.OK });
    // What an admitted message held is given back once it is answered.
    expect(server.quarry.admission.ingestInflightBytes).toBe(0);
    expect(await stored()).toBe(1);
  });
});
