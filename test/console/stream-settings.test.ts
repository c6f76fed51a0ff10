import {
  accessibilityProblems,
  ingest,
  openPage,
  sampleEvents,
  screenshot,
  signIn,
  startConsoleEnv,
  type ConsoleEnv,
} from './console-harness';

/** Console flows 9–10 of console.md §6 and the later pages: Stream, tokens, monitors, roles, groups, views, virtual fields, MPL. */
describe('console: stream, settings, monitors and the editors', () => {
  let env: ConsoleEnv;

  beforeAll(async () => {
    env = await startConsoleEnv();
    await env.server.request('POST', '/v2/datasets', { body: { name: 'sample' } });
    await ingest(env, 'sample', sampleEvents(300));
  });
  afterAll(async () => {
    await env?.close();
  });

  it('tails new events within 5 s, and pausing stops them until resumed', async () => {
    const w = await openPage(env);
    await signIn(w, env, '/stream/sample', '/stream/sample');
    const page = w.page;
    const events = page.getByRole('grid', { name: 'Events' });
    await page.getByText(/^Live · 100 events$/).waitFor();
    const started = Date.now();
    await ingest(
      env,
      'sample',
      [1, 2, 3].map((n) => ({ msg: `tail-${n}`, status: 200 })),
    );
    for (const n of [1, 2, 3])
      await events.getByText(`tail-${n}`, { exact: true }).waitFor({ timeout: 5000 });
    expect(Date.now() - started).toBeLessThan(5000);
    await screenshot(w, 'stream');

    await page.getByRole('button', { name: 'Pause' }).click();
    await ingest(env, 'sample', [{ msg: 'while-paused', status: 200 }]);
    await page.waitForTimeout(4500);
    await expect(events.getByText('while-paused').count()).resolves.toBe(0);
    await page.getByRole('button', { name: 'Resume' }).click();
    await events.getByText('while-paused', { exact: true }).waitFor({ timeout: 5000 });
    expect(await accessibilityProblems(page)).toEqual([]);
    expect(w.problems).toEqual([]);
    await w.context.close();
  });

  it('creates an ingest token shown once, deletes it, and the API then refuses it', async () => {
    const w = await openPage(env);
    await signIn(w, env, '/settings', '/settings');
    const page = w.page;
    await page.getByRole('textbox', { name: 'Token name' }).fill('shipper');
    await page.getByRole('combobox', { name: 'Dataset' }).selectOption('sample');
    await page.getByRole('button', { name: 'Create token' }).click();
    const value = (await page.locator('.secret-value').textContent())!;
    expect(value).toMatch(/^xaat-/);
    const ok = await env.server.request('POST', '/v1/datasets/sample/ingest', {
      body: [{ msg: 'from shipper' }],
      headers: { Authorization: `Bearer ${value}` },
    });
    expect(ok.status).toBe(200);
    await screenshot(w, 'settings-tokens');
    expect(await accessibilityProblems(page)).toEqual([]);

    await page.reload();
    await page.getByRole('cell', { name: 'shipper', exact: true }).waitFor();
    await expect(page.getByText(value).count()).resolves.toBe(0);
    await page.getByRole('button', { name: 'Delete token shipper' }).click();
    await page.getByRole('cell', { name: 'shipper', exact: true }).waitFor({ state: 'detached' });
    const refused = await env.server.request('POST', '/v1/datasets/sample/ingest', {
      body: [{ msg: 'after delete' }],
      headers: { Authorization: `Bearer ${value}` },
    });
    expect(refused.status).toBe(401);
    expect(w.problems).toEqual([]);
    await w.context.close();
  });

  it('creates roles and groups', async () => {
    const w = await openPage(env);
    await signIn(w, env, '/settings/roles', '/settings/roles');
    await w.page.getByRole('textbox', { name: 'New role name' }).fill('readers');
    await w.page.getByRole('button', { name: 'Create role' }).click();
    await w.page.getByRole('cell', { name: 'readers', exact: true }).waitFor();
    expect(await accessibilityProblems(w.page)).toEqual([]);
    await w.page.getByRole('link', { name: 'Groups' }).click();
    await w.page.getByRole('textbox', { name: 'New group name' }).fill('oncall');
    await w.page.getByRole('button', { name: 'Create group' }).click();
    await w.page.getByRole('cell', { name: 'oncall', exact: true }).waitFor();
    await screenshot(w, 'settings-groups');
    const roles = await (await env.server.request('GET', '/v2/rbac/roles')).json();
    const groups = await (await env.server.request('GET', '/v2/rbac/groups')).json();
    expect(roles.map((r: { name: string }) => r.name)).toContain('readers');
    expect(groups.map((g: { name: string }) => g.name)).toContain('oncall');
    expect(w.problems).toEqual([]);
    await w.context.close();
  });

  it('creates a threshold monitor, lists it and opens its history', async () => {
    const w = await openPage(env);
    await signIn(w, env, '/monitors', '/monitors');
    const page = w.page;
    await page.getByRole('button', { name: 'New monitor' }).click();
    await page.getByRole('textbox', { name: 'Monitor name' }).fill('Too many 5xx');
    await page
      .getByRole('textbox', { name: 'APL' })
      .fill("['sample'] | where status >= 500 | summarize count()");
    await page.getByRole('spinbutton', { name: 'Threshold' }).fill('10');
    await page.getByRole('button', { name: 'Create monitor' }).click();
    await page.getByRole('link', { name: 'Too many 5xx' }).click();
    await page.getByRole('heading', { name: 'Too many 5xx' }).waitFor();
    await page.getByRole('heading', { name: 'History' }).waitFor();
    const list = await (await env.server.request('GET', '/v2/monitors')).json();
    expect(list).toContainEqual(
      expect.objectContaining({ name: 'Too many 5xx', type: 'Threshold', operator: 'Above', threshold: 10 }),
    );
    await screenshot(w, 'monitor');
    expect(await accessibilityProblems(page)).toEqual([]);
    expect(w.problems).toEqual([]);
    await w.context.close();
  });

  it('edits virtual fields and views, and opens the MPL explorer', async () => {
    const w = await openPage(env);
    await signIn(w, env, '/datasets/sample', '/datasets/sample');
    const page = w.page;
    await page.getByRole('textbox', { name: 'Virtual field name' }).fill('is_error');
    await page.getByRole('textbox', { name: 'Expression' }).fill('status >= 500');
    await page.getByRole('button', { name: 'Add virtual field' }).click();
    await page.getByRole('button', { name: 'Delete virtual field is_error' }).waitFor();
    const vfields = await (await env.server.request('GET', '/v2/vfields?dataset=sample')).json();
    expect(vfields).toContainEqual(
      expect.objectContaining({ name: 'is_error', expression: 'status >= 500' }),
    );

    await page.getByRole('link', { name: 'All datasets' }).click();
    await page.getByRole('textbox', { name: 'View name' }).fill('errors');
    await page.getByRole('textbox', { name: 'View APL' }).fill("['sample'] | where status >= 500");
    await page.getByRole('button', { name: 'Create view' }).click();
    await page.getByRole('button', { name: 'Delete view errors' }).waitFor();
    expect(await accessibilityProblems(page)).toEqual([]);

    await page.getByRole('link', { name: 'Query', exact: true }).click();
    await page.getByRole('link', { name: 'MPL explorer' }).click();
    await page.getByRole('heading', { name: 'MPL explorer' }).waitFor();
    await screenshot(w, 'mpl');
    expect(await accessibilityProblems(page)).toEqual([]);
    expect(w.problems).toEqual([]);
    await w.context.close();
  });
});
