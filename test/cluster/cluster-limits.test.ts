import { describeCluster, startClusterTarget, type ClusterTarget } from '../support/cluster-target';

/**
 * Cluster-wide per-token limits (issue 17): the ingest quota of a token is one budget for the region,
 * shared by its ingest nodes through the metastore (`admission_counters`), not one budget per node. Two
 * clients hammer the two ingest nodes directly (no gateway in between to spread them), and the bytes
 * admitted across both stay within the quota plus the documented slack — nodes × per-node rate × 2·S —
 * while per-node counting would admit twice the quota.
 */
const QUOTA = 60_000;
const SYNC_MS = 500;
/** Requests per minute per subject (the ingest test's ~80 requests stay well under it). */
const RATE = 300;

describeCluster('cluster-wide limits', () => {
  let target: ClusterTarget;
  beforeAll(async () => {
    target = await startClusterTarget({
      QUARRY_INGEST_QUOTA_BYTES: String(QUOTA),
      QUARRY_RATE_LIMIT_PER_MINUTE: String(RATE),
      QUARRY_LIMITS_SYNC_MS: String(SYNC_MS),
    });
  }, 180_000);
  afterAll(async () => {
    await target?.close();
  }, 120_000);

  /** ~1 KB of events (the quota charges what `processedBytes` says). */
  const body = (n: number) =>
    Array.from({ length: 8 }, (_, i) =>
      JSON.stringify({ client: n, i, message: `event ${i} ${'x'.repeat(90)}` }),
    ).join('\n');

  interface Outcome {
    admittedBytes: number;
    accepted: number;
    refused: number;
    firstMs: number;
    lastAcceptedMs: number;
    remaining: string | null;
  }

  /** Sends bodies to one node, one after another with a pause, until it was refused three times. */
  async function hammer(base: string, dataset: string, n: number): Promise<Outcome> {
    const out: Outcome = {
      admittedBytes: 0,
      accepted: 0,
      refused: 0,
      firstMs: Date.now(),
      lastAcceptedMs: Date.now(),
      remaining: null,
    };
    for (let i = 0; i < 1000 && out.refused < 3; i++) {
      const res = await fetch(`${base}/v1/datasets/${dataset}/ingest`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${target.token}`, 'Content-Type': 'application/x-ndjson' },
        body: body(n),
      });
      const answer = (await res.json()) as { processedBytes?: number };
      if (res.status === 200) {
        out.accepted++;
        out.admittedBytes += answer.processedBytes ?? 0;
        out.lastAcceptedMs = Date.now();
      } else {
        expect(res.status).toBe(429);
        expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
        out.refused++;
      }
      out.remaining = res.headers.get('x-ingestlimit-remaining');
      await new Promise((r) => setTimeout(r, 40));
    }
    return out;
  }

  it('two ingest nodes admit one quota between them, within the documented slack', async () => {
    const dataset = `limits-${Date.now()}`;
    expect((await target.request('POST', '/v2/datasets', { body: { name: dataset } })).status).toBe(200);
    const [a, b] = target.cluster.nodesOf('ingest');
    expect(b).toBeDefined();

    const outcomes = await Promise.all([hammer(a.url, dataset, 0), hammer(b.url, dataset, 1)]);
    const admitted = outcomes[0].admittedBytes + outcomes[1].admittedBytes;
    // The slack from the measured pace: each node's admitted bytes per second × 2·S, plus the one body
    // each node may admit when the quota is crossed (the request that spends it passes).
    const rate = (o: Outcome) => o.admittedBytes / Math.max(0.001, (o.lastAcceptedMs - o.firstMs) / 1000);
    const bodyBytes = Math.max(...outcomes.map((o) => o.admittedBytes / Math.max(1, o.accepted)));
    const slack = outcomes.reduce((sum, o) => sum + rate(o) * ((2 * SYNC_MS) / 1000) + bodyBytes, 0);
    console.log(
      `cluster limits: quota ${QUOTA} B, admitted ${admitted} B (${outcomes.map((o) => o.admittedBytes).join(' + ')}), ` +
        `slack ${Math.round(slack)} B, per-node rates ${outcomes.map((o) => Math.round(rate(o))).join(', ')} B/s`,
    );
    // Both nodes took part, and were stopped by the shared count.
    for (const o of outcomes) {
      expect(o.accepted).toBeGreaterThan(0);
      expect(o.refused).toBe(3);
      expect(o.remaining).toBe('0');
    }
    expect(admitted).toBeGreaterThanOrEqual(QUOTA);
    expect(admitted).toBeLessThanOrEqual(QUOTA + slack);
    // The bound means something here: per-node counting would have admitted at least twice the quota.
    expect(QUOTA + slack).toBeLessThan(2 * QUOTA);

    // The shared row holds exactly what both nodes admitted once they synced.
    const deadline = Date.now() + 10_000;
    let rows: { used: number }[] = [];
    for (;;) {
      rows = await target.metastore.db.query<{ used: number }>(
        "SELECT used::float8 AS used FROM admission_counters WHERE counter LIKE 'ingest_bytes/%'",
      );
      if ((rows.length === 1 && Number(rows[0].used) === admitted) || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(rows.map((r) => Number(r.used))).toEqual([admitted]);
  }, 120_000);

  it('two query nodes count one per-minute request limit between them', async () => {
    // Requests without a token are charged to the client address; they are answered (401 or 404) after
    // the rate limiter counted them, so they exercise the limit without touching the other test's token.
    // One window for the whole run: start early in a minute.
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 40_000) await new Promise((r) => setTimeout(r, 60_000 - intoMinute + 200));
    const nodes = target.cluster.nodesOf('query');
    expect(nodes.length).toBeGreaterThanOrEqual(2);
    const resets = new Set<string>();
    const run = async (base: string) => {
      let admitted = 0;
      let refused = 0;
      const first = Date.now();
      let lastAdmitted = first;
      while (refused < 3 && admitted < 2 * RATE) {
        const res = await fetch(`${base}/v1/datasets`);
        await res.arrayBuffer();
        resets.add(res.headers.get('x-ratelimit-reset') ?? 'none');
        if (res.status === 429) refused++;
        else {
          // 404 on a query node (the dataset list is the management role's), or 401: either way counted.
          expect([401, 404]).toContain(res.status);
          admitted++;
          lastAdmitted = Date.now();
        }
        await new Promise((r) => setTimeout(r, 10));
      }
      return { admitted, rate: admitted / Math.max(0.001, (lastAdmitted - first) / 1000) };
    };
    const outcomes = await Promise.all(nodes.slice(0, 2).map((n) => run(n.url)));
    const admitted = outcomes[0].admitted + outcomes[1].admitted;
    const slack = outcomes.reduce((sum, o) => sum + o.rate * ((2 * SYNC_MS) / 1000) + 1, 0);
    console.log(
      `cluster limits: ${RATE} requests/minute, admitted ${admitted} (${outcomes.map((o) => o.admitted).join(' + ')}), ` +
        `slack ${Math.round(slack)}, per-node rates ${outcomes.map((o) => Math.round(o.rate)).join(', ')}/s`,
    );
    expect([...resets]).toHaveLength(1);
    expect(admitted).toBeGreaterThanOrEqual(RATE);
    expect(admitted).toBeLessThanOrEqual(RATE + slack);
    expect(RATE + slack).toBeLessThan(2 * RATE);
  }, 120_000);
});
