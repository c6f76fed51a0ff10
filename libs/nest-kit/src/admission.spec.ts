import Fastify, { type FastifyInstance } from 'fastify';
import {
  Admission,
  admitMessage,
  classifyRoute,
  noteIngestedBytes,
  queryCostGbMs,
  registerAdmission,
  type MessageRefusal,
  type MessageTicket,
} from './admission';
import { loadAdmissionLimits, type AdmissionLimits } from './admission-config';
import { FixedWindowCounter, subjectOf } from './rate-limit';
import { registerRawBodyParser } from './raw-body';

const limits = (over: Partial<AdmissionLimits> = {}): AdmissionLimits => ({
  ...loadAdmissionLimits({}),
  ...over,
});

describe('loadAdmissionLimits', () => {
  it('has generous defaults with rate limits and quotas off', () => {
    const l = loadAdmissionLimits({});
    expect(l.rateLimitPerMinute).toBe(0);
    expect(l.ingestQuotaBytes).toBe(0);
    expect(l.ingestMaxInflightBytes).toBeGreaterThanOrEqual(64 * 1024 * 1024);
    expect(l.queryMaxConcurrent).toBeGreaterThanOrEqual(4);
  });

  it('lists every bad variable at once', () => {
    expect(() =>
      loadAdmissionLimits({ QUARRY_QUERY_MAX_CONCURRENT: 'many', QUARRY_RETRY_AFTER_SECONDS: '0' }),
    ).toThrow(/QUARRY_QUERY_MAX_CONCURRENT="many".*\n.*QUARRY_RETRY_AFTER_SECONDS="0"/);
    expect(() =>
      loadAdmissionLimits({ QUARRY_HEADERS_TIMEOUT_MS: '5000', QUARRY_REQUEST_TIMEOUT_MS: '1000' }),
    ).toThrow(/must not exceed/);
  });
});

describe('classifyRoute', () => {
  it.each([
    ['POST', '/v1/datasets/logs/ingest?timestamp-field=t', 'ingest'],
    ['POST', '/v1/ingest/logs', 'ingest'],
    ['POST', '/services/collector/raw', 'ingest'],
    ['POST', '/v1/traces', 'ingest'],
    ['POST', '/v1/datasets/_apl?format=tabular', 'query'],
    ['POST', '/v1/query/_mpl', 'query'],
    ['POST', '/v1/datasets/logs/query', 'query'],
    ['POST', '/internal/v1/aggregate', 'other'],
    ['GET', '/v1/datasets/logs/ingest', 'other'],
    ['POST', '/v2/datasets', 'other'],
  ])('%s %s is %s', (method, url, expected) => {
    expect(classifyRoute(method, url)).toBe(expected);
  });
});

describe('FixedWindowCounter', () => {
  it('refuses past the limit and starts over in the next window', () => {
    const counter = new FixedWindowCounter(3, 60_000);
    const t = 1_800_000_000_000;
    expect([1, 2, 3, 4].map(() => counter.take('a', 1, t).allowed)).toEqual([true, true, true, false]);
    expect(counter.take('a', 1, t).remaining).toBe(0);
    expect(counter.take('b', 1, t).allowed).toBe(true);
    const next = counter.take('a', 1, t + 60_000);
    expect(next).toEqual({ allowed: true, limit: 3, remaining: 2, resetEpochSeconds: t / 1000 + 120 });
  });

  it('forgets the least recently seen subject past its bound', () => {
    const counter = new FixedWindowCounter(1, 60_000, 100);
    for (let i = 0; i < 1000; i++) counter.take(`k${i}`, 1, 0);
    expect(counter.size).toBe(100);
  });
});

describe('subjectOf', () => {
  it('charges a token by its hash, with its scope, and anonymous callers by address', () => {
    const pat = subjectOf('Bearer xapt-abc', '/x', '1.2.3.4');
    expect(pat.scope).toBe('user');
    expect(pat.key).not.toContain('xapt');
    expect(subjectOf('Bearer xaat-abc', '/x', undefined).scope).toBe('organization');
    expect(subjectOf(undefined, '/x?tk=xaat-abc', undefined)).toEqual(
      subjectOf('Bearer xaat-abc', '/y', undefined),
    );
    const basic = `Basic ${Buffer.from('x:xaat-abc').toString('base64')}`;
    expect(subjectOf(basic, '/x', undefined).key).toBe(subjectOf('Splunk xaat-abc', '/x', undefined).key);
    expect(subjectOf(undefined, '/x', '1.2.3.4')).toEqual({ key: 'ip:1.2.3.4', scope: 'anonymous' });
  });
});

describe('Admission', () => {
  it('lets a lone request through whatever its size, and refuses bytes that do not fit beside others', () => {
    const admission = new Admission(limits({ ingestMaxInflightBytes: 100 }));
    expect(admission.reserveIngest(500)).toBe(true);
    expect(admission.reserveIngest(1)).toBe(false);
    admission.releaseIngest(500);
    expect(admission.reserveIngest(60)).toBe(true);
    expect(admission.reserveIngest(40)).toBe(true);
    expect(admission.reserveIngest(1)).toBe(false);
    // A request metering its own body is not refused because of its own bytes.
    admission.releaseIngest(40);
    expect(admission.reserveIngest(100, 60)).toBe(true);
  });

  it('queues queries past the slots, admits them in order, and refuses a full queue', async () => {
    const admission = new Admission(limits({ queryMaxConcurrent: 1, queryMaxQueued: 1 }));
    const never = () => {};
    const first = await admission.acquireQuery(never);
    expect(typeof first).toBe('function');
    const second = admission.acquireQuery(never);
    expect(await admission.acquireQuery(never)).toBe('query_queue_full');
    expect(admission.queriesQueued).toBe(1);
    (first as () => void)();
    const admitted = await second;
    expect(typeof admitted).toBe('function');
    expect(admission.queriesRunning).toBe(1);
    (admitted as () => void)();
    (admitted as () => void)(); // releasing twice gives back one slot only
    expect(admission.queriesRunning).toBe(0);
  });

  it('drops a waiting query whose client left', async () => {
    const admission = new Admission(limits({ queryMaxConcurrent: 1, queryMaxQueued: 5 }));
    await admission.acquireQuery(() => {});
    let cancel: () => void = () => {};
    const waiting = admission.acquireQuery((c) => (cancel = c));
    cancel();
    expect(await waiting).toBeNull();
    expect(admission.queriesQueued).toBe(0);
  });
});

describe('a query whose client leaves while it waits for a slot', () => {
  it('never runs, and the slot goes to the next one in line', async () => {
    const app = Fastify();
    registerRawBodyParser(app, 1 << 20);
    const admission = new Admission(limits({ queryMaxConcurrent: 1, queryMaxQueued: 5 }));
    registerAdmission(app, admission);
    const ran: string[] = [];
    let finishFirst: () => void = () => {};
    app.post('/v1/datasets/_apl', async (request) => {
      const name = (request.query as { name: string }).name;
      ran.push(name);
      if (name === 'first') await new Promise<void>((resolve) => (finishFirst = resolve));
      return { name };
    });
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const query = (name: string, signal?: AbortSignal) =>
        fetch(`${url}/v1/datasets/_apl?name=${name}`, { method: 'POST', body: '{}', signal });
      const first = query('first');
      while (ran.length === 0) await new Promise((r) => setTimeout(r, 5));
      const leaving = new AbortController();
      const gone = query('gone', leaving.signal).catch(() => 'aborted');
      while (admission.queriesQueued === 0) await new Promise((r) => setTimeout(r, 5));
      leaving.abort();
      expect(await gone).toBe('aborted');
      while (admission.queriesQueued > 0) await new Promise((r) => setTimeout(r, 5));
      const third = query('third');
      while (admission.queriesQueued === 0) await new Promise((r) => setTimeout(r, 5));
      finishFirst();
      expect((await first).status).toBe(200);
      expect((await third).status).toBe(200);
      expect(ran).toEqual(['first', 'third']);
      expect(admission.queriesRunning).toBe(0);
    } finally {
      await app.close();
    }
  });
});

describe('registerAdmission over HTTP', () => {
  let app: FastifyInstance;
  let url: string;
  const admission = new Admission(
    limits({ rateLimitPerMinute: 3, ingestQuotaBytes: 10, ingestMaxInflightBytes: 1000 }),
  );

  beforeAll(async () => {
    app = Fastify();
    registerRawBodyParser(app, 1 << 20);
    registerAdmission(app, admission);
    app.post('/v1/datasets/:d/ingest', async (request) => ({ bytes: (request.body as Buffer).length }));
    app.get('/healthz', async () => ({ ok: true }));
    url = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => app.close());

  const ingest = (token: string, body: string) =>
    fetch(`${url}/v1/datasets/a/ingest`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body,
    });

  it('answers 429 with the four X-RateLimit headers once a token spent its requests', async () => {
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 4; i++) {
      last = await ingest('xaat-rate', '{}');
      statuses.push(last.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(await last!.json()).toMatchObject({ message: 'rate limit exceeded' });
    expect(last!.headers.get('x-ratelimit-scope')).toBe('organization');
    expect(last!.headers.get('x-ratelimit-limit')).toBe('3');
    expect(last!.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(last!.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // Probes are never limited.
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
  });

  it('answers 429 with X-IngestLimit headers once a token spent its ingest quota', async () => {
    const first = await ingest('xaat-quota', '"0123456789ab"');
    expect(first.status).toBe(200);
    expect(first.headers.get('x-ingestlimit-limit')).toBe('10');
    const second = await ingest('xaat-quota', '{}');
    expect(second.status).toBe(429);
    expect(second.headers.get('x-ingestlimit-remaining')).toBe('0');
    expect(await second.json()).toMatchObject({ message: 'ingest limit exceeded' });
    expect(admission.ingestInflightBytes).toBe(0);
  });
});

describe('queryCostGbMs', () => {
  it('counts 1 GB per millisecond of running time, rounded up, at least 1', () => {
    expect(queryCostGbMs(0n)).toBe(1);
    expect(queryCostGbMs(1_500_000n)).toBe(2);
    expect(queryCostGbMs(1_000_000_000n)).toBe(1000);
  });
});

describe('the query-cost budget and the decompressed ingest quota over HTTP', () => {
  let app: FastifyInstance;
  let url: string;
  const admission = new Admission(limits({ queryCostBudgetGbMs: 1_000_000, ingestQuotaBytes: 500 }));
  const tight = new Admission(limits({ queryCostBudgetGbMs: 1 }));
  let tightApp: FastifyInstance;
  let tightUrl: string;

  const build = async (a: Admission) => {
    const server = Fastify();
    registerRawBodyParser(server, 1 << 20);
    registerAdmission(server, a);
    server.post('/v1/datasets/_apl', async () => ({ tables: [] }));
    server.post('/v1/datasets/:d/query', async () => ({ matches: [] }));
    server.post('/v1/datasets/:d/ingest', async (request) => {
      // As the ingest controller does: the body inflated to 400 bytes (its processedBytes).
      noteIngestedBytes(request, 400);
      return { ingested: 1 };
    });
    server.get('/v2/datasets', async () => []);
    return { server, url: await server.listen({ port: 0, host: '127.0.0.1' }) };
  };

  beforeAll(async () => {
    ({ server: app, url } = await build(admission));
    ({ server: tightApp, url: tightUrl } = await build(tight));
  });
  afterAll(async () => {
    await app.close();
    await tightApp.close();
  });

  const post = (base: string, path: string, token: string, body = '{"apl":"x"}') =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body,
    });

  it('puts X-QueryLimit-* on every query answer, the remaining budget falling with each query', async () => {
    const first = await post(url, '/v1/datasets/_apl?format=tabular', 'xaat-cost');
    const second = await post(url, '/v1/datasets/logs/query', 'xaat-cost');
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(first.headers.get('x-querylimit-limit')).toBe('1000000');
    const r1 = Number(first.headers.get('x-querylimit-remaining'));
    const r2 = Number(second.headers.get('x-querylimit-remaining'));
    expect(Number.isInteger(r1) && Number.isInteger(r2)).toBe(true);
    expect(r1).toBeLessThan(1_000_000);
    expect(r2).toBeLessThan(r1);
    expect(Number(first.headers.get('x-querylimit-reset'))).toBeGreaterThan(Date.now() / 1000);
    // Not on other routes.
    const other = await fetch(`${url}/v2/datasets`, { headers: { authorization: 'Bearer xaat-cost' } });
    expect(other.headers.get('x-querylimit-limit')).toBeNull();
  });

  it('answers 429 with the three headers once the budget is spent, per token', async () => {
    const first = await post(tightUrl, '/v1/datasets/_apl', 'xaat-spent');
    expect(first.status).toBe(200);
    expect(first.headers.get('x-querylimit-remaining')).toBe('0');
    const refused = await post(tightUrl, '/v1/datasets/_apl', 'xaat-spent');
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ message: 'query limit exceeded' });
    expect(refused.headers.get('x-querylimit-limit')).toBe('1');
    expect(refused.headers.get('x-querylimit-remaining')).toBe('0');
    expect(Number(refused.headers.get('x-querylimit-reset'))).toBeGreaterThan(Date.now() / 1000);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(tight.queriesRunning).toBe(0);
    // Another token has its own budget.
    expect((await post(tightUrl, '/v1/datasets/_apl', 'xaat-other')).status).toBe(200);
  });

  it('sends no X-QueryLimit header when the budget is off', async () => {
    const { server, url: offUrl } = await build(new Admission(limits()));
    try {
      const res = await post(offUrl, '/v1/datasets/_apl', 'xaat-off');
      expect(res.status).toBe(200);
      expect(res.headers.get('x-querylimit-limit')).toBeNull();
    } finally {
      await server.close();
    }
  });

  it('charges the ingest quota the bytes after decompression the route reported, not the bytes sent', async () => {
    // 2 bytes on the wire, 400 after "decompression": the quota of 500 is spent after two requests.
    const first = await post(url, '/v1/datasets/a/ingest', 'xaat-inflate', '{}');
    expect(first.status).toBe(200);
    const second = await post(url, '/v1/datasets/a/ingest', 'xaat-inflate', '{}');
    expect(second.status).toBe(200);
    expect(second.headers.get('x-ingestlimit-remaining')).toBe('100');
    const third = await post(url, '/v1/datasets/a/ingest', 'xaat-inflate', '{}');
    expect(third.status).toBe(429);
    expect(third.headers.get('x-ingestlimit-remaining')).toBe('0');
  });
});

/** Admission for whole messages (OTLP/gRPC): the HTTP hooks' checks, in their order, on the same counters. */
describe('admitMessage', () => {
  const subject = subjectOf('Bearer xaat-grpc', '', '127.0.0.1');
  const refusal = (r: MessageRefusal | MessageTicket) => ('reason' in r ? r : null);

  it('charges the quota only for an export that succeeded, with the bytes it decoded to', () => {
    const admission = new Admission(limits({ ingestQuotaBytes: 100 }));
    const failed = admitMessage(admission, subject, 80) as MessageTicket;
    failed.done({ ok: false });
    expect(admission.peekQuota(subject.key)?.remaining).toBe(100);
    const ok = admitMessage(admission, subject, 10) as MessageTicket;
    ok.done({ ok: true, ingestedBytes: 150 });
    ok.done({ ok: true, ingestedBytes: 150 }); // once only
    expect(admission.peekQuota(subject.key)?.remaining).toBe(0);
    expect(refusal(admitMessage(admission, subject, 10))).toMatchObject({
      reason: 'ingest_quota',
      kind: 'throttled',
      state: { limit: 100, remaining: 0 },
    });
  });

  it('counts every message against the token request rate and refuses once it is spent', () => {
    const admission = new Admission(limits({ rateLimitPerMinute: 2 }));
    const rejected: string[] = [];
    admission.onRejected = (reason) => rejected.push(reason);
    (admitMessage(admission, subject, 1) as MessageTicket).done({ ok: true });
    (admitMessage(admission, subject, 1) as MessageTicket).done({ ok: true });
    const third = refusal(admitMessage(admission, subject, 1));
    expect(third).toMatchObject({ reason: 'rate_limit', kind: 'throttled', scope: 'organization' });
    expect(third!.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(third!.retryAfterSeconds).toBeLessThanOrEqual(60);
    expect(rejected).toEqual(['rate_limit']);
  });

  it('holds the message bytes in the in-flight budget until done, and refuses past it', () => {
    const admission = new Admission(limits({ ingestMaxInflightBytes: 100, retryAfterSeconds: 7 }));
    const first = admitMessage(admission, subject, 60) as MessageTicket;
    expect(admission.ingestInflightBytes).toBe(60);
    expect(refusal(admitMessage(admission, subject, 60))).toEqual({
      reason: 'ingest_inflight_bytes',
      kind: 'overloaded',
      message: expect.stringMatching(/retry shortly/),
      retryAfterSeconds: 7,
    });
    first.done({ ok: true });
    expect(admission.ingestInflightBytes).toBe(0);
    const second = admitMessage(admission, subject, 60) as MessageTicket;
    expect(refusal(second)).toBeNull();
    second.done({ ok: false });
    expect(admission.ingestInflightBytes).toBe(0);
  });
});
