import { responseProblems } from '../support/openapi-responses';
import { metastoreBackends } from '../support/metastore-backends';
import { rowsOf, type JsonResponse, type TestServer } from '../support/test-server';

/**
 * Dataset sub-resources: fields (schema + metadata), map fields, trim (really deletes old blocks) and
 * vacuum. Response bodies are checked against v2.json.
 */
describe.each(metastoreBackends())('/v2/datasets/{id}/fields, mapfields, trim, vacuum: $name', (backend) => {
  let server: TestServer;
  const DS = 'fields-e2e';
  const TRIM = 'POST /v2/datasets/{dataset_id}/trim';
  const VACUUM = 'POST /v2/datasets/{dataset_id}/vacuum';
  const DELETE_MAP_FIELD = 'DELETE /v2/datasets/{dataset_id}/mapfields/{map_field_name}';

  beforeAll(async () => {
    server = await backend.startServer();
    expect((await server.request('POST', '/v2/datasets', { body: { name: DS } })).status).toBe(200);
    const now = new Date().toISOString();
    const ingest = await server.request('POST', `/v1/datasets/${DS}/ingest`, {
      body: [
        { _time: '2020-01-01T00:00:00Z', duration: 12, service: 'api' },
        { _time: '2020-01-01T00:00:01Z', duration: 15, service: 'api' },
        { _time: now, duration: 7, service: 'web' },
      ],
    });
    expect(ingest.status).toBe(200);
    // Compacted into blocks, so the tests below (trim) find the events in blocks.
    await server.quarry.storage.compactor!.flush();
  });
  afterAll(async () => {
    await server?.close();
  });

  async function conforming(res: JsonResponse, operation: string) {
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(responseProblems(operation, 200, body)).toEqual([]);
    return body;
  }

  async function countAll(): Promise<number> {
    const res = await server.request('POST', '/v1/datasets/_apl?format=tabular', {
      body: {
        apl: `['${DS}'] | count`,
        startTime: '2000-01-01T00:00:00Z',
        endTime: new Date(Date.now() + 3_600_000).toISOString(),
      },
    });
    expect(res.status).toBe(200);
    return rowsOf((await res.json()).tables[0])[0].count as number;
  }

  describe('fields', () => {
    it('lists the schema seen in ingested data', async () => {
      const fields = await conforming(
        await server.request('GET', `/v2/datasets/${DS}/fields`),
        'GET /v2/datasets/{dataset_id}/fields',
      );
      const names = fields.map((f: { name: string }) => f.name);
      expect(names).toEqual(expect.arrayContaining(['duration', 'service']));
      expect(fields.find((f: { name: string }) => f.name === 'duration')).toMatchObject({
        type: 'integer',
        unit: '',
        hidden: false,
      });
    });

    it('updates unit, description and hidden and reads them back', async () => {
      const updated = await conforming(
        await server.request('PUT', `/v2/datasets/${DS}/fields/duration`, {
          body: { name: 'duration', type: 'integer', unit: 'ms', description: 'request time', hidden: true },
        }),
        'PUT /v2/datasets/{dataset_id}/fields/{field_id}',
      );
      expect(updated).toEqual({
        name: 'duration',
        type: 'integer',
        unit: 'ms',
        description: 'request time',
        hidden: true,
      });
      const got = await conforming(
        await server.request('GET', `/v2/datasets/${DS}/fields/duration`),
        'GET /v2/datasets/{dataset_id}/fields/{field_id}',
      );
      expect(got).toEqual(updated);
    });

    it('lists a field right after the ingest that introduced it, before the compactor ran', async () => {
      const FRESH = 'fields-fresh';
      const storage = server.quarry.storage;
      expect((await server.request('POST', '/v2/datasets', { body: { name: FRESH } })).status).toBe(200);
      const ingest = (events: object[]) =>
        server.request('POST', `/v1/datasets/${FRESH}/ingest`, { body: events });
      expect((await ingest([{ latency: 12 }])).status).toBe(200);
      await storage.compactor!.flush();
      const listed = async () => {
        const res = await server.request('GET', `/v2/datasets/${FRESH}/fields`);
        return conforming(res, 'GET /v2/datasets/{dataset_id}/fields');
      };
      const datasetId = storage.registry.getByName(FRESH)!.id;

      // Holding the storage lock keeps the compactor (it runs every 100 ms here) from taking the tail.
      await storage.lock.run(async () => {
        expect((await ingest([{ latency: 'slow', region: 'eu' }])).status).toBe(200);
        expect(storage.tail.snapshot(datasetId)).not.toHaveLength(0);
        expect(await listed()).toEqual(
          expect.arrayContaining([
            { name: 'latency', type: 'integer|string', unit: '', description: '', hidden: false },
            { name: 'region', type: 'string', unit: '', description: '', hidden: false },
          ]),
        );
        const got = await server.request('GET', `/v2/datasets/${FRESH}/fields/region`);
        expect(await conforming(got, 'GET /v2/datasets/{dataset_id}/fields/{field_id}')).toMatchObject({
          name: 'region',
          type: 'string',
        });
        // Metadata can be set at once, before the compactor recorded the field.
        const put = await server.request('PUT', `/v2/datasets/${FRESH}/fields/region`, {
          body: { name: 'region', type: 'string', unit: 'none', description: 'where', hidden: true },
        });
        expect(put.status).toBe(200);
      });

      await storage.compactor!.flush();
      expect(storage.tail.snapshot(datasetId)).toHaveLength(0);
      const compacted = await listed();
      expect(compacted).toContainEqual({
        name: 'region',
        type: 'string',
        unit: 'none',
        description: 'where',
        hidden: true,
      });
      expect(compacted).toContainEqual(expect.objectContaining({ name: 'latency', type: 'integer|string' }));
    });

    it.each([
      ['unknown field', 'GET', `/v2/datasets/${DS}/fields/nope`, undefined, 404, 'not found'],
      ['unknown dataset', 'GET', '/v2/datasets/nope/fields', undefined, 404, 'not found'],
      [
        'missing type',
        'PUT',
        `/v2/datasets/${DS}/fields/duration`,
        { name: 'duration' },
        400,
        '"type" is required',
      ],
      [
        'rename',
        'PUT',
        `/v2/datasets/${DS}/fields/duration`,
        { name: 'd2', type: 'integer' },
        400,
        'name: must be',
      ],
      [
        'bad hidden',
        'PUT',
        `/v2/datasets/${DS}/fields/duration`,
        { name: 'duration', type: 'x', hidden: 'yes' },
        400,
        'hidden: must be boolean',
      ],
    ])('%s: %s %s', async (_case, method, path, body, status, message) => {
      const res = await server.request(method, path, { body });
      expect(res.status).toBe(status);
      expect((await res.json()).message).toContain(message);
    });
  });

  describe(`map fields (${DELETE_MAP_FIELD}, ...)`, () => {
    it('adds, lists, replaces and deletes map fields', async () => {
      const base = `/v2/datasets/${DS}/mapfields`;
      expect(
        await conforming(await server.request('GET', base), 'GET /v2/datasets/{dataset_id}/mapfields'),
      ).toEqual([]);
      const added = await conforming(
        await server.request('POST', base, { body: { name: 'attributes' } }),
        'POST /v2/datasets/{dataset_id}/mapfields',
      );
      expect(added).toEqual({ name: 'attributes' });
      expect((await server.request('POST', base, { body: { name: 'attributes' } })).status).toBe(409);

      const replaced = await conforming(
        await server.request('PUT', base, { body: ['labels', 'resource.attrs'] }),
        'PUT /v2/datasets/{dataset_id}/mapfields',
      );
      expect(replaced).toEqual(['labels', 'resource.attrs']);
      expect(await (await server.request('GET', base)).json()).toEqual(['labels', 'resource.attrs']);

      expect((await server.request('DELETE', `${base}/labels`)).status).toBe(204);
      expect(await (await server.request('GET', base)).json()).toEqual(['resource.attrs']);
      const missing = await server.request('DELETE', `${base}/labels`);
      expect(missing.status).toBe(404);
      expect((await missing.json()).message).toContain('not found');
    });

    it.each([
      ['POST', { name: '__invalid__' }, 'invalid map field name'],
      ['POST', {}, '"name" is required'],
      ['PUT', ['a', 'a'], 'listed twice'],
      ['PUT', ['ok', 7], '[1]: must be string'],
      ['PUT', ['_time'], 'invalid map field name'],
    ])('%s %j answers 400', async (method, body, message) => {
      const res = await server.request(method, `/v2/datasets/${DS}/mapfields`, { body });
      expect(res.status).toBe(400);
      expect((await res.json()).message).toContain(message);
    });
  });

  describe('trim and vacuum', () => {
    it(`${VACUUM} validates the dataset and answers 200`, async () => {
      const res = await server.request('POST', `/v2/datasets/${DS}/vacuum`);
      expect(res.status).toBe(200);
      expect((await server.request('POST', '/v2/datasets/nope/vacuum')).status).toBe(404);
    });

    it.each([
      [{}, '"maxDuration" is required'],
      [{ maxDuration: 'soon' }, 'maxDuration: must be a positive duration'],
      [{ maxDuration: '0s' }, 'positive'],
    ])('rejects trim body %j', async (body, message) => {
      const res = await server.request('POST', `/v2/datasets/${DS}/trim`, { body });
      expect(res.status).toBe(400);
      expect((await res.json()).message).toContain(message);
    });

    it(`${TRIM} deletes the events older than maxDuration and keeps newer ones`, async () => {
      // A second ingest of only old events: its block lies wholly before the cutoff.
      await server.request('POST', `/v1/datasets/${DS}/ingest`, {
        body: [{ _time: '2019-06-01T00:00:00Z', duration: 1, service: 'old' }],
      });
      await server.quarry.storage.compactor!.flush();
      const before = await countAll();
      expect(before).toBe(4);
      const blocksBefore = server.quarry.storage.blocks.list(
        server.quarry.storage.registry.getByName(DS)!.id,
      ).length;

      const res = await server.request('POST', `/v2/datasets/${DS}/trim`, { body: { maxDuration: '24h' } });
      expect(res.status).toBe(204);
      const after = await countAll();
      const blocksAfter = server.quarry.storage.blocks.list(server.quarry.storage.registry.getByName(DS)!.id);
      // Only whole blocks older than the cutoff go: the 2019 block; the first block also holds a new event.
      expect(blocksAfter.length).toBe(blocksBefore - 1);
      expect(after).toBe(3);
      for (const block of blocksAfter) expect(block.maxTime).toBeGreaterThan(Date.now() - 86_400_000);

      // v1 answers with the number of deleted events; nothing older is left.
      const v1 = await server.request('POST', `/v1/datasets/${DS}/trim`, { body: { maxDuration: '24h' } });
      expect(v1.status).toBe(200);
      expect(await v1.json()).toEqual({ numDeleted: 0 });
      expect(
        (await server.request('POST', '/v2/datasets/nope/trim', { body: { maxDuration: '1h' } })).status,
      ).toBe(404);
    });
  });
});
