import { AxiomWithoutBatching } from '@axiomhq/js';
import { call, tokenWith } from '../support/mgmt-api';
import { metastoreBackends } from '../support/metastore-backends';
import type { TestServer } from '../support/test-server';

/** `/v2/monitors` and `/v2/notifiers`: stored and validated (nothing evaluates monitors yet). */
describe.each(metastoreBackends())('/v2/monitors and /v2/notifiers on $name', (backend) => {
  let server: TestServer;
  let adminUserId: string;

  beforeAll(async () => {
    server = await backend.startServer();
    adminUserId = (await call(server, 'GET /v2/user')).body.id;
    for (const name of ['mon-a', 'mon-b']) {
      expect((await call(server, 'POST /v2/datasets', { body: { name } })).status).toBe(200);
    }
  });
  afterAll(async () => {
    await server?.close();
  });

  describe('monitors', () => {
    const monitor = (name: string, dataset = 'mon-a') => ({
      name,
      type: 'Threshold',
      description: 'too many errors',
      aplQuery: `['${dataset}'] | where status >= 500 | summarize count() by bin_auto(_time)`,
      operator: 'Above',
      threshold: 10,
      intervalMinutes: 5,
      rangeMinutes: 10,
      secondDelay: 10,
      alertOnNoData: false,
      notifyByGroup: false,
      resolvable: true,
      disabled: false,
    });
    const create = async (body: object) => {
      const res = await call(server, 'POST /v2/monitors', { body });
      expect(res.status).toBe(200);
      return res.body;
    };

    it('creates, gets, lists, replaces and deletes, with audit fields', async () => {
      const created = await create({ ...monitor('crud'), notifierIDs: ['ntf_1'] });
      expect(created).toEqual({
        id: expect.stringMatching(/^mon_/),
        ...monitor('crud'),
        notifierIds: ['ntf_1'],
        createdAt: expect.any(String),
        createdBy: adminUserId,
        updatedAt: expect.any(String),
      });
      const params = { id: created.id };
      expect((await call(server, 'GET /v2/monitors/{id}', { params })).body).toEqual(created);
      expect((await call(server, 'GET /v2/monitors')).body).toContainEqual(created);

      const { description: _dropped, ...withoutDescription } = monitor('crud replaced');
      const replaced = await call(server, 'PUT /v2/monitors/{id}', { params, body: withoutDescription });
      expect(replaced.status).toBe(200);
      expect(replaced.body).toEqual({
        id: created.id,
        ...withoutDescription,
        createdAt: created.createdAt,
        createdBy: adminUserId,
        updatedAt: expect.any(String),
      });
      expect(Date.parse(replaced.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(created.updatedAt));

      expect((await call(server, 'DELETE /v2/monitors/{id}', { params })).status).toBe(204);
      for (const op of ['GET /v2/monitors/{id}', 'DELETE /v2/monitors/{id}']) {
        const res = await call(server, op, { params });
        expect(res.status).toBe(404);
        expect(res.body.message).toMatch(/not found/);
      }
      expect((await call(server, 'PUT /v2/monitors/{id}', { params, body: monitor('x') })).status).toBe(404);
    });

    it('answers the alert history: empty, with startTime and endTime required', async () => {
      const created = await create(monitor('history'));
      const history = (id: string, query: Record<string, string>) =>
        call(server, 'GET /v2/monitors/{id}/history', { params: { id }, query });
      const window = { startTime: '2024-01-01T00:00:00Z', endTime: '2024-01-02T00:00:00Z' };
      const ok = await history(created.id, window);
      expect(ok.status).toBe(200);
      expect(ok.body).toEqual([]);
      for (const [query, field] of [
        [{ endTime: window.endTime }, 'startTime'],
        [{ startTime: window.startTime }, 'endTime'],
        [{ ...window, startTime: 'last week' }, 'startTime'],
      ] as const) {
        const res = await history(created.id, query);
        expect(res.status).toBe(400);
        expect(res.body.message).toContain(`"${field}"`);
      }
      const unknown = await history('mon_missing', window);
      expect(unknown.status).toBe(404);
      expect(unknown.body.message).toMatch(/not found/);
    });

    it.each([
      ['no name', { ...monitor('x'), name: undefined }, '"name"'],
      ['an unknown type', { ...monitor('x'), type: 'Vibes' }, 'type'],
      ['an unknown operator', { ...monitor('x'), operator: 'Sideways' }, 'operator'],
      ['neither aplQuery nor mplQuery', { ...monitor('x'), aplQuery: undefined }, 'aplQuery'],
      ['both aplQuery and mplQuery', { ...monitor('x'), mplQuery: 'm:cpu' }, 'mplQuery'],
      ['intervalMinutes 0', { ...monitor('x'), intervalMinutes: 0 }, 'intervalMinutes'],
      ['secondDelay over a day', { ...monitor('x'), secondDelay: 86_401 }, 'secondDelay'],
      ['compareDays over 7', { ...monitor('x'), compareDays: 8 }, 'compareDays'],
      ['tolerance over 100', { ...monitor('x'), tolerance: 101 }, 'tolerance'],
      [
        'a disabledUntil that is not a date-time',
        { ...monitor('x'), disabledUntil: 'soon' },
        'disabledUntil',
      ],
      ['notifier ids that are not strings', { ...monitor('x'), notifierIds: [1] }, 'notifierIds'],
      ['an aplQuery that does not parse', { ...monitor('x'), aplQuery: "['mon-a'] | where" }, 'aplQuery'],
    ])('POST /v2/monitors rejects %s with 400', async (_what, body, field) => {
      const res = await call(server, 'POST /v2/monitors', { body });
      expect(res.status).toBe(400);
      expect(res.body.message).toContain(field);
    });

    it('accepts an MPL monitor', async () => {
      const { aplQuery: _apl, ...rest } = monitor('mpl');
      const created = await create({ ...rest, mplQuery: 'metrics:http_request_duration_seconds' });
      expect(created).toMatchObject({ mplQuery: 'metrics:http_request_duration_seconds' });
      expect(created).not.toHaveProperty('aplQuery');
    });

    it('lists only monitors on datasets the token can query; needs the monitors capability', async () => {
      const onA = await create(monitor('visible on a', 'mon-a'));
      const onB = await create(monitor('hidden on b', 'mon-b'));
      const queriesA = await tokenWith(server, {
        orgCapabilities: { monitors: ['read'] },
        datasetCapabilities: { 'mon-a': { query: ['read'] } },
      });
      const listed = (await call(server, 'GET /v2/monitors', { token: queriesA })).body.map(
        (m: { id: string }) => m.id,
      );
      expect(listed).toContain(onA.id);
      expect(listed).not.toContain(onB.id);

      const noMonitors = await tokenWith(server, { orgCapabilities: { datasets: ['read'] } });
      const params = { id: onA.id };
      const window = { startTime: '2024-01-01T00:00:00Z', endTime: '2024-01-02T00:00:00Z' };
      const cases: [
        string,
        { params?: Record<string, string>; body?: unknown; query?: Record<string, string> },
      ][] = [
        ['GET /v2/monitors', {}],
        ['POST /v2/monitors', { body: monitor('x') }],
        ['GET /v2/monitors/{id}', { params }],
        ['PUT /v2/monitors/{id}', { params, body: monitor('x') }],
        ['DELETE /v2/monitors/{id}', { params }],
        ['GET /v2/monitors/{id}/history', { params, query: window }],
      ];
      for (const [op, options] of cases) {
        expect([op, (await call(server, op, { ...options, token: null })).status]).toEqual([op, 401]);
        const res = await call(server, op, { ...options, token: noMonitors });
        expect([op, res.status]).toEqual([op, 403]);
        expect(res.body.message).toMatch(/monitors\|/);
      }
    });

    it('round-trips through @axiomhq/js', async () => {
      const axiom = new AxiomWithoutBatching({ token: server.token, url: server.url });
      const created = await axiom.monitors.create({
        ...monitor('from js'),
        type: 'Threshold',
        operator: 'Above',
        notifierIDs: [],
      });
      expect(created).toMatchObject({ name: 'from js', notifierIds: [], createdBy: adminUserId });
      expect(await axiom.monitors.get(created.id)).toEqual(created);
      expect(await axiom.monitors.list()).toContainEqual(created);
      const updated = await axiom.monitors.update(created.id, {
        ...monitor('from js, renamed'),
        type: 'Threshold',
        operator: 'Below',
      });
      expect(updated).toMatchObject({ id: created.id, name: 'from js, renamed', operator: 'Below' });
      expect((await axiom.monitors.delete(created.id)).status).toBe(204);
      await expect(axiom.monitors.get(created.id)).rejects.toThrow(/not found/);
    });
  });

  describe('notifiers', () => {
    const slack = (name: string) => ({
      name,
      properties: { slack: { slackUrl: 'https://hooks.slack.test/x' } },
    });
    const create = async (body: object) => {
      const res = await call(server, 'POST /v2/notifiers', { body });
      expect(res.status).toBe(200);
      return res.body;
    };

    it('creates, gets, lists, replaces and deletes, with audit fields', async () => {
      const created = await create(slack('on-call'));
      expect(created).toEqual({
        id: expect.stringMatching(/^ntf_/),
        ...slack('on-call'),
        createdAt: expect.any(String),
        createdBy: adminUserId,
        updatedAt: expect.any(String),
      });
      const params = { id: created.id };
      expect((await call(server, 'GET /v2/notifiers/{id}', { params })).body).toEqual(created);
      expect((await call(server, 'GET /v2/notifiers')).body).toContainEqual(created);

      const webhook = {
        name: 'on-call webhook',
        disabledUntil: '2030-01-01T00:00:00Z',
        properties: {
          customWebhook: {
            url: 'https://example.test/hook',
            body: '{"alert":"{{.AlertName}}"}',
            headers: { 'X-Team': 'ops' },
          },
        },
      };
      const replaced = await call(server, 'PUT /v2/notifiers/{id}', { params, body: webhook });
      expect(replaced.status).toBe(200);
      expect(replaced.body).toMatchObject({
        id: created.id,
        ...webhook,
        disabledUntil: '2030-01-01T00:00:00.000Z',
        createdAt: created.createdAt,
      });
      expect(replaced.body.properties).not.toHaveProperty('slack');

      expect((await call(server, 'DELETE /v2/notifiers/{id}', { params })).status).toBe(204);
      for (const op of ['GET /v2/notifiers/{id}', 'DELETE /v2/notifiers/{id}']) {
        const res = await call(server, op, { params });
        expect(res.status).toBe(404);
        expect(res.body.message).toMatch(/not found/);
      }
    });

    it.each([
      ['no name', { properties: slack('x').properties }, '"name"'],
      ['no properties', { name: 'x' }, '"properties"'],
      ['no channel', { name: 'x', properties: {} }, 'properties'],
      [
        'two channels',
        { name: 'x', properties: { ...slack('x').properties, webhook: { url: 'https://a.test' } } },
        'exactly one',
      ],
      ['an unknown channel', { name: 'x', properties: { pigeon: { loft: 'roof' } } }, 'pigeon'],
      ['slack without slackUrl', { name: 'x', properties: { slack: {} } }, 'slackUrl'],
      [
        'a custom webhook without body',
        { name: 'x', properties: { customWebhook: { url: 'https://a.test' } } },
        'body',
      ],
      [
        'email addresses that are not a list',
        { name: 'x', properties: { email: { emails: 'a@b.test' } } },
        'emails',
      ],
    ])('POST /v2/notifiers rejects %s with 400', async (_what, body, field) => {
      const res = await call(server, 'POST /v2/notifiers', { body });
      expect(res.status).toBe(400);
      expect(res.body.message).toContain(field);
    });

    it('needs the notifiers capability', async () => {
      const target = await create(slack('auth'));
      const noNotifiers = await tokenWith(server, { orgCapabilities: { monitors: ['read'] } });
      const params = { id: target.id };
      const cases: [string, { params?: Record<string, string>; body?: unknown }][] = [
        ['GET /v2/notifiers', {}],
        ['POST /v2/notifiers', { body: slack('x') }],
        ['GET /v2/notifiers/{id}', { params }],
        ['PUT /v2/notifiers/{id}', { params, body: slack('x') }],
        ['DELETE /v2/notifiers/{id}', { params }],
      ];
      for (const [op, options] of cases) {
        expect([op, (await call(server, op, { ...options, token: null })).status]).toEqual([op, 401]);
        const res = await call(server, op, { ...options, token: noNotifiers });
        expect([op, res.status]).toEqual([op, 403]);
        expect(res.body.message).toMatch(/notifiers\|/);
      }
    });
  });
});
