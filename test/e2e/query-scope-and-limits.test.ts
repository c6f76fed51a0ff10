import { sha256Hex } from '@quarry/common';
import { fetchJson, rowsOf, startTestServer, type TestServer } from '../support/test-server';

/**
 * What a query may see and hold: dataset name patterns expand only to datasets the token may read,
 * memory limits answer 400 instead of exhausting the process, and merged blocks answer like the small
 * blocks they replace.
 */
describe('query scope, memory limits and block merging over HTTP', () => {
  let server: TestServer;
  const webOnly = 'xaat-query-web-a-only-00001';

  beforeAll(async () => {
    server = await startTestServer({
      QUARRY_QUERY_MAX_GROUPS: '50',
      // Merges are triggered by the test (deterministic runs); the schedule itself is the runtime's.
      QUARRY_MERGE_INTERVAL_MS: '3600000',
      QUARRY_COMPACT_INTERVAL_MS: '50',
    });
    for (const name of ['web-a', 'web-b', 'other']) {
      await server.request('POST', '/v2/datasets', { body: { name } });
      await server.request('POST', `/v1/ingest/${name}`, {
        body: Array.from({ length: 3 }, (_, i) => ({ source: name, i })),
      });
    }
    await server.quarry.storage.metastore.tokens.create({
      kind: 'api',
      name: 'query web-a only',
      description: '',
      userId: server.quarry.identity.userId,
      viewCapabilities: {},
      secretHash: sha256Hex(webOnly),
      orgCapabilities: {},
      datasetCapabilities: { 'web-a': { query: ['read'] } },
      expiresAt: null,
    });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  const query = (apl: string, token = server.token) =>
    fetchJson(`${server.url}/v1/datasets/_apl?format=tabular`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ apl, startTime: '2000-01-01T00:00:00Z', endTime: '2100-01-01T00:00:00Z' }),
    });

  it('expands union patterns to the datasets the token may read, and refuses named ones it may not', async () => {
    const admin = await query('union web-* | summarize count() by source | sort by source asc');
    expect(rowsOf((await admin.json()).tables[0])).toEqual([
      { source: 'web-a', count_: 3 },
      { source: 'web-b', count_: 3 },
    ]);
    const limited = await query('union web-* | summarize count() by source', webOnly);
    expect(rowsOf((await limited.json()).tables[0])).toEqual([{ source: 'web-a', count_: 3 }]);
    const named = await query("union ['web-a'], ['web-b'] | count", webOnly);
    expect(named.status).toBe(403);
    expect((await named.json()).message).toContain('web-b');
  });

  it("runs Kusto's find over the datasets the token may read, and refuses named ones it may not", async () => {
    const admin = await query('find i == 1 | summarize count() by source_ | sort by source_ asc');
    expect(rowsOf((await admin.json()).tables[0])).toEqual([
      { source_: 'other', count_: 1 },
      { source_: 'web-a', count_: 1 },
      { source_: 'web-b', count_: 1 },
    ]);
    const limited = await query('find withsource=t where i == 2 project source, i', webOnly);
    expect(rowsOf((await limited.json()).tables[0])).toEqual([{ t: 'web-a', source: 'web-a', i: 2 }]);
    const named = await query("find in (['web-a'], ['web-b']) where i == 1", webOnly);
    expect(named.status).toBe(403);
    expect((await named.json()).message).toContain('web-b');
    const unknown = await query("find in (['web-a']) where i == 1 project nosuch");
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).message).toContain("'nosuch'");
  });

  it('answers 400 with the limit when a summarize has too many groups', async () => {
    await server.request('POST', '/v1/ingest/other', {
      body: Array.from({ length: 80 }, (_, i) => ({ source: 'other', id: `id-${i}` })),
    });
    const res = await query("['other'] | summarize count() by id");
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.message).toContain('more than 50 groups');
  });

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const check = (body: any) => {
    if (!body.tables) throw new Error(JSON.stringify(body));
    return body;
  };

  it('merges the many small blocks of a busy dataset without changing answers', async () => {
    await server.request('POST', '/v2/datasets', { body: { name: 'busy' } });
    let expected = 0;
    for (let batch = 0; batch < 10; batch++) {
      const events = Array.from({ length: 20 }, (_, i) => ({ n: batch * 20 + i }));
      expected += events.reduce((s, e) => s + e.n, 0);
      await server.request('POST', '/v1/ingest/busy', { body: events });
      await server.quarry.storage.compactor!.flush(); // one block per batch
    }
    const id = server.quarry.storage.registry.getByName('busy')!.id;
    const sum = async () =>
      rowsOf(check(await (await query("['busy'] | summarize s = sum(n), c = count()")).json()).tables[0]);
    expect(await sum()).toEqual([{ s: expected, c: 200 }]);
    expect(server.quarry.storage.blocks.list(id)).toHaveLength(10);
    expect(await server.quarry.storage.merger!.mergeAll()).toMatchObject({ merged: 1, replaced: 10 });
    // One block holding all ten compactions' rows, written by the merger (not by a single compaction).
    const [merged] = server.quarry.storage.blocks.list(id);
    expect(server.quarry.storage.blocks.list(id)).toHaveLength(1);
    expect(merged.rowCount).toBe(200);
    expect(merged.objectKey).toContain('.merged.');
    expect(await sum()).toEqual([{ s: expected, c: 200 }]);
  }, 60_000);
});
