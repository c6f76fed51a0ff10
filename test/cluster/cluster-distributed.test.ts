import * as http from 'node:http';
import fc from 'fast-check';
import { ownerOf } from '@quarry/server';
import { expectCorpusPasses, ingestCorpusAsBlocks } from '../suites/apl-conformance.suite';
import { metricsConformanceSuite } from '../suites/metrics-conformance.suite';
import { describeCluster, startClusterTarget, type ClusterTarget } from '../support/cluster-target';
import { startTestServer, type TargetOpener, type TestTarget } from '../support/test-server';

/**
 * Distributed queries (issue 14): with three query nodes and the split thresholds at one row and one
 * series, every summarize and every take or top over a filtered scan of more than one block is dealt
 * over the nodes by rendezvous hashing on block id, and every MPL query with an `align` is split over
 * series; the node that received the query merges. The answers must be the single-process answers —
 * both conformance corpora pass exactly as on the standalone, and generated queries over generated
 * events answer as a standalone server does — and a share whose node is gone, frozen, on another
 * version or answering garbage is computed elsewhere.
 */
describeCluster('distributed queries', () => {
  let target: ClusterTarget;
  const fakes: http.Server[] = [];
  const beats: NodeJS.Timeout[] = [];

  beforeAll(async () => {
    target = await startClusterTarget(
      {
        QUARRY_QUERY_SPLIT_MIN_ROWS: '1',
        QUARRY_MPL_SPLIT_MIN_SERIES: '1',
        QUARRY_MERGE_INTERVAL_MS: '3600000', // keep many blocks: more to deal out
        QUARRY_QUERY_RPC_TIMEOUT_MS: '3000',
        QUARRY_HEARTBEAT_MS: '300',
        QUARRY_MEMBER_TIMEOUT_MS: '3000',
      },
      { counts: { query: 3 } },
    );
    // The corpus's events as several blocks (compacted chunk by chunk), plus a last chunk in the tail.
    await ingestCorpusAsBlocks(target, () => target.compact());
  }, 240_000);
  afterAll(async () => {
    for (const beat of beats) clearInterval(beat);
    for (const fake of fakes) fake.close();
    await target?.close();
  }, 120_000);

  const queryNode = (i: number) => target.cluster.nodesOf('query')[i];

  /**
   * The same table up to the last bits of float sums: partial sums merged in another order (shares dealt
   * over another set of nodes) round differently, as in any parallel engine.
   */
  function expectSameColumns(actual: unknown[][], expected: unknown[][]): void {
    expect(actual.length).toBe(expected.length);
    actual.forEach((column, c) => {
      expect(column.length).toBe(expected[c].length);
      column.forEach((value, r) => {
        const want = expected[c][r];
        // (a stdev of integers may be a whole number one way and off by an ulp the other; a sum of reals
        // added in another order differs by rounding relative to its terms, which can exceed 1e-12 of a
        // result that cancels — 1e-9 still catches a missing or doubled row)
        if (
          typeof value === 'number' &&
          typeof want === 'number' &&
          !(Number.isInteger(want) && Number.isInteger(value))
        )
          expect(Math.abs(value - want)).toBeLessThanOrEqual(Math.max(Math.abs(want), 1) * 1e-9);
        else expect(value).toEqual(want);
      });
    });
  }

  /** With `explain` (the default here), the status says which node computed which share. */
  async function summarize(base = target.url, explain = true) {
    const res = await fetch(`${base}/v1/datasets/_apl?format=tabular${explain ? '&explain=true' : ''}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${target.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        apl: "['sample-http-logs'] | summarize n = count(), total = sum(req_duration_ms) by status | order by status asc",
        startTime: '2000-01-01T00:00:00Z',
        endTime: '2100-01-01T00:00:00Z',
      }),
    });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    return { status: res.status, body: (await res.json()) as any };
  }

  /** A fake query node registered in the metastore, answering the internal RPC with `answer`. */
  async function fakeMember(
    nodeId: string,
    answer: (req: http.IncomingMessage, res: http.ServerResponse) => void,
    rpcVersion = 1,
  ): Promise<{ requests: string[] }> {
    const requests: string[] = [];
    const server = http.createServer((req, res) => {
      requests.push(req.url ?? '');
      req.resume();
      req.on('end', () => answer(req, res));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    fakes.push(server);
    const port = (server.address() as { port: number }).port;
    const beat = () =>
      target.metastore.cluster.heartbeat({
        nodeId,
        roles: ['query'],
        advertiseUrl: `http://127.0.0.1:${port}`,
        version: 'fake',
        rpcVersion,
        startedAt: new Date().toISOString(),
      });
    await beat();
    beats.push(setInterval(() => void beat(), 300));
    await new Promise((r) => setTimeout(r, 1000)); // every query node has seen it join
    return { requests };
  }

  it('answers the APL conformance corpus exactly as one process does, with summarizes split over three nodes', async () => {
    await expectCorpusPasses(target, []);
    const { status, body } = await summarize();
    expect(status).toBe(200);
    const nodes = body.status.nodes as { node: string; blocksExamined: number }[];
    expect(new Set(nodes.map((n) => n.node)).size).toBeGreaterThanOrEqual(2);
    expect(nodes.reduce((n, s) => n + s.blocksExamined, 0)).toBeGreaterThanOrEqual(5);
    // Each query node counts the summarizes it coordinated and the shares it sent away.
    let splits = 0;
    let remoteShares = 0;
    for (const node of target.cluster.nodesOf('query')) {
      const text = await (await fetch(`${node.url}/metrics`)).text();
      splits += Number(/^quarry_distributed_queries (\d+)/m.exec(text)?.[1] ?? NaN);
      remoteShares += Number(/^quarry_distributed_remote_shares (\d+)/m.exec(text)?.[1] ?? NaN);
    }
    expect(splits).toBeGreaterThan(0);
    expect(remoteShares).toBeGreaterThan(0);
  }, 180_000);

  /** Queries split over the query nodes so far, summed over the nodes (each counts what it coordinated). */
  async function splitsSoFar(): Promise<number> {
    let splits = 0;
    for (const node of target.cluster.nodesOf('query')) {
      const text = await (await fetch(`${node.url}/metrics`)).text();
      splits += Number(/^quarry_distributed_queries (\d+)/m.exec(text)?.[1] ?? NaN);
    }
    return splits;
  }

  // The MPL corpus with every query's series split over the three query nodes (each node reads the
  // series it owns and aligns them; the receiving node groups and computes): answers as on one process.
  let splitsBeforeMpl = 0;
  it('counts the splits before the MPL corpus', async () => {
    splitsBeforeMpl = await splitsSoFar();
  });
  const shared: TargetOpener = async () => ({ ...target, close: async () => undefined });
  metricsConformanceSuite(shared);
  it('split the MPL corpus over series', async () => {
    expect((await splitsSoFar()) - splitsBeforeMpl).toBeGreaterThanOrEqual(40);
  });

  /** Generated events: keys with nulls, mixed integer/float values, strings, over a day. */
  const generatedEvent = fc.record({
    k: fc.constantFrom('a', 'b', 'c', 'd', null),
    g: fc.integer({ min: 0, max: 9 }),
    x: fc.oneof(
      fc.integer({ min: -1000, max: 1000 }),
      fc.double({ min: -1e6, max: 1e6, noNaN: true }),
      fc.constant(null),
    ),
    s: fc.stringMatching(/^[a-f]{1,3}$/),
    _time: fc
      .integer({ min: 0, max: 86_399_999 })
      .map((ms) => new Date(Date.UTC(2024, 4, 1) + ms).toISOString()),
  });

  /** A summarize over a row-wise chain (what the cluster splits), its rows put in a canonical order. */
  const generatedQuery = fc
    .record({
      filter: fc.constantFrom(
        '',
        "| where k != 'a'",
        '| where g > 4',
        '| where isnotnull(x)',
        '| extend y = g * 2 | where y < 12',
      ),
      agg: fc.constantFrom(
        'count()',
        'sum(x)',
        'min(x)',
        'max(x)',
        'avg(x)',
        'dcount(s)',
        'countif(g > 6)',
        'sumif(x, k == "b")',
        'stdev(x)',
        'max(_time)',
      ),
      by: fc.constantFrom('', 'by k', 'by g', 'by k, g', 'by bin(_time, 1h)', 'by s'),
    })
    .map(({ filter, agg, by }) => `['generated'] ${filter} | summarize v = ${agg} ${by}`);

  it('answers generated summarizes over generated events exactly as one process does', async () => {
    const reference: TestTarget = await startTestServer();
    try {
      const events = fc.sample(generatedEvent, 3000);
      for (const server of [target, reference] as TestTarget[]) {
        expect((await server.request('POST', '/v2/datasets', { body: { name: 'generated' } })).status).toBe(
          200,
        );
        for (let i = 0; i < events.length; i += 600) {
          const res = await server.request('POST', '/v1/datasets/generated/ingest', {
            // `i`: a unique number, to order rows totally (a top's ties are broken by scan order, and the
            // cluster's blocks hold other rows than the standalone's: its compactors split partitions)
            body: events.slice(i, i + 600).map((e, j) => ({ ...e, i: i + j })),
          });
          expect(res.status).toBe(200);
          if (i + 600 < events.length) await server.compact(); // blocks to deal out; the last chunk in the tail
        }
      }
      const run = async (server: TestTarget, apl: string) => {
        const res = await server.request('POST', '/v1/datasets/_apl?format=tabular', {
          body: { apl, startTime: '2024-05-01T00:00:00Z', endTime: '2024-05-02T00:00:00Z' },
        });
        const body = await res.json();
        expect({ apl, status: res.status }).toEqual({ apl, status: 200 });
        return body.tables[0].columns as unknown[][];
      };
      let splitSomewhere = false;
      await fc.assert(
        fc.asyncProperty(generatedQuery, async (apl) => {
          const [distributed, single] = [await run(target, apl), await run(reference, apl)];
          expectSameColumns(sortedRows(distributed), sortedRows(single));
          const { body } = await summarizeWith(apl);
          if (new Set((body.status.nodes as { node: string }[]).map((n) => n.node)).size > 1)
            splitSomewhere = true;
        }),
        { numRuns: 40 },
      );
      expect(splitSomewhere).toBe(true);

      // Takes and tops over a filter, and the filtered rows feeding a sort or a join: each node reads its
      // blocks' rows, the coordinator keeps the best or sorts or joins them.
      let rowsSplitSomewhere = false;
      await fc.assert(
        fc.asyncProperty(generatedRowsQuery, async ({ apl, exact }) => {
          const [distributed, single] = [await run(target, apl), await run(reference, apl)];
          if (exact) expect({ apl, rows: distributed }).toEqual({ apl, rows: single });
          else {
            // Which rows a take keeps depends on the blocks; how many does not, nor that they match.
            expect({ apl, rows: distributed[0]?.length }).toEqual({ apl, rows: single[0]?.length });
            expect(new Set(distributed[0]).size).toBe(distributed[0]?.length ?? 0);
          }
          const { body } = await summarizeWith(apl);
          if (new Set((body.status.nodes as { node: string }[] | undefined)?.map((n) => n.node)).size > 1)
            rowsSplitSomewhere = true;
        }),
        { numRuns: 30 },
      );
      expect(rowsSplitSomewhere).toBe(true);
    } finally {
      await reference.close();
    }
  }, 240_000);

  /**
   * A take or top over a filter, or a sort or join over filtered rows; `exact`: totally ordered (by the
   * unique `i` last), so row for row.
   */
  const generatedRowsQuery = fc.oneof(
    fc
      .record({
        filter: fc.constantFrom("| where k != 'a'", '| where g > 4', '| where isnotnull(x)'),
        by: fc.constantFrom('x desc', 'k asc, g desc', 's desc nulls first', 'g * 2 asc'),
        n: fc.integer({ min: 1, max: 60 }),
      })
      .map(({ filter, by, n }) => ({
        apl: `['generated'] ${filter} | top ${n} by ${by}, i asc | project i, k, g, x`,
        exact: true,
      })),
    fc
      .record({
        filter: fc.constantFrom("| where k == 'b'", '| where g == 3 and isnotnull(x)'),
        n: fc.integer({ min: 1, max: 2000 }),
      })
      .map(({ filter, n }) => ({ apl: `['generated'] ${filter} | project i, g | take ${n}`, exact: false })),
    // A search: `take` over rows with _time is the newest N (top by _time, each node its newest first);
    // which of several rows with the very same _time at the N-th place it keeps is not specified, so
    // the times are compared (generated times crowd at the ends of the day: ties happen).
    fc
      .record({
        filter: fc.constantFrom("| where k == 'b'", '| where g > 4', '| where isnotnull(x)'),
        n: fc.integer({ min: 1, max: 50 }),
      })
      .map(({ filter, n }) => ({
        apl: `['generated'] ${filter} | take ${n} | project _time`,
        exact: true,
      })),
    // A sort without take, a join: the filtered rows are read on every node, the rest runs here.
    fc.constantFrom("| where k != 'a'", '| where g > 4', '| where isnotnull(x)').map((filter) => ({
      apl: `['generated'] ${filter} | sort by i asc | summarize l = make_list(i), n = count()`,
      exact: true,
    })),
    fc.constantFrom("| where k == 'b'", '| where g == 3').map((filter) => ({
      apl: `['generated'] ${filter} | project i | join kind=inner (['generated'] | where g > 4 | project i, g) on i | summarize n = count(), s = sum(g)`,
      exact: true,
    })),
  );

  /** One APL query on the cluster with `explain` (which nodes computed it). */
  async function summarizeWith(apl: string) {
    const res = await target.request('POST', '/v1/datasets/_apl?format=tabular&explain=true', {
      body: { apl, startTime: '2024-05-01T00:00:00Z', endTime: '2024-05-02T00:00:00Z' },
    });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    return { status: res.status, body: (await res.json()) as any };
  }

  /** Columns with their rows in a canonical order (a summarize's group order is not specified). */
  function sortedRows(columns: unknown[][]): unknown[][] {
    const rows = (columns[0] ?? []).map((_, r) => columns.map((c) => c[r]));
    const key = (row: unknown[]) =>
      JSON.stringify(row.slice(0, -1)) +
      JSON.stringify(typeof row.at(-1) === 'number' ? Math.round(row.at(-1) as number) : row.at(-1));
    rows.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
    return columns.map((_, c) => rows.map((row) => row[c]));
  }

  it('explains itself: ?explain=true adds the plan, and every distributed query says which node read what', async () => {
    const { status, body } = await summarize(target.url);
    expect(status).toBe(200);
    expect(body.status.plan).toMatch(/aggregate/i);
    expect(body.status.plan).toMatch(/scan/i);
    const nodes = body.status.nodes as {
      node: string;
      blocksExamined: number;
      rowsExamined: number;
      blockBytes: number;
      elapsedMs: number;
    }[];
    expect(nodes.length).toBeGreaterThanOrEqual(2);
    for (const n of nodes) {
      expect(n.elapsedMs).toBeGreaterThanOrEqual(0);
      expect(n.blockBytes).toBeGreaterThan(0);
    }
    expect(nodes.reduce((a, n) => a + n.rowsExamined, 0)).toBeLessThanOrEqual(body.status.rowsExamined);
    // Without it, exactly Axiom's status: strict clients refuse keys they do not know.
    const plain = await summarize(target.url, false);
    expect(plain.body.status.plan).toBeUndefined();
    expect(plain.body.status.nodes).toBeUndefined();
  });

  it('lists the members with GET /v1/cluster for administrators only, and marks a silent one down', async () => {
    const res = await target.request('GET', '/v1/cluster');
    expect(res.status).toBe(200);
    const body = await res.json();
    const up = (body.members as { nodeId: string; roles: string[]; state: string; url: string }[]).filter(
      (m) => m.state === 'up',
    );
    for (const role of ['ingest', 'query', 'compactor', 'management'])
      expect(up.filter((m) => m.roles.includes(role)).length).toBeGreaterThanOrEqual(
        role === 'query' ? 3 : 1,
      );
    expect(up.find((m) => m.nodeId === 'query-1')?.url).toBe(queryNode(0).url);
    // Not for a token without every org capability, nor for a personal access token.
    const scoped = await target.request('POST', '/v2/tokens', {
      body: { name: 'reader', orgCapabilities: { datasets: ['read'] } },
    });
    const { token } = await scoped.json();
    expect(
      (await target.request('GET', '/v1/cluster', { headers: { Authorization: `Bearer ${token}` } })).status,
    ).toBe(403);
    const pat = await target.request('GET', '/v1/cluster', {
      headers: { Authorization: `Bearer ${target.pat}`, 'X-Axiom-Org-Id': target.orgId },
    });
    expect(pat.status).toBe(403);
    // A member that stops beating is down after QUARRY_MEMBER_TIMEOUT_MS (3 s here).
    const frozen = target.cluster.nodesOf('ingest')[1];
    frozen.pause();
    try {
      await new Promise((r) => setTimeout(r, 4_000));
      const later = await (await target.request('GET', '/v1/cluster')).json();
      expect(later.members.find((m: { nodeId: string }) => m.nodeId === frozen.name)?.state).toBe('down');
    } finally {
      frozen.resume();
    }
  }, 30_000);

  /** A node name that, once it joins, owns some of the dataset's blocks (rendezvous hashing on block id). */
  async function owningName(prefix: string): Promise<string> {
    const dataset = (await target.metastore.datasets.getByName('sample-http-logs'))!;
    const blockIds = (await target.metastore.blocks.listBlocks(dataset.id)).map((b) => b.id);
    const queryIds = target.cluster.nodesOf('query').map((n) => n.name);
    for (let i = 0; ; i++) {
      const candidate = `${prefix}-${i}`;
      if (blockIds.some((id) => ownerOf(id, [...queryIds, candidate]) === candidate)) return candidate;
    }
  }

  async function until(condition: () => boolean, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!condition() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  }

  it('cancels the shares sent to other nodes when the client goes away', async () => {
    // A member that takes its share and never answers: only the coordinator closing the connection
    // (the client went away) ends the request before the 3 s RPC timeout.
    const holdId = await owningName('query-zz-hold');
    let received = 0;
    let closedAfterMs = -1;
    const hold = await fakeMember(holdId, (req) => {
      received = Date.now();
      req.socket.once('close', () => (closedAfterMs = Date.now() - received));
    });
    const client = new AbortController();
    const pending = fetch(`${queryNode(0).url}/v1/datasets/_apl?format=tabular`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${target.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        // Two keys: a summarize the coordinator cannot answer from block value counts, so it sends shares.
        apl: "['sample-http-logs'] | summarize count() by status, method",
        startTime: '2000-01-01T00:00:00Z',
        endTime: '2100-01-01T00:00:00Z',
      }),
      signal: client.signal,
    }).catch((err: unknown) => err);
    await until(() => received > 0, 5000);
    expect(hold.requests.length).toBeGreaterThan(0);
    client.abort();
    expect(await pending).toMatchObject({ name: 'AbortError' });
    await until(() => closedAfterMs >= 0, 5000);
    expect(closedAfterMs).toBeGreaterThanOrEqual(0);
    expect(closedAfterMs).toBeLessThan(1500);
    for (const beat of beats.splice(0)) clearInterval(beat);
    await target.metastore.cluster.leave(holdId);
    await new Promise((r) => setTimeout(r, 1000)); // every query node has seen it leave
  }, 60_000);

  it('never exposes the internal RPC to a user token, nor through the gateway', async () => {
    const direct = await fetch(`${queryNode(0).url}/internal/v1/aggregate`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${target.token}`, 'Content-Type': 'application/vnd.quarry.rpc' },
      body: 'x',
    });
    expect(direct.status).toBe(403);
    expect(((await direct.json()) as { message: string }).message).toMatch(/cluster secret/);
    const viaGateway = await fetch(`${target.url}/internal/v1/aggregate`, { method: 'POST', body: 'x' });
    expect(viaGateway.status).toBe(404);
  });

  it('re-runs the share of a node that answers garbage elsewhere, and sends nothing to a node on another RPC version', async () => {
    const reference = await summarize();
    expect(reference.status).toBe(200);
    // A name that owns some of the blocks once it joins (shares go by rendezvous hashing on block id).
    const garbageId = await owningName('query-zz-garbage');
    const garbage = await fakeMember(garbageId, (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/vnd.quarry.rpc' });
      res.end(Buffer.from('this is not a partial state'));
    });
    const future = await fakeMember(
      'query-zz-future',
      (_req, res) => res.writeHead(500).end(),
      99, // an RPC version nobody here speaks
    );
    let sawGarbage = false;
    for (let i = 0; i < 6; i++) {
      const { status, body } = await summarize(queryNode(i % 3).url);
      expect(status).toBe(200);
      expectSameColumns(body.tables[0].columns, reference.body.tables[0].columns);
      const failed = (body.status.nodes as { failedOn?: string[] }[]).flatMap((n) => n.failedOn ?? []);
      if (failed.includes(garbageId)) sawGarbage = true;
    }
    expect(garbage.requests.length).toBeGreaterThan(0);
    expect(sawGarbage).toBe(true);
    expect(future.requests).toEqual([]);
    for (const beat of beats.splice(0)) clearInterval(beat);
    for (const nodeId of [garbageId, 'query-zz-future']) await target.metastore.cluster.leave(nodeId);
    await new Promise((r) => setTimeout(r, 1000)); // every query node has seen them leave
  }, 60_000);

  it('re-runs the share of a frozen node once its deadline passes, and answers correctly', async () => {
    // Freeze the query node that owns the most blocks, and ask another one.
    const dataset = (await target.metastore.datasets.getByName('sample-http-logs'))!;
    const blockIds = (await target.metastore.blocks.listBlocks(dataset.id)).map((b) => b.id);
    const nodes = target.cluster.nodesOf('query');
    const owned = (name: string) =>
      blockIds.filter(
        (id) =>
          ownerOf(
            id,
            nodes.map((n) => n.name),
          ) === name,
      ).length;
    const frozen = [...nodes].sort((a, b) => owned(b.name) - owned(a.name))[0];
    const coordinator = nodes.find((n) => n !== frozen)!;
    expect(owned(frozen.name)).toBeGreaterThan(0);
    const reference = await summarize(coordinator.url);
    frozen.pause();
    try {
      // Still a member for QUARRY_MEMBER_TIMEOUT_MS (its last heartbeat is recent): its share times out
      // (QUARRY_QUERY_RPC_TIMEOUT_MS) and is computed by another node.
      const { status, body } = await summarize(coordinator.url);
      expect(status).toBe(200);
      expectSameColumns(body.tables[0].columns, reference.body.tables[0].columns);
      const shares = body.status.nodes as { node: string; failedOn?: string[] }[];
      expect(shares.flatMap((n) => n.failedOn ?? [])).toContain(frozen.name);
      expect(shares.map((n) => n.node)).not.toContain(frozen.name);
    } finally {
      frozen.resume();
    }
  }, 60_000);

  it('answers correctly or 503 — never a smaller answer — while a query node is SIGKILLed', async () => {
    // Kill a node that owns blocks (not the one asked).
    const dataset = (await target.metastore.datasets.getByName('sample-http-logs'))!;
    const blockIds = (await target.metastore.blocks.listBlocks(dataset.id)).map((b) => b.id);
    const names = target.cluster.nodesOf('query').map((n) => n.name);
    const owned = (i: number) => blockIds.filter((id) => ownerOf(id, names) === names[i]).length;
    const victim = owned(1) >= owned(2) ? queryNode(1) : queryNode(2);
    const reference = await summarize(queryNode(0).url);
    const outcomes: number[] = [];
    let stop = false;
    const asking = (async () => {
      while (!stop) {
        const { status, body } = await summarize(queryNode(0).url);
        outcomes.push(status);
        if (status === 200) expectSameColumns(body.tables[0].columns, reference.body.tables[0].columns);
        else expect(status).toBe(503);
      }
    })();
    await new Promise((r) => setTimeout(r, 500));
    await victim.kill();
    await new Promise((r) => setTimeout(r, 4_000)); // past the membership timeout: it is out
    stop = true;
    await asking;
    expect(outcomes.filter((s) => s === 200).length).toBeGreaterThan(0);
    await victim.start();
  }, 90_000);
});
