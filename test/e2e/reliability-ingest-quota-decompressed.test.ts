import { gzipSync } from 'node:zlib';
import { startTestServer, type TestServer } from '../support/test-server';

/**
 * Issue 17, "ingest quota after decompression", for the other ingest protocols: HEC
 * (`/services/collector/*`), OTLP logs and traces (`/v1/logs`, `/v1/traces`) and OTLP metrics
 * (`/v1/metrics`) charge the token's ingest quota what the body decompresses to, as
 * `/v1/datasets/{id}/ingest` does. Each body here is under a third of the quota as sent (gzip) and over
 * it once inflated: charged as sent, a second and a third body would be admitted; charged after
 * decompression, the first spends the quota and the second is refused with 429.
 */
const QUOTA = 4_000;

describe('HEC and OTLP ingest charge the quota the bytes after decompression', () => {
  let server: TestServer;
  const saved = { ...process.env };

  beforeEach(async () => {
    // Admission limits come from the environment (loadAdmissionLimits(process.env)); a server per test,
    // so each protocol starts with the whole quota.
    process.env.QUARRY_INGEST_QUOTA_BYTES = String(QUOTA);
    server = await startTestServer();
    for (const [name, kind] of [
      ['hec-quota', undefined],
      ['otel-quota', 'otel:logs:v1'],
      ['metrics-quota', 'otel:metrics:v1'],
    ] as const) {
      const res = await server.request('POST', '/v2/datasets', { body: kind ? { name, kind } : { name } });
      expect(res.status).toBe(200);
    }
  });
  afterEach(async () => {
    await server?.close();
    process.env = saved;
  });

  /** A gzip body that inflates past the quota while its compressed size stays under a third of it. */
  const inflating = (text: string): Buffer => {
    const gz = gzipSync(text);
    expect(text.length).toBeGreaterThan(QUOTA);
    expect(gz.length * 3).toBeLessThan(QUOTA);
    return gz;
  };

  /** Sends until refused (at most 3 bodies): the statuses and the last answer's quota headers. */
  const sendUntilRefused = async (send: () => Promise<Response>) => {
    const statuses: number[] = [];
    let last: Response | null = null;
    for (let i = 0; i < 3; i++) {
      last = await send();
      statuses.push(last.status);
      if (last.status === 429) break;
    }
    return { statuses, last: last! };
  };

  const expectRefusedAfterOne = async (send: () => Promise<Response>) => {
    const { statuses, last } = await sendUntilRefused(send);
    expect(statuses).toEqual([200, 429]);
    expect(await last.json()).toMatchObject({ message: 'ingest limit exceeded' });
    expect(last.headers.get('x-ingestlimit-limit')).toBe(String(QUOTA));
    expect(last.headers.get('x-ingestlimit-remaining')).toBe('0');
    expect(Number(last.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  };

  it('HEC /services/collector/event', async () => {
    const envelopes = Array.from({ length: 120 }, (_, i) =>
      JSON.stringify({ event: { n: i, msg: 'the same message, over and over again' } }),
    ).join('\n');
    const body = inflating(envelopes);
    await expectRefusedAfterOne(
      () =>
        server.request('POST', '/services/collector/event?index=hec-quota', {
          body,
          headers: {
            Authorization: `Splunk ${server.token}`,
            'Content-Type': 'application/json',
            'Content-Encoding': 'gzip',
          },
        }) as unknown as Promise<Response>,
    );
  });

  it('HEC /services/collector/raw', async () => {
    const lines = Array.from({ length: 100 }, (_, i) => `line ${i}: the same raw text, over and over`).join(
      '\n',
    );
    const body = inflating(lines);
    await expectRefusedAfterOne(
      () =>
        server.request('POST', '/services/collector/raw?index=hec-quota', {
          body,
          headers: { Authorization: `Splunk ${server.token}`, 'Content-Encoding': 'gzip' },
        }) as unknown as Promise<Response>,
    );
  });

  it('OTLP/HTTP logs (/v1/logs)', async () => {
    const nowNs = String(BigInt(Date.now()) * 1_000_000n);
    const logRecords = Array.from({ length: 40 }, (_, i) => ({
      timeUnixNano: nowNs,
      severityNumber: 9,
      body: { stringValue: `record ${i}: the same log line, over and over again` },
    }));
    const body = inflating(
      JSON.stringify({
        resourceLogs: [{ resource: { attributes: [] }, scopeLogs: [{ scope: { name: 'q' }, logRecords }] }],
      }),
    );
    await expectRefusedAfterOne(
      () =>
        server.request('POST', '/v1/logs', {
          body,
          headers: {
            'x-axiom-dataset': 'otel-quota',
            'Content-Type': 'application/json',
            'Content-Encoding': 'gzip',
          },
        }) as unknown as Promise<Response>,
    );
  });

  it('OTLP/HTTP metrics (/v1/metrics)', async () => {
    const nowNs = String(BigInt(Date.now()) * 1_000_000n);
    const dataPoints = Array.from({ length: 120 }, (_, i) => ({ timeUnixNano: nowNs, asDouble: i }));
    const body = inflating(
      JSON.stringify({
        resourceMetrics: [
          {
            resource: { attributes: [] },
            scopeMetrics: [
              { scope: { name: 'q' }, metrics: [{ name: 'quota.gauge', gauge: { dataPoints } }] },
            ],
          },
        ],
      }),
    );
    await expectRefusedAfterOne(
      () =>
        server.request('POST', '/v1/metrics', {
          body,
          headers: {
            'x-axiom-metrics-dataset': 'metrics-quota',
            'Content-Type': 'application/json',
            'Content-Encoding': 'gzip',
          },
        }) as unknown as Promise<Response>,
    );
  });
});
