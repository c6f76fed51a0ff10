import { Axiom, AxiomWithoutBatching } from '@axiomhq/js';
import type { TargetOpener, TestTarget } from '../support/test-server';

/** The official JavaScript client against a running server: datasets, ingest (gzip NDJSON), both query formats. */
export function axiomJsSuite(open: TargetOpener): void {
  describe('@axiomhq/js round trip', () => {
    let server: TestTarget;

    beforeAll(async () => {
      server = await open();
    });
    afterAll(async () => {
      await server?.close();
    });

    it('creates a dataset, ingests with and without batching, and queries tabular and legacy', async () => {
      const errors: unknown[] = [];
      const axiom = new Axiom({ token: server.token, url: server.url, onError: (e) => errors.push(e) });
      const dataset = 'js-client';

      const created = await axiom.datasets.create({ name: dataset, description: 'from @axiomhq/js' });
      expect(created.name).toBe(dataset);
      expect((await axiom.datasets.get(dataset)).description).toBe('from @axiomhq/js');
      expect((await axiom.datasets.list()).map((d) => d.name)).toContain(dataset);

      axiom.ingest(dataset, [
        { source: 'batched', n: 1 },
        { source: 'batched', n: 2 },
      ]);
      await axiom.flush();
      const direct = new AxiomWithoutBatching({
        token: server.token,
        url: server.url,
        onError: (e) => errors.push(e),
      });
      const status = await direct.ingest(dataset, [{ source: 'direct', n: 3, nested: { deep: true } }]);
      expect(status).toEqual({
        ingested: 1,
        failed: 0,
        failures: [],
        processedBytes: expect.any(Number),
        blocksCreated: 0,
        walLength: 1,
      });
      expect(errors).toEqual([]);

      const tabular = await axiom.query(
        `['${dataset}'] | summarize total = sum(n) by source | order by source asc`,
      );
      const rows = [...tabular.tables[0].events()];
      expect(rows).toEqual([
        { source: 'batched', total: 3 },
        { source: 'direct', total: 3 },
      ]);

      const legacy = await axiom.query(`['${dataset}'] | where source == 'direct'`, { format: 'legacy' });
      const matches = (legacy as unknown as { matches: { data: Record<string, unknown> }[] }).matches;
      expect(matches).toHaveLength(1);
      expect(matches[0].data).toMatchObject({ source: 'direct', n: 3, 'nested.deep': true });

      await axiom.datasets.delete(dataset);
      await expect(axiom.datasets.get(dataset)).rejects.toThrow(/not found/i);
    });

    it('uses the edge endpoints when edgeUrl is set', async () => {
      await server.request('POST', '/v2/datasets', { body: { name: 'js-edge' } });
      const edge = new AxiomWithoutBatching({ token: server.token, url: server.url, edgeUrl: server.url });
      const status = await edge.ingest('js-edge', [{ via: 'edge' }]);
      expect(status.ingested).toBe(1);
      const result = await edge.query("['js-edge'] | count");
      expect([...result.tables[0].events()]).toEqual([{ count: 1 }]);
    });
  });
}
