import { call } from '../support/mgmt-api';
import { metastoreBackends } from '../support/metastore-backends';
import { rowsOf, type TestServer } from '../support/test-server';

/**
 * Deleting a dataset and creating one of the same name again: what the deleted dataset takes with it
 * (virtual fields, map fields, its place in annotations) and what stays (views, starred queries, monitors,
 * capabilities of tokens and roles), as docs/management.md "Deleting a dataset" lists.
 */
describe.each(metastoreBackends())(
  'DELETE /v2/datasets/{dataset_id} and what names it, on $name',
  (backend) => {
    let server: TestServer;
    const DS = 'dd-logs';
    const OTHER = 'dd-other';
    const EVENTS = [
      { _time: '2024-05-01T00:00:01Z', status: 200, ms: 1500 },
      { _time: '2024-05-01T00:00:02Z', status: 503, ms: 9000 },
    ];

    beforeAll(async () => {
      server = await backend.startServer();
      expect((await call(server, 'POST /v2/datasets', { body: { name: OTHER } })).status).toBe(200);
    });
    afterAll(async () => {
      await server?.close();
    });

    const createDataset = async () => {
      expect((await call(server, 'POST /v2/datasets', { body: { name: DS } })).status).toBe(200);
      const ingest = await server.request('POST', `/v1/ingest/${DS}`, { body: EVENTS });
      expect(ingest.status).toBe(200);
    };
    const deleteDataset = async () => {
      const res = await call(server, 'DELETE /v2/datasets/{dataset_id}', { params: { dataset_id: DS } });
      expect(res.status).toBe(204);
    };
    const apl = async (query: string) => {
      const res = await server.request('POST', '/v1/datasets/_apl?format=tabular', {
        body: { apl: query, startTime: '2024-05-01T00:00:00Z', endTime: '2024-05-02T00:00:00Z' },
      });
      const body = await res.json();
      return { status: res.status, body, rows: res.status === 200 ? rowsOf(body.tables[0]) : [] };
    };
    const created = async (operation: string, body: object) => {
      const res = await call(server, operation, { body });
      expect([operation, res.status]).toEqual([operation, operation === 'POST /v2/annotations' ? 201 : 200]);
      return res.body;
    };

    it('deletes its virtual fields: a namesake starts without them, in queries and in lists', async () => {
      await createDataset();
      const field = await created('POST /v2/vfields', { dataset: DS, name: 'doubled', expression: 'ms * 2' });
      expect((await apl(`['${DS}'] | summarize max(doubled)`)).rows).toEqual([{ max_doubled: 18000 }]);

      await deleteDataset();
      expect((await call(server, 'GET /v2/vfields/{id}', { params: { id: field.id } })).status).toBe(404);
      // Gone from the metastore, not only hidden.
      expect(await server.quarry.storage.metastore.resources.get('vfield', field.id)).toBeNull();

      await createDataset();
      expect((await call(server, 'GET /v2/vfields', { query: { dataset: DS } })).body).toEqual([]);
      const query = await apl(`['${DS}'] | summarize max(doubled)`);
      expect(query.status).toBe(400);
      expect(query.body.message).toMatch(/doubled/);
      // The name is free on the new dataset.
      await created('POST /v2/vfields', { dataset: DS, name: 'doubled', expression: 'ms * 3' });
      expect((await apl(`['${DS}'] | summarize max(doubled)`)).rows).toEqual([{ max_doubled: 27000 }]);
      await deleteDataset();
    });

    it('deletes its map fields with it', async () => {
      await createDataset();
      const add = await server.request('POST', `/v2/datasets/${DS}/mapfields`, { body: { name: 'attrs' } });
      expect(add.status).toBe(200);
      await deleteDataset();
      await createDataset();
      expect(await (await server.request('GET', `/v2/datasets/${DS}/mapfields`)).json()).toEqual([]);
      await deleteDataset();
    });

    it('removes it from annotations, deleting those that marked only this dataset', async () => {
      await createDataset();
      const only = await created('POST /v2/annotations', { type: 'deploy', datasets: [DS], title: 'only' });
      const shared = await created('POST /v2/annotations', { type: 'deploy', datasets: [DS, OTHER] });
      const unrelated = await created('POST /v2/annotations', { type: 'deploy', datasets: [OTHER] });

      await deleteDataset();
      expect((await call(server, 'GET /v2/annotations/{id}', { params: { id: only.id } })).status).toBe(404);
      const kept = await call(server, 'GET /v2/annotations/{id}', { params: { id: shared.id } });
      expect(kept.status).toBe(200);
      expect(kept.body).toEqual({ ...shared, datasets: [OTHER] });
      expect((await call(server, 'GET /v2/annotations/{id}', { params: { id: unrelated.id } })).body).toEqual(
        unrelated,
      );

      // A namesake created later is not marked by the old annotations.
      await createDataset();
      const marked = await call(server, 'GET /v2/annotations', { query: { datasets: DS } });
      expect(marked.body).toEqual([]);
      await deleteDataset();
    });

    it('keeps views, starred queries, monitors and the dataset capabilities of tokens and roles', async () => {
      await createDataset();
      const aplQuery = `['${DS}'] | where status >= 500`;
      const view = await created('POST /v2/views', { name: 'dd-errors', aplQuery });
      const starred = await created('POST /v2/apl-starred-queries', {
        name: 'dd-errors',
        kind: 'apl',
        who: '',
        dataset: DS,
        metadata: {},
        query: { apl: aplQuery },
      });
      const monitor = await created('POST /v2/monitors', {
        name: 'dd-errors',
        type: 'Threshold',
        aplQuery: `${aplQuery} | count`,
        operator: 'Above',
        threshold: 1,
        intervalMinutes: 5,
        rangeMinutes: 5,
      });
      const capabilities = { [DS]: { ingest: ['create'], query: ['read'] } };
      const token = await created('POST /v2/tokens', {
        name: 'dd-ingest',
        datasetCapabilities: capabilities,
      });
      const role = await created('POST /v2/rbac/roles', {
        name: 'dd-readers',
        datasetCapabilities: capabilities,
      });

      await deleteDataset();
      const get = async (operation: string, id: string) =>
        (await call(server, operation, { params: { id } })).body;
      expect(await get('GET /v2/views/{id}', view.id)).toEqual(view);
      expect(await get('GET /v2/apl-starred-queries/{id}', starred.id)).toEqual(starred);
      expect(await get('GET /v2/monitors/{id}', monitor.id)).toEqual(monitor);
      expect((await get('GET /v2/tokens/{id}', token.id)).datasetCapabilities).toEqual(capabilities);
      expect((await get('GET /v2/rbac/roles/{id}', role.id)).datasetCapabilities).toEqual(capabilities);

      // The kept grant applies to a namesake: an ingest pipeline survives a delete and re-create.
      await createDataset();
      const ingest = await server.request('POST', `/v1/ingest/${DS}`, {
        body: EVENTS,
        headers: { Authorization: `Bearer ${token.token}` },
      });
      expect(ingest.status).toBe(200);
      await deleteDataset();
    });
  },
);
