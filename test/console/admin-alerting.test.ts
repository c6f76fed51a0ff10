import {
  accessibilityProblems,
  boxOf,
  ingest,
  openPage,
  sampleEvents,
  screenshot,
  signIn,
  startConsoleEnv,
  type ConsoleEnv,
} from './console-harness';

/**
 * The "later" rows of console.md the API supports: role capabilities, group members and roles, tokens
 * with capabilities; match-event and anomaly-detection monitors, notifiers attached to monitors, editing
 * a monitor; pie and top-list dashboard elements.
 */
describe('console: roles, groups, token capabilities, monitors of every type, notifiers, pie and top list', () => {
  let env: ConsoleEnv;

  beforeAll(async () => {
    env = await startConsoleEnv();
    await env.server.request('POST', '/v2/datasets', { body: { name: 'sample' } });
    await ingest(env, 'sample', sampleEvents(600));
  });
  afterAll(async () => {
    await env?.close();
  });

  const json = async (method: string, path: string, body?: unknown) => {
    const res = await env.server.request(method, path, body === undefined ? {} : { body });
    expect(res.status).toBeLessThan(300);
    return res.json();
  };

  it("edits a role's capabilities, a group's members and roles, and creates a token with capabilities", async () => {
    const role = await json('POST', '/v2/rbac/roles', { name: 'auditors' });
    const group = await json('POST', '/v2/rbac/groups', { name: 'sre' });
    const ada = await json('POST', '/v2/users', { name: 'Ada', email: 'ada@example.com', role: 'user' });

    const w = await openPage(env);
    await signIn(w, env, '/settings/roles', '/settings/roles');
    const page = w.page;
    await page.getByRole('button', { name: 'Edit role auditors' }).click();
    await page.getByRole('checkbox', { name: 'monitors read' }).check();
    await page.getByRole('checkbox', { name: 'dashboards create' }).check();
    await page.getByRole('combobox', { name: 'Dataset capabilities for' }).selectOption('sample');
    await page.getByRole('checkbox', { name: 'query read' }).check();
    expect(await accessibilityProblems(page)).toEqual([]);
    await screenshot(w, 'settings-role-editor');
    await page.getByRole('button', { name: 'Save role' }).click();
    await page.getByRole('cell', { name: /monitors: read/ }).waitFor();
    const saved = await json('GET', `/v2/rbac/roles/${role.id}`);
    expect(saved.orgCapabilities).toEqual({ monitors: ['read'], dashboards: ['create'] });
    expect(saved.datasetCapabilities).toEqual({ sample: { query: ['read'] } });

    // Unticking removes the action again.
    await page.getByRole('button', { name: 'Edit role auditors' }).click();
    await page.getByRole('checkbox', { name: 'dashboards create' }).uncheck();
    await page.getByRole('button', { name: 'Save role' }).click();
    await page.getByRole('heading', { name: /Capabilities of/ }).waitFor({ state: 'detached' });
    expect((await json('GET', `/v2/rbac/roles/${role.id}`)).orgCapabilities).toEqual({ monitors: ['read'] });

    await page.getByRole('link', { name: 'Groups' }).click();
    await page.getByRole('button', { name: 'Edit group sre' }).click();
    await page.getByRole('checkbox', { name: 'Member Ada' }).check();
    await page.getByRole('checkbox', { name: 'Role auditors' }).check();
    expect(await accessibilityProblems(page)).toEqual([]);
    await page.getByRole('button', { name: 'Save group' }).click();
    await page.getByRole('cell', { name: '1 members · roles: auditors' }).waitFor();
    const sre = await json('GET', `/v2/rbac/groups/${group.id}`);
    expect(sre.members).toEqual([ada.id]);
    expect(sre.roles).toEqual([role.id]);

    await page.getByRole('link', { name: 'API tokens' }).click();
    await page.getByRole('textbox', { name: 'Token name' }).fill('reader');
    await page.getByRole('combobox', { name: 'Dataset' }).selectOption('sample');
    await page.getByRole('checkbox', { name: 'ingest create' }).uncheck();
    await page.getByRole('checkbox', { name: 'query read' }).check();
    await page.locator('summary').click();
    await page.getByRole('checkbox', { name: 'dashboards read' }).check();
    expect(await accessibilityProblems(page)).toEqual([]);
    await page.getByRole('button', { name: 'Create token' }).click();
    const value = (await page.locator('.secret-value').textContent())!;
    expect(value).toMatch(/^xaat-/);
    const asReader = (method: string, path: string, body?: unknown) =>
      env.server.request(method, path, { body, headers: { Authorization: `Bearer ${value}` } });
    expect(
      (await asReader('POST', '/v1/datasets/_apl?format=tabular', { apl: "['sample'] | count" })).status,
    ).toBe(200);
    expect((await asReader('GET', '/v2/dashboards')).status).toBe(200);
    expect((await asReader('POST', '/v1/datasets/sample/ingest', [{ msg: 'no' }])).status).toBe(403);
    expect((await asReader('GET', '/v2/monitors')).status).toBe(403);
    expect(w.problems).toEqual([]);
    await w.context.close();
  });

  it('creates notifiers, match-event and anomaly-detection monitors that notify them, and edits a monitor', async () => {
    const w = await openPage(env, { expectErrors: /status of 400/ });
    await signIn(w, env, '/monitors', '/monitors');
    const page = w.page;
    await page.getByRole('textbox', { name: 'Notifier name' }).fill('ops-hook');
    await page.getByRole('combobox', { name: 'Channel' }).selectOption({ label: 'Webhook' });
    await page.getByRole('textbox', { name: 'Webhook URL' }).fill('https://hooks.example.com/quarry');
    await page.getByRole('button', { name: 'Create notifier' }).click();
    await page.getByRole('cell', { name: 'Webhook · https://hooks.example.com/quarry' }).waitFor();
    // Without an SMTP server the API refuses an email notifier: its message is shown.
    await page.getByRole('textbox', { name: 'Notifier name' }).fill('oncall-mail');
    await page.getByRole('combobox', { name: 'Channel' }).selectOption({ label: 'Email' });
    await page.getByRole('textbox', { name: 'Email addresses' }).fill('a@example.com, b@example.com');
    await page.getByRole('button', { name: 'Create notifier' }).click();
    await page.getByRole('alert').filter({ hasText: /SMTP/i }).waitFor();
    await page.getByRole('combobox', { name: 'Channel' }).selectOption({ label: 'Slack' });
    await page
      .getByRole('textbox', { name: 'Slack webhook URL' })
      .fill('https://hooks.slack.example/T0/B0/x');
    await page.getByRole('button', { name: 'Create notifier' }).click();
    await page.getByRole('cell', { name: 'Slack · https://hooks.slack.example/T0/B0/x' }).waitFor();
    const notifiers: { id: string; name: string; properties: unknown }[] = await json('GET', '/v2/notifiers');
    const hook = notifiers.find((n) => n.name === 'ops-hook')!;
    const mail = notifiers.find((n) => n.name === 'oncall-mail')!;
    expect(hook.properties).toEqual({ webhook: { url: 'https://hooks.example.com/quarry' } });
    expect(mail.properties).toEqual({ slack: { slackUrl: 'https://hooks.slack.example/T0/B0/x' } });

    await page.getByRole('button', { name: 'New monitor' }).click();
    await page.getByRole('textbox', { name: 'Monitor name' }).fill('Any 503');
    await page.getByRole('combobox', { name: 'Monitor type' }).selectOption({ label: 'Match event' });
    await expect(page.getByRole('spinbutton', { name: 'Threshold' }).count()).resolves.toBe(0);
    await page.getByRole('textbox', { name: 'APL' }).fill("['sample'] | where status == 503");
    await page.getByRole('checkbox', { name: 'Notify ops-hook' }).check();
    expect(await accessibilityProblems(page)).toEqual([]);
    await page.getByRole('button', { name: 'Create monitor' }).click();
    await page.getByRole('cell', { name: 'any matching event' }).waitFor();

    await page.getByRole('button', { name: 'New monitor' }).click();
    await page.getByRole('textbox', { name: 'Monitor name' }).fill('Traffic shift');
    await page.getByRole('combobox', { name: 'Monitor type' }).selectOption({ label: 'Anomaly detection' });
    await page
      .getByRole('textbox', { name: 'APL' })
      .fill("['sample'] | summarize count() by bin_auto(_time)");
    await page.getByRole('combobox', { name: 'Operator' }).selectOption('AboveOrBelow');
    await page.getByRole('spinbutton', { name: 'Compare with days ago' }).fill('7');
    await page.getByRole('spinbutton', { name: 'Tolerance (%)' }).fill('20');
    await page.getByRole('checkbox', { name: 'Notify oncall-mail' }).check();
    await page.getByRole('button', { name: 'Create monitor' }).click();
    await page.getByRole('cell', { name: 'AboveOrBelow ±20% vs 7 d ago' }).waitFor();

    const monitors: Record<string, unknown>[] = await json('GET', '/v2/monitors');
    expect(monitors).toContainEqual(
      expect.objectContaining({ name: 'Any 503', type: 'MatchEvent', notifierIds: [hook.id] }),
    );
    expect(monitors.find((m) => m.name === 'Any 503')).not.toHaveProperty('threshold');
    expect(monitors).toContainEqual(
      expect.objectContaining({
        name: 'Traffic shift',
        type: 'AnomalyDetection',
        operator: 'AboveOrBelow',
        compareDays: 7,
        tolerance: 20,
        notifierIds: [mail.id],
      }),
    );
    await screenshot(w, 'monitors-notifiers');

    // Edit: attach the second notifier and change the schedule.
    await page.getByRole('link', { name: 'Any 503' }).click();
    await page.getByRole('heading', { name: 'Any 503' }).waitFor();
    await page.getByText('ops-hook', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Edit monitor' }).click();
    await expect(page.getByRole('textbox', { name: 'Monitor name' }).inputValue()).resolves.toBe('Any 503');
    await page.getByRole('checkbox', { name: 'Notify oncall-mail' }).check();
    await page.getByRole('spinbutton', { name: 'Every (minutes)' }).fill('15');
    expect(await accessibilityProblems(page)).toEqual([]);
    await page.getByRole('button', { name: 'Save monitor' }).click();
    await page.getByText('ops-hook, oncall-mail', { exact: true }).waitFor();
    const id = (monitors.find((m) => m.name === 'Any 503') as { id: string }).id;
    expect(await json('GET', `/v2/monitors/${id}`)).toMatchObject({
      type: 'MatchEvent',
      intervalMinutes: 15,
      notifierIds: [hook.id, mail.id],
    });

    // A notifier is deleted from the list.
    await page.getByRole('link', { name: 'All monitors' }).click();
    await page.getByRole('button', { name: 'Delete notifier ops-hook' }).click();
    await page.getByRole('cell', { name: 'ops-hook', exact: true }).waitFor({ state: 'detached' });
    expect((await json('GET', '/v2/notifiers')).map((n: { name: string }) => n.name)).toEqual([
      'oncall-mail',
    ]);
    expect(w.problems).toEqual([]);
    await w.context.close();
  });

  it('adds pie and top-list elements to a dashboard and saves them', async () => {
    const w = await openPage(env);
    await signIn(w, env, '/dashboards', '/dashboards');
    const page = w.page;
    await page.getByRole('button', { name: 'New dashboard' }).click();
    await page.getByRole('textbox', { name: 'Name' }).fill('Shares');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL((u) => u.pathname.startsWith('/dashboards/shares-'));
    const uid = decodeURIComponent(new URL(page.url()).pathname.split('/')[2]!);
    const add = async (type: string, title: string, apl: string) => {
      await page.getByRole('button', { name: 'Add chart' }).click();
      await page.getByRole('combobox', { name: 'Element type' }).selectOption({ label: type });
      await page.getByRole('textbox', { name: 'Title' }).fill(title);
      await page.getByRole('textbox', { name: 'APL query' }).click();
      await page.keyboard.insertText(apl);
      await page.getByRole('button', { name: 'Add', exact: true }).click();
    };
    await add('Pie', 'Methods', "['sample'] | summarize count() by method");
    await add('Top list', 'Paths', "['sample'] | summarize count() by path");

    const pie = page.getByRole('img', { name: 'Methods pie chart' });
    await pie.waitFor();
    await expect(pie.locator('path').count()).resolves.toBe(3);
    // 600 events, methods cycling: each a third.
    for (const m of ['GET', 'POST', 'PUT']) await page.getByText(`${m}: 200 (33%)`).waitFor();
    await boxOf(page, 'svg[role="img"]');
    const top = page.getByRole('list', { name: 'Paths top list' });
    await top.waitFor();
    await expect(top.getByRole('listitem').count()).resolves.toBe(10);
    // 600 over 17 paths: the first 5 paths have 36 events, the others 35.
    await expect(top.getByRole('listitem').first().textContent()).resolves.toMatch(/^\/api\/items\/[0-4]36$/);
    expect(await accessibilityProblems(page)).toEqual([]);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText(/^Saved \(version \d+\)/).waitFor();
    await screenshot(w, 'dashboard-pie-top-list');
    const stored = await json('GET', `/v2/dashboards/uid/${uid}`);
    expect(stored.dashboard.charts.map((c: { type: string; name: string }) => [c.type, c.name])).toEqual([
      ['Pie', 'Methods'],
      ['TopK', 'Paths'],
    ]);
    expect(w.problems).toEqual([]);
    await w.context.close();
  });
});
