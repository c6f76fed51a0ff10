import { AxiomWithoutBatching } from '@axiomhq/js';
import { call } from '../support/mgmt-api';
import { exportGauge } from '../support/otlp-json';
import { startTestServer, type TestServer } from '../support/test-server';

const T0_SEC = 1_746_057_600; // 2025-05-01T00:00:00Z
const WINDOW = { start: '2025-05-01T00:00:00Z', end: '2025-05-01T01:00:00Z' };

/**
 * Every method of the management services `@axiomhq/js` wraps (datasets, annotations, dashboards,
 * monitors, savedQueries, users), called through the client itself: the client parses our answers, so
 * a wrong status code, shape or field name shows up here the way a user of the client would see it.
 * Ingest and APL queries through the client are in axiom-js.test.ts.
 */
describe('@axiomhq/js management round trip', () => {
  let server: TestServer;
  let axiom: AxiomWithoutBatching;
  let adminUserId: string;

  beforeAll(async () => {
    server = await startTestServer();
    axiom = new AxiomWithoutBatching({ token: server.token, url: server.url, edgeUrl: server.url });
    adminUserId = (await call(server, 'GET /v2/user')).body.id;
  });
  afterAll(async () => {
    await server?.close();
  });

  /** The status of the client's rejection: AxiomRequestError carries it; a 401 is a plain "forbidden". */
  async function rejection(promise: Promise<unknown>): Promise<{ status?: number; message: string }> {
    try {
      await promise;
    } catch (err) {
      return err as { status?: number; message: string };
    }
    throw new Error('expected the client call to fail');
  }

  /** The client call fails with 404 and a message saying "not found" (what the client's users match). */
  async function expectNotFound(promise: Promise<unknown>): Promise<void> {
    const err = await rejection(promise);
    expect(err.status).toBe(404);
    expect(err.message).toMatch(/not found/);
  }

  describe('datasets', () => {
    it('creates, gets, lists, updates, trims and deletes', async () => {
      const created = await axiom.datasets.create(
        { name: 'js-mgmt', description: 'first', kind: 'axiom:events:v1' },
        { referrer: 'jest' },
      );
      expect(created).toMatchObject({
        name: 'js-mgmt',
        description: 'first',
        kind: 'axiom:events:v1',
        who: adminUserId,
      });
      expect(Date.parse(created.created)).not.toBeNaN();
      expect(await axiom.datasets.get('js-mgmt')).toEqual(created);
      expect(await axiom.datasets.list()).toContainEqual(created);

      const updated = await axiom.datasets.update('js-mgmt', { description: 'second' });
      expect(updated).toMatchObject({ id: created.id, name: 'js-mgmt', description: 'second' });
      // Audit: `who` and `created` stay those of the creation, `updatedAt` follows the write.
      expect(updated).toMatchObject({ who: adminUserId, created: created.created });
      expect(Date.parse(updated.updatedAt!)).toBeGreaterThanOrEqual(Date.parse(created.updatedAt!));
      expect((await axiom.datasets.get('js-mgmt')).description).toBe('second');

      const trimmed = await axiom.datasets.trim('js-mgmt', '1h');
      expect((trimmed as Response).status).toBe(204);

      const duplicate = await rejection(axiom.datasets.create({ name: 'js-mgmt' }));
      expect(duplicate.status).toBe(409);

      const deleted = await axiom.datasets.delete('js-mgmt');
      expect(deleted.status).toBe(204);
      await expectNotFound(axiom.datasets.get('js-mgmt'));
    });

    it('lists fields and map fields', async () => {
      await axiom.datasets.create({ name: 'js-fields' });
      await axiom.ingest('js-fields', [{ status: 200, path: '/a', attrs: { region: 'eu' } }]);
      const put = await call(server, 'PUT /v2/datasets/{dataset_id}/mapfields', {
        params: { dataset_id: 'js-fields' },
        body: ['attrs'],
      });
      expect(put.status).toBe(200);
      // The field list is the schema of compacted blocks (fields are recorded when the log is compacted).
      await server.quarry.storage.compactor!.flush();

      const fields = await axiom.datasets.fields('js-fields');
      expect(fields.map((f) => [f.name, f.type])).toEqual(
        expect.arrayContaining([
          ['status', 'integer'],
          ['path', 'string'],
        ]),
      );
      for (const field of fields) expect(typeof field.hidden).toBe('boolean');
      expect(await axiom.datasets.mapFields('js-fields')).toEqual(['attrs']);

      await expectNotFound(axiom.datasets.fields('js-nope'));
      await expectNotFound(axiom.datasets.mapFields('js-nope'));
    });

    it('reads metrics metadata on the edge', async () => {
      await axiom.datasets.create({ name: 'js-metrics', kind: 'otel:metrics:v1' });
      const points = ['a', 'b'].map((host, i) => ({
        timeMs: (T0_SEC + 60 * i) * 1000,
        value: i,
        tags: { host },
      }));
      expect(await exportGauge(server, 'js-metrics', { name: 'load', unit: '1' }, points)).toBe(200);

      const v2 = 'application/vnd.metrics-info.v2+json';
      expect(await axiom.datasets.metrics('js-metrics', { ...WINDOW, accept: v2 })).toEqual({
        load: { type: 'Gauge', temporality: null, unit: '1' },
      });
      expect(await axiom.datasets.metrics('js-metrics', WINDOW)).toEqual(['load']);
      expect(await axiom.datasets.metricTags('js-metrics', 'load', WINDOW)).toEqual(['host']);
      expect(await axiom.datasets.metricTagValues('js-metrics', 'load', 'host', WINDOW)).toEqual(['a', 'b']);
      expect(await axiom.datasets.metricDatasetTags('js-metrics', WINDOW)).toEqual(['host']);
      expect(await axiom.datasets.metricDatasetTagValues('js-metrics', 'host', WINDOW)).toEqual(['a', 'b']);
    });
  });

  describe('annotations', () => {
    it('creates, gets, lists with filters, updates and deletes', async () => {
      await axiom.datasets.create({ name: 'js-annotated' });
      const request = {
        type: 'deploy',
        datasets: ['js-annotated'],
        title: 'v1.2.3',
        description: 'rolled out',
        url: 'https://example.test/release',
        time: '2024-07-01T10:00:00.000Z',
        endTime: '2024-07-01T10:05:00.000Z',
      };
      const created = await axiom.annotations.create(request);
      expect(created).toEqual({ id: expect.stringMatching(/^ann_/), ...request });
      expect(await axiom.annotations.get(created.id)).toEqual(created);
      expect(await axiom.annotations.list()).toContainEqual(created);
      expect(
        await axiom.annotations.list({
          datasets: ['js-annotated'],
          start: '2024-07-01T00:00:00Z',
          end: '2024-07-02T00:00:00Z',
        }),
      ).toEqual([created]);
      expect(
        await axiom.annotations.list({ datasets: ['js-annotated'], start: '2024-07-02T00:00:00Z' }),
      ).toEqual([]);

      const updated = await axiom.annotations.update(created.id, {
        title: 'v1.2.4',
        datasets: ['js-annotated'],
      });
      expect(updated).toEqual({ ...created, title: 'v1.2.4' });

      const invalid = await rejection(axiom.annotations.create({ type: '', datasets: [] }));
      expect(invalid.status).toBe(400);

      expect((await axiom.annotations.delete(created.id)).status).toBe(204);
      await expectNotFound(axiom.annotations.get(created.id));
    });
  });

  describe('dashboards', () => {
    it('lists with limit and offset and gets by uid', async () => {
      for (const uid of ['js-dash-a', 'js-dash-b', 'js-dash-c']) {
        const res = await call(server, 'POST /v2/dashboards', {
          body: {
            uid,
            dashboard: {
              name: uid,
              owner: 'X-AXIOM-EVERYONE',
              charts: [],
              layout: [],
              refreshTime: 60,
              schemaVersion: 2,
              timeWindowStart: 'qr-now-1h',
              timeWindowEnd: 'qr-now',
            },
          },
        });
        expect(res.status).toBe(201);
      }
      const all = await axiom.dashboards.list();
      expect(all.map((d) => d.uid)).toEqual(['js-dash-a', 'js-dash-b', 'js-dash-c']);
      const page = await axiom.dashboards.list({ limit: 1, offset: 1 });
      expect(page).toEqual([all[1]]);

      const got = await axiom.dashboards.get('js-dash-a');
      expect(got).toEqual(all[0]);
      expect(got).toMatchObject({
        uid: 'js-dash-a',
        version: 1,
        createdBy: adminUserId,
        updatedBy: adminUserId,
        dashboard: { name: 'js-dash-a' },
      });
      expect(Date.parse(got.createdAt!)).not.toBeNaN();
      expect(Date.parse(got.updatedAt!)).not.toBeNaN();

      const badLimit = await rejection(axiom.dashboards.list({ limit: 1001 }));
      expect(badLimit.status).toBe(400);
      expect(badLimit.message).toMatch(/limit/);
      await expectNotFound(axiom.dashboards.get('js-dash-nope'));
    });
  });

  describe('monitors', () => {
    it('creates, gets, lists, updates and deletes', async () => {
      await axiom.datasets.create({ name: 'js-monitored' });
      const request = {
        name: 'errors',
        description: 'too many errors',
        type: 'Threshold' as const,
        aplQuery: "['js-monitored'] | where status >= 500 | count",
        operator: 'Above' as const,
        threshold: 10,
        alertOnNoData: false,
        notifyByGroup: false,
        resolvable: true,
        notifierIDs: [] as string[],
        intervalMinutes: 5,
        rangeMinutes: 10,
        disabled: false,
      };
      const created = await axiom.monitors.create(request);
      const { notifierIDs: _ids, ...stored } = request;
      expect(created).toMatchObject({ ...stored, notifierIds: [], createdBy: adminUserId });
      expect(created.id).toEqual(expect.any(String));
      expect(Date.parse(created.createdAt)).not.toBeNaN();
      expect(await axiom.monitors.get(created.id)).toEqual(created);
      expect(await axiom.monitors.list()).toContainEqual(created);

      const updated = await axiom.monitors.update(created.id, {
        ...request,
        threshold: 20,
        operator: 'Below',
      });
      expect(updated).toMatchObject({
        id: created.id,
        threshold: 20,
        operator: 'Below',
        createdBy: adminUserId,
      });
      expect(await axiom.monitors.get(created.id)).toEqual(updated);

      const invalid = await rejection(axiom.monitors.create({ ...request, aplQuery: 'not apl |' }));
      expect(invalid.status).toBe(400);

      expect((await axiom.monitors.delete(created.id)).status).toBe(204);
      await expectNotFound(axiom.monitors.get(created.id));
    });
  });

  describe('savedQueries', () => {
    it('lists (limit, who) and gets starred queries', async () => {
      await axiom.datasets.create({ name: 'js-starred' });
      const ids: string[] = [];
      for (const name of ['first', 'second']) {
        const res = await call(server, 'POST /v2/apl-starred-queries', {
          body: {
            name,
            kind: 'apl',
            who: adminUserId,
            dataset: 'js-starred',
            metadata: { from: 'js' },
            query: { apl: "['js-starred'] | count" },
          },
        });
        expect(res.status).toBe(200);
        ids.push(res.body.id);
      }
      const listed = await axiom.savedQueries.list();
      expect(listed.map((q) => q.id).sort()).toEqual([...ids].sort());
      expect(await axiom.savedQueries.list({ limit: 1 })).toHaveLength(1);
      expect(await axiom.savedQueries.list({ who: 'all' })).toHaveLength(2);

      const got = await axiom.savedQueries.get(ids[0]);
      expect(got).toEqual({
        id: ids[0],
        name: 'first',
        kind: 'apl',
        who: adminUserId,
        dataset: 'js-starred',
        metadata: { from: 'js' },
        query: { apl: "['js-starred'] | count" },
      });
      expect(listed).toContainEqual(got);
      await expectNotFound(axiom.savedQueries.get('nope'));
    });
  });

  describe('users', () => {
    it('reads the current user, lists and gets users', async () => {
      const current = await axiom.users.current();
      expect(current).toMatchObject({ id: adminUserId, name: expect.any(String) });
      expect(current.email ?? current.emails?.[0]).toEqual(expect.stringContaining('@'));

      const created = await call(server, 'POST /v2/users', {
        body: { name: 'Ada', email: 'ada@example.test', role: 'user' },
      });
      expect(created.status).toBe(200);
      const users = await axiom.users.list();
      expect(users.map((u) => u.id)).toEqual(expect.arrayContaining([adminUserId, created.body.id]));

      const ada = await axiom.users.get(created.body.id);
      expect(ada).toEqual({
        id: created.body.id,
        name: 'Ada',
        email: 'ada@example.test',
        role: { id: 'user', name: 'user' },
      });
      expect(users).toContainEqual(ada);
      await expectNotFound(axiom.users.get('nope'));
    });
  });

  it('surfaces auth failures the way the client expects', async () => {
    const stranger = new AxiomWithoutBatching({ token: 'xaat-not-a-token', url: server.url });
    // The client turns a 401 into a plain Error('forbidden').
    await expect(stranger.users.current()).rejects.toThrow(/^forbidden$/);
    const scoped = await call(server, 'POST /v2/tokens', {
      body: { name: 'js no caps', orgCapabilities: {}, datasetCapabilities: {} },
    });
    const limited = new AxiomWithoutBatching({ token: scoped.body.token, url: server.url });
    const denied = await rejection(limited.monitors.list());
    expect(denied.status).toBe(403);
    expect(denied.message).toMatch(/monitors\|read/);
  });
});
