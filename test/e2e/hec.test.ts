import { randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { sha256Hex } from '@quarry/common';
import type { DatasetCapabilities } from '@quarry/metastore';
import { rowsOf, startTestServer, type TestServer } from '../support/test-server';

/**
 * Splunk HTTP Event Collector: 'POST /services/collector/event', 'POST /services/collector',
 * 'POST /services/collector/raw', 'GET /services/collector/health', 'GET /services/collector/health/1.0'.
 * The sender below writes requests the way Splunk's logging libraries do (splunk-javascript-logging,
 * splunk-library-javalogging): envelopes serialized one after another with no separator or array,
 * `Authorization: Splunk <token>`, `time` as epoch seconds with a millisecond fraction, optional gzip.
 */

/** A HEC event envelope as Splunk's libraries build it. */
interface Envelope {
  event: unknown;
  time?: number | string;
  host?: string;
  source?: string;
  sourcetype?: string;
  index?: string;
  fields?: Record<string, unknown>;
}

/** Splunk's batching: `JSON.stringify` of each envelope, concatenated (splunk-logging's `_sendEvents`). */
const batch = (envelopes: Envelope[]) => envelopes.map((e) => JSON.stringify(e)).join('');

describe('Splunk HEC', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
    for (const name of ['hec-main', 'hec-other', 'hec-raw', 'hec-errors', 'hec-only']) {
      expect((await server.request('POST', '/v2/datasets', { body: { name } })).status).toBe(200);
    }
  });
  afterAll(() => server?.close());

  /** POSTs a HEC body with `Authorization: Splunk <token>` unless `headers` says otherwise. */
  const hec = async (path: string, body: string | Uint8Array, headers: Record<string, string> = {}) => {
    const res = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { Authorization: `Splunk ${server.token}`, 'Content-Type': 'application/json', ...headers },
      body,
    });
    const answer = (await res.json()) as Record<string, unknown>;
    return { status: res.status, type: res.headers.get('content-type'), body: answer };
  };

  const apl = async (query: string) => {
    const res = await server.request('POST', '/v1/datasets/_apl?format=tabular', { body: { apl: query } });
    const body = (await res.json()) as { tables: Parameters<typeof rowsOf>[0][] };
    expect({ status: res.status, body }).toMatchObject({ status: 200 });
    return rowsOf(body.tables[0]);
  };

  async function apiToken(datasetCapabilities: DatasetCapabilities): Promise<string> {
    const secret = `xaat-${randomUUID()}`;
    await server.metastore.tokens.create({
      kind: 'api',
      name: `hec ${randomUUID()}`,
      secretHash: sha256Hex(secret),
      userId: server.userId,
      expiresAt: null,
      orgCapabilities: {},
      datasetCapabilities,
    });
    return secret;
  }

  it('ingests batched envelopes into the first event’s index, with Splunk’s fields mapped', async () => {
    const body = batch([
      {
        event: { message: 'user logged in', user: { id: 7 } },
        time: 1_735_689_600.125,
        host: 'web-1',
        source: '/var/log/app.log',
        sourcetype: '_json',
        index: 'hec-main',
        fields: { region: 'eu' },
      },
      { event: 'plain text line', time: '1735689601.5', host: 'web-2' },
      { event: { message: 'rfc3339 time' }, time: '2025-01-01T00:00:02.25Z' },
    ]);
    expect(await hec('/services/collector/event', body)).toEqual({
      status: 200,
      type: expect.stringContaining('application/json'),
      body: { text: 'Success', code: 0 },
    });
    const rows = await apl(
      `['hec-main'] | sort by _time asc | project _time, message, ['user.id'], _raw, host, source, sourcetype, region`,
    );
    expect(rows).toEqual([
      {
        _time: '2025-01-01T00:00:00.125Z',
        message: 'user logged in',
        'user.id': 7,
        _raw: null,
        host: 'web-1',
        source: '/var/log/app.log',
        sourcetype: '_json',
        region: 'eu',
      },
      {
        _time: '2025-01-01T00:00:01.5Z',
        message: null,
        'user.id': null,
        _raw: 'plain text line',
        host: 'web-2',
        source: null,
        sourcetype: null,
        region: null,
      },
      expect.objectContaining({ _time: '2025-01-01T00:00:02.25Z', message: 'rfc3339 time' }),
    ]);
  });

  it('takes ?index= over the envelope, newline-separated envelopes, gzip, Bearer and the /services/collector alias', async () => {
    const body = `${JSON.stringify({ event: { n: 1 }, index: 'hec-main' })}\n${JSON.stringify({ event: { n: 2 } })}\n`;
    const gzipped = await hec('/services/collector?index=hec-other', gzipSync(body), {
      Authorization: `Bearer ${server.token}`,
      'Content-Encoding': 'gzip',
    });
    expect(gzipped).toMatchObject({ status: 200, body: { text: 'Success', code: 0 } });
    expect(await apl(`['hec-other'] | summarize sum(n)`)).toEqual([{ sum_n: 3 }]);
  });

  it('accepts HTTP Basic with the token as password, and the versioned path Splunk’s libraries use', async () => {
    const basic = `Basic ${Buffer.from(`x:${server.token}`).toString('base64')}`;
    const res = await hec('/services/collector/event/1.0?index=hec-other', batch([{ event: { n: 10 } }]), {
      Authorization: basic,
    });
    expect(res).toMatchObject({ status: 200, body: { code: 0 } });
    expect(await apl(`['hec-other'] | summarize sum(n)`)).toEqual([{ sum_n: 13 }]);
  });

  it('ingests raw lines with metadata from the query string', async () => {
    const lines = '127.0.0.1 - - "GET / HTTP/1.1" 200\n\n127.0.0.1 - - "GET /x HTTP/1.1" 404\r\n';
    const res = await hec(
      '/services/collector/raw?index=hec-raw&host=edge-1&source=nginx&sourcetype=access',
      gzipSync(lines),
      {
        'Content-Type': 'text/plain',
        'Content-Encoding': 'gzip',
      },
    );
    expect(res).toMatchObject({ status: 200, body: { text: 'Success', code: 0 } });
    const rows = await apl(`['hec-raw'] | sort by _raw asc | project _raw, host, source, sourcetype`);
    expect(rows).toEqual([
      { _raw: '127.0.0.1 - - "GET / HTTP/1.1" 200', host: 'edge-1', source: 'nginx', sourcetype: 'access' },
      { _raw: '127.0.0.1 - - "GET /x HTTP/1.1" 404', host: 'edge-1', source: 'nginx', sourcetype: 'access' },
    ]);
    const json = await hec('/services/collector/raw?index=hec-raw', JSON.stringify({ status: 'json event' }));
    expect(json).toMatchObject({ status: 200, body: { code: 0 } });
    expect(await apl(`['hec-raw'] | where status == 'json event' | count`)).toEqual([{ count: 1 }]);
  });

  it('uses the token’s only dataset when no index is named', async () => {
    const token = await apiToken({ 'hec-only': { ingest: ['create'] } });
    const res = await hec('/services/collector/event', batch([{ event: 'to the only dataset' }]), {
      Authorization: `Splunk ${token}`,
    });
    expect(res).toMatchObject({ status: 200, body: { code: 0 } });
    expect(await apl(`['hec-only'] | project _raw`)).toEqual([{ _raw: 'to the only dataset' }]);
  });

  it.each(['/services/collector/health', '/services/collector/health/1.0'])(
    'answers %s without a token: HEC is healthy',
    async (path) => {
      const res = await fetch(`${server.url}${path}`);
      expect({ status: res.status, body: await res.json() }).toEqual({
        status: 200,
        body: { text: 'HEC is healthy', code: 17 },
      });
    },
  );

  it("answers requests on a data channel with their ackId; 'POST /services/collector/ack' acknowledges exactly the ids it handed out", async () => {
    const channel = randomUUID();
    const other = randomUUID();
    const on = (c: string) => ({ 'X-Splunk-Request-Channel': c });
    const envelope = (n: number) => JSON.stringify({ event: { n, channel }, index: 'hec-main' });
    const answers = [];
    for (const n of [1, 2, 3]) answers.push(await hec('/services/collector/event', envelope(n), on(channel)));
    // The raw endpoint counts on the same channel; ?channel= works as the header does.
    answers.push(await hec(`/services/collector/raw?index=hec-raw&channel=${channel}`, 'a raw line'));
    expect(answers.map((a) => [a.status, a.body])).toEqual([
      [200, { text: 'Success', code: 0, ackId: 0 }],
      [200, { text: 'Success', code: 0, ackId: 1 }],
      [200, { text: 'Success', code: 0, ackId: 2 }],
      [200, { text: 'Success', code: 0, ackId: 3 }],
    ]);
    // Another channel counts from 0; without a channel there is no ackId.
    expect((await hec('/services/collector/event', envelope(4), on(other))).body).toEqual({
      text: 'Success',
      code: 0,
      ackId: 0,
    });
    expect((await hec('/services/collector/event', envelope(5))).body).toEqual({ text: 'Success', code: 0 });
    // Acknowledged: what was handed out (the events are durable before their id is), nothing else.
    const ack = await hec('/services/collector/ack', JSON.stringify({ acks: [0, 3, 4, 99] }), on(channel));
    expect(ack).toMatchObject({
      status: 200,
      body: { acks: { '0': true, '3': true, '4': false, '99': false } },
    });
    const fresh = await hec('/services/collector/ack', JSON.stringify({ acks: [0] }), on(randomUUID()));
    expect(fresh.body).toEqual({ acks: { '0': false } });
    const stored = await apl(`['hec-main'] | where ['channel'] == '${channel}' | summarize n = count()`);
    expect(stored).toEqual([{ n: 5 }]); // envelopes 1–5 (6 is refused below)
    // Splunk's channel errors: none (10), not a GUID (11); a body that is no ack list (6).
    expect(await hec('/services/collector/ack', JSON.stringify({ acks: [0] }))).toMatchObject({
      status: 400,
      body: { code: 10, text: 'Data channel is missing' },
    });
    expect(await hec('/services/collector/event', envelope(6), on('not-a-guid'))).toMatchObject({
      status: 400,
      body: { code: 11, text: 'Invalid data channel' },
    });
    expect(await hec('/services/collector/ack', '{"acks": [-1]}', on(channel))).toMatchObject({
      status: 400,
      body: { code: 6 },
    });
  });

  it('refuses bad requests with Splunk’s codes and stores nothing', async () => {
    const good = JSON.stringify({ event: 'fine', index: 'hec-errors' });
    const scopedElsewhere = await apiToken({ 'hec-main': { ingest: ['create'] } });
    const queryOnly = await apiToken({ '*': { query: ['read'] } });
    const cases: [string, Promise<{ status: number; body: Record<string, unknown> }>, number, object][] = [
      [
        'no token',
        hec('/services/collector/event', good, { Authorization: '' }),
        401,
        { code: 2, text: 'Token is required' },
      ],
      [
        'unknown token',
        hec('/services/collector/event', good, { Authorization: `Splunk xaat-${randomUUID()}` }),
        401,
        { code: 4 },
      ],
      [
        'empty body',
        hec('/services/collector/event?index=hec-errors', ''),
        400,
        { code: 5, text: 'No data' },
      ],
      [
        'blank raw body',
        hec('/services/collector/raw?index=hec-errors', '\n \n', { 'Content-Type': 'text/plain' }),
        400,
        { code: 5 },
      ],
      [
        'second envelope is broken JSON',
        hec('/services/collector/event', `${good}{"event": "x",`),
        400,
        { code: 6, text: 'Invalid data format', 'invalid-event-number': 1 },
      ],
      [
        'a JSON array is not HEC',
        hec('/services/collector/event?index=hec-errors', `[${good}]`),
        400,
        { code: 6, 'invalid-event-number': 0 },
      ],
      [
        'third envelope has no event',
        hec('/services/collector/event', `${good}${good}{"host":"h"}`),
        400,
        { code: 12, text: 'Event field is required', 'invalid-event-number': 2 },
      ],
      [
        'blank event',
        hec('/services/collector/event', `${good}{"event":""}`),
        400,
        { code: 13, 'invalid-event-number': 1 },
      ],
      [
        'fields not an object',
        hec('/services/collector/event', `{"event":"x","fields":[1],"index":"hec-errors"}`),
        400,
        { code: 15, 'invalid-event-number': 0 },
      ],
      [
        'unparseable time',
        hec('/services/collector/event', `{"event":"x","time":"yesterday","index":"hec-errors"}`),
        400,
        { code: 6, 'invalid-event-number': 0 },
      ],
      [
        'unknown index',
        hec('/services/collector/event?index=nope', good),
        400,
        { code: 7, text: 'Incorrect index' },
      ],
      [
        'no index, token for every dataset',
        hec('/services/collector/event', '{"event":"x"}'),
        400,
        { code: 7 },
      ],
      [
        'index the token may not ingest into',
        hec('/services/collector/event', good, { Authorization: `Splunk ${scopedElsewhere}` }),
        403,
        { code: 7 },
      ],
      [
        'token that ingests nowhere',
        hec('/services/collector/event', good, { Authorization: `Splunk ${queryOnly}` }),
        403,
        { code: 4 },
      ],
      [
        'corrupt gzip',
        hec('/services/collector/event', good, { 'Content-Encoding': 'gzip' }),
        400,
        { code: 6 },
      ],
    ];
    for (const [what, response, status, body] of cases) {
      const res = await response;
      expect({ what, status: res.status, body: res.body }).toEqual({
        what,
        status,
        body: expect.objectContaining({ ...body, text: expect.any(String) }),
      });
      if ('text' in body) expect(res.body.text).toBe((body as { text: string }).text);
    }
    expect(await apl(`['hec-errors'] | count`)).toEqual([{ count: 0 }]);
  });
});
