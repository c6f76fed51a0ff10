import {
  accessibilityProblems,
  boxOf,
  ingest,
  openPage,
  paintedPixels,
  sampleEvents,
  screenshot,
  signIn,
  startConsoleEnv,
  TEST_TOKEN,
  type ConsoleEnv,
} from './console-harness';

/** What the grid rows are, to the page script (the tests compile without the DOM library). */
interface CellParent {
  querySelectorAll(selector: string): ArrayLike<{ textContent: string | null }>;
}

/** Console flows 1–6 of console.md §6: sign-in, datasets, the APL editor, results, chart, share link, star. */
describe('console: sign-in, datasets and the Query page', () => {
  let env: ConsoleEnv;

  beforeAll(async () => {
    env = await startConsoleEnv();
    await env.server.request('POST', '/v2/datasets', { body: { name: 'sample' } });
    await ingest(env, 'sample', sampleEvents(5000));
  });
  afterAll(async () => {
    await env?.close();
  });

  it('serves the console at / and deep links, keeps the API on /v1 and /v2', async () => {
    for (const p of ['/', '/dashboards/x', '/query?apl=x']) {
      const res = await fetch(env.server.url + p);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
      expect(await res.text()).toContain('<div id="root">');
    }
    const html = await (await fetch(env.server.url + '/')).text();
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)![1]!;
    const asset = await fetch(env.server.url + script);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(asset.headers.get('cache-control')).toContain('immutable');
    expect((await env.server.request('GET', '/v2/datasets')).status).toBe(200);
    const missing = await fetch(`${env.server.url}/v1/nothing-here`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toMatch(/json/);
  });

  it('signs in: a bad token is refused, a deep link opens after sign-in, a reload keeps the session, a PAT needs the Org ID', async () => {
    const w = await openPage(env, { expectErrors: /401/ });
    await w.page.goto(`${env.server.url}/datasets/sample`);
    await w.page.waitForURL((u) => u.pathname === '/login');
    await screenshot(w, 'sign-in');
    expect(await accessibilityProblems(w.page)).toEqual([]);
    await w.page.getByRole('textbox', { name: 'Token' }).fill('xaat-not-a-real-token');
    await w.page.getByRole('button', { name: 'Sign in' }).click();
    await expect(w.page.getByRole('alert').textContent()).resolves.toMatch(/not accepted/);
    expect(w.page.url()).not.toContain('xaat');

    await w.page.getByRole('textbox', { name: 'Token' }).fill(TEST_TOKEN);
    await w.page.getByRole('button', { name: 'Sign in' }).click();
    await w.page.waitForURL((u) => u.pathname === '/datasets/sample');
    await w.page.reload();
    await w.page.getByRole('heading', { name: 'sample' }).waitFor();
    expect(w.page.url()).not.toContain(TEST_TOKEN);
    await w.context.close();

    const p = await openPage(env);
    await signIn(p, env, '/dashboards', '/dashboards', true);
    await p.page.getByRole('button', { name: 'New dashboard' }).waitFor();
    expect(p.problems).toEqual([]);
    await p.context.close();
  });

  it('shows navigation and the datasets with their fields and types as words', async () => {
    const w = await openPage(env);
    await signIn(w, env, '/datasets', '/datasets');
    const nav = w.page.getByRole('navigation', { name: 'Main' });
    for (const name of ['Query', 'Stream', 'Datasets', 'Dashboards', 'Monitors', 'Settings'])
      await expect(nav.getByRole('link', { name, exact: true }).count()).resolves.toBe(1);
    const link = w.page.getByRole('link', { name: 'sample', exact: true });
    await link.click();
    await w.page.waitForURL((u) => u.pathname === '/datasets/sample');
    const row = (field: string) =>
      w.page.getByRole('row').filter({ has: w.page.getByText(field, { exact: true }) });
    await expect(row('status').getByRole('cell').nth(1).textContent()).resolves.toBe('integer');
    await expect(row('method').getByRole('cell').nth(1).textContent()).resolves.toBe('string');
    await expect(row('duration_ms').getByRole('cell').nth(1).textContent()).resolves.toBe('real');
    await expect(row('ok').getByRole('cell').nth(1).textContent()).resolves.toBe('boolean');
    await expect(row('_time').getByRole('cell').nth(1).textContent()).resolves.toBe('datetime');
    await screenshot(w, 'dataset');
    expect(await accessibilityProblems(w.page)).toEqual([]);
    await w.page.getByRole('link', { name: 'Datasets', exact: true }).click();
    await w.page.getByRole('link', { name: 'sample', exact: true }).waitFor();
    await screenshot(w, 'datasets');
    expect(w.problems).toEqual([]);
    await w.context.close();
  });

  it('completes, runs on Ctrl-Enter, shows the status line, the rows and the event JSON, and puts the query in the URL', async () => {
    const w = await openPage(env);
    await signIn(w, env);
    const editor = w.page.getByRole('textbox', { name: 'APL query' });
    await editor.click();
    await w.page.keyboard.type("['sample'] | w");
    await w.page
      .getByRole('listbox')
      .getByRole('option', { name: /^where/ })
      .first()
      .waitFor();
    await w.page.keyboard.press('Escape');
    await w.page.keyboard.type('here stat');
    await w.page
      .getByRole('listbox')
      .getByRole('option', { name: /^status/ })
      .waitFor();
    await w.page.keyboard.press('Escape');
    await w.page.keyboard.type('us >= 500 | take 20');
    // Only the editor may mention "query" among the page's controls.
    const controls = await w.page
      .getByRole('button')
      .or(w.page.getByRole('textbox'))
      .or(w.page.getByRole('combobox'))
      .all();
    const named = await Promise.all(
      controls.map(async (c) => (await c.getAttribute('aria-label')) ?? (await c.textContent()) ?? ''),
    );
    expect(named.filter((n) => /query/i.test(n))).toEqual(['APL query']);
    await expect(w.page.getByRole('combobox', { name: 'Time range' }).inputValue()).resolves.toBe('1h');

    await w.page.keyboard.press('Control+Enter');
    const status = w.page.getByText(/rows examined/);
    await status.waitFor();
    const [, examined, matched] = /^(\d+) rows examined · (\d+) matched · (\d+) ms/.exec(
      (await status.textContent())!,
    )!;
    expect(Number(examined)).toBeGreaterThanOrEqual(Number(matched));
    // The server may stop reading once `take 20` is satisfied: matched is at least the 20 rows returned.
    expect(Number(matched)).toBeGreaterThanOrEqual(20);
    expect(Number(examined)).toBeLessThanOrEqual(5000);
    const grid = w.page.getByRole('grid', { name: 'Results' });
    await expect(grid.getAttribute('aria-rowcount')).resolves.toBe('21');
    await expect(grid.getByRole('row').count()).resolves.toBe(21);
    const url = new URL(w.page.url());
    expect(url.searchParams.get('apl')).toBe("['sample'] | where status >= 500 | take 20");
    expect(url.searchParams.get('t_qr')).toBe('1h');

    await grid.getByRole('row').nth(3).click();
    const panel = w.page.getByRole('complementary', { name: 'Event details' });
    const event = JSON.parse((await panel.locator('pre').textContent())!);
    expect(event.status).toBeGreaterThanOrEqual(500);
    await boxOf(w.page, '.chart-canvas');
    expect(await paintedPixels(w.page, '[role="img"][aria-label*="chart"]')).toBeGreaterThan(100);
    await screenshot(w, 'query');
    expect(await accessibilityProblems(w.page)).toEqual([]);
    expect(w.problems).toEqual([]);
    await w.context.close();
  });

  it('shows a failed query with the server message and position, and underlines it', async () => {
    const w = await openPage(env, { expectErrors: /400/ });
    await signIn(w, env);
    await w.page.getByRole('textbox', { name: 'APL query' }).click();
    await w.page.keyboard.type("['sample'] | wher status > 1");
    await w.page.getByRole('button', { name: 'Run' }).click();
    const alert = w.page.getByRole('alert');
    await alert.waitFor();
    const text = (await alert.textContent())!;
    expect(text).toContain("unknown operator 'wher'");
    expect(text).toContain('line 1, column 14');
    await w.page.locator('.cm-lintRange-error').first().waitFor();
    await expect(w.page.locator('.cm-lintRange-error').first().textContent()).resolves.toBe('wher');
    expect(w.problems).toEqual([]);
    await w.context.close();
  });

  it('draws a time-binned summary with one legend entry per group, equal to the API answer; a shared link reproduces it', async () => {
    const apl = "['sample'] | summarize count() by bin(_time, 5m), method";
    const w = await openPage(env);
    await signIn(w, env, `/query?apl=${encodeURIComponent(apl)}&t_qr=6h`, '/query');
    const chart = w.page.getByRole('img', { name: /chart/ });
    await chart.waitFor();
    const legend = w.page.getByRole('group', { name: /legend/ });
    await expect(legend.getByRole('button').allTextContents()).resolves.toEqual(['GET', 'POST', 'PUT']);
    expect(await paintedPixels(w.page, '[role="img"]')).toBeGreaterThan(100);
    await expect(w.page.getByRole('combobox', { name: 'Time range' }).inputValue()).resolves.toBe('6h');

    // The table's totals per method equal the API's own answer.
    const api = await env.server.request('POST', '/v1/datasets/_apl?format=tabular', {
      body: { apl: "['sample'] | summarize count() by method", startTime: 'now-6h', endTime: 'now' },
    });
    const body = await api.json();
    const expected = Object.fromEntries(
      body.tables[0].columns[0].map((m: string, i: number) => [m, body.tables[0].columns[1][i]]),
    );
    const cells = await w.page
      .getByRole('grid', { name: 'Results' })
      .getByRole('row')
      .evaluateAll((rows) =>
        rows
          .slice(1)
          .map((r) =>
            Array.from((r as unknown as CellParent).querySelectorAll('[role="gridcell"]')).map(
              (c) => c.textContent ?? '',
            ),
          ),
      );
    const totals: Record<string, number> = {};
    for (const [, method, count] of cells) totals[method!] = (totals[method!] ?? 0) + Number(count);
    // The grid shows the rows in view; the whole result is in aria-rowcount.
    const rowCount = Number(
      await w.page.getByRole('grid', { name: 'Results' }).getAttribute('aria-rowcount'),
    );
    if (rowCount - 1 === cells.length) expect(totals).toEqual(expected);
    expect(Object.keys(expected).sort()).toEqual(['GET', 'POST', 'PUT']);

    // Legend toggles hide a series.
    await legend.getByRole('button', { name: 'GET' }).click();
    await expect(legend.getByRole('button', { name: 'GET' }).getAttribute('aria-pressed')).resolves.toBe(
      'false',
    );
    await screenshot(w, 'query-chart');

    // The same URL in a fresh browser context (same token) runs the same query over the same range.
    const shared = await openPage(env);
    await signIn(shared, env, new URL(w.page.url()).pathname + new URL(w.page.url()).search, '/query');
    await shared.page.getByRole('img', { name: /chart/ }).waitFor();
    await expect(shared.page.getByRole('combobox', { name: 'Time range' }).inputValue()).resolves.toBe('6h');
    await expect(shared.page.locator('.cm-content').textContent()).resolves.toBe(apl);
    expect(w.problems).toEqual([]);
    expect(shared.problems).toEqual([]);
    await w.context.close();
    await shared.context.close();
  });

  it('stars a query: listed in the console and by GET /v2/apl-starred-queries', async () => {
    const w = await openPage(env);
    const apl = "['sample'] | where status >= 500";
    await signIn(w, env, `/query?apl=${encodeURIComponent(apl)}`, '/query');
    await w.page.getByText('Starred', { exact: true }).click();
    await w.page.getByRole('textbox', { name: 'Star as' }).fill('5xx');
    await w.page.getByRole('button', { name: 'Star', exact: true }).click();
    await w.page.getByRole('button', { name: '5xx' }).waitFor();
    const list = await (await env.server.request('GET', '/v2/apl-starred-queries?who=all')).json();
    expect(list.map((s: { name: string; query: { apl: string } }) => [s.name, s.query.apl])).toContainEqual([
      '5xx',
      apl,
    ]);
    expect(w.problems).toEqual([]);
    await w.context.close();
  });
});
