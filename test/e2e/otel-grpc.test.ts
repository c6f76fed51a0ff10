import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { OtlpGrpcServer } from '@quarry/ingest-node';
import { rowsOf, startTestServer, type TestServer } from '../support/test-server';

const run = promisify(execFile);
const EXPORTER = path.join(__dirname, 'otel-grpc-export.mjs');

interface ExportOutcome {
  code: number;
  error?: string;
}
interface Exported {
  traces: ExportOutcome;
  logs: ExportOutcome;
  metrics: ExportOutcome;
  traceId: string;
}

/**
 * OTLP/gRPC (QUARRY_OTLP_GRPC_PORT): the official @opentelemetry/exporter-trace-otlp-grpc and the gRPC
 * export delegate of the logs and metrics exporters send to the ingest role's gRPC port; what arrives is
 * stored exactly as over OTLP/HTTP. Bad credentials and datasets come back as gRPC statuses.
 */
describe('OTLP over gRPC', () => {
  let server: TestServer;
  let grpcUrl: string;

  beforeAll(async () => {
    server = await startTestServer({ QUARRY_OTLP_GRPC_PORT: '0' });
    const port = server.quarry.app.get(OtlpGrpcServer).port;
    expect(port).toBeGreaterThan(0);
    grpcUrl = `http://127.0.0.1:${port}`;
    for (const [name, kind] of [
      ['grpc-traces', 'otel:traces:v1'],
      ['grpc-logs', 'otel:logs:v1'],
      ['grpc-metrics', 'otel:metrics:v1'],
    ]) {
      expect((await server.request('POST', '/v2/datasets', { body: { name, kind } })).status).toBe(200);
    }
  });
  afterAll(() => server?.close());

  const exportAll = async (token: string, datasets = ['grpc-traces', 'grpc-logs', 'grpc-metrics']) => {
    const { stdout } = await run(process.execPath, [EXPORTER, grpcUrl, token, ...datasets]);
    return JSON.parse(stdout) as Exported;
  };
  const apl = async (query: string) => {
    const res = await server.request('POST', '/v1/datasets/_apl?format=tabular', { body: { apl: query } });
    const body = await res.json();
    expect({ status: res.status, body }).toMatchObject({ status: 200 });
    return rowsOf(body.tables[0]);
  };

  it('stores spans, log records and metrics sent by the OpenTelemetry gRPC exporters', async () => {
    const sent = await exportAll(server.token);
    expect([sent.traces, sent.logs, sent.metrics]).toEqual([{ code: 0 }, { code: 0 }, { code: 0 }]);
    const spans = await apl(
      `['grpc-traces'] | where trace_id == '${sent.traceId}' | sort by _time asc | project name, kind, duration, ['attributes.http.request.method'], team = ['attributes.custom']['team.name']`,
    );
    expect(spans).toEqual([
      {
        name: 'GET /grpc',
        kind: 'server',
        duration: '00:00:00.1000000', // a timespan in otel:traces:v1 (docs/otel-and-hec.md)
        'attributes.http.request.method': 'GET',
        team: 'edge',
      },
      {
        name: 'SELECT 1',
        kind: 'client',
        duration: '00:00:00.0200000',
        'attributes.http.request.method': null,
        team: null,
      },
    ]);
    expect(await apl(`['grpc-logs'] | project severity_text, body, ['service.name']`)).toEqual([
      { severity_text: 'WARN', body: 'slow query', 'service.name': 'grpc-e2e' },
    ]);
    const mpl = await server.request('POST', '/v1/query/_mpl?format=metrics-v2', {
      body: {
        mpl: '`grpc-metrics`:`queue.depth` | align to 1h using last',
        startTime: 'now-1h',
        endTime: 'now+1m',
      },
    });
    const body = await mpl.json();
    expect({ status: mpl.status, body }).toMatchObject({ status: 200 });
    const [series] = body.series as { tags: Record<string, unknown>; data: (number | null)[] }[];
    expect(series.tags).toMatchObject({ queue: 'grpc' });
    expect(series.data.filter((v) => v !== null)).toContain(7);
  });

  it('answers bad credentials and datasets with gRPC statuses, storing nothing', async () => {
    const before = await apl(`['grpc-traces'] | count`);
    const unknown = await exportAll(`xaat-${'0'.repeat(36)}`);
    // The exporters report failure (1) with the gRPC status in the message: UNAUTHENTICATED (16).
    for (const outcome of [unknown.traces, unknown.logs, unknown.metrics])
      expect(outcome).toEqual({
        code: 1,
        error: expect.stringMatching(/^16 UNAUTHENTICATED: invalid token/),
      });
    const wrong = await exportAll(server.token, ['nope', 'grpc-traces', 'grpc-logs']);
    // NOT_FOUND (5) for a missing dataset; INVALID_ARGUMENT (3) for logs into a traces dataset and
    // metrics into an event dataset.
    expect([wrong.traces.error, wrong.logs.error, wrong.metrics.error]).toEqual([
      expect.stringMatching(/^5 NOT_FOUND: dataset "nope" not found/),
      expect.stringMatching(/^3 INVALID_ARGUMENT: dataset "grpc-traces" is of kind/),
      expect.stringMatching(/^3 INVALID_ARGUMENT: /),
    ]);
    expect(await apl(`['grpc-traces'] | count`)).toEqual(before);
  });
});
