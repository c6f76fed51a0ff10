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
  type ConsoleEnv,
} from './console-harness';

/** Console flows 7–8 of console.md §6: build a dashboard, drag and resize, save, reload, time window. */
describe('console: dashboards', () => {
  let env: ConsoleEnv;

  beforeAll(async () => {
    env = await startConsoleEnv();
    await env.server.request('POST', '/v2/datasets', { body: { name: 'sample' } });
    await ingest(env, 'sample', sampleEvents(2000));
  });
  afterAll(async () => {
    await env?.close();
  });

  it('creates "Ops", adds a time series, a statistic, a note, a table and a log stream, moves and resizes them, saves through /v2/dashboards', async () => {
    const w = await openPage(env);
    await signIn(w, env, '/dashboards', '/dashboards');
    const page = w.page;
    await page.getByRole('button', { name: 'New dashboard' }).click();
    await page.getByRole('textbox', { name: 'Name' }).fill('Ops');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL((u) => u.pathname.startsWith('/dashboards/ops-'));
    const uid = decodeURIComponent(new URL(page.url()).pathname.split('/')[2]!);

    const addElement = async (type: string, apl: string | null, note?: string) => {
      await page.getByRole('button', { name: 'Add chart' }).click();
      await page.getByRole('combobox', { name: 'Element type' }).selectOption({ label: type });
      if (apl !== null) {
        await page.getByRole('textbox', { name: 'APL query' }).click();
        await page.keyboard.insertText(apl);
      } else {
        await page.getByRole('textbox', { name: 'Note text' }).fill(note!);
      }
      await page.getByRole('button', { name: 'Add', exact: true }).click();
    };
    await addElement('Time series', "['sample'] | summarize count() by bin(_time, 5m), method");
    await addElement('Statistic', "['sample'] | summarize count()");
    await addElement('Note', null, '# Hello\n\nThe **ops** board.');
    await addElement('Table', "['sample'] | summarize count() by method");
    await addElement('Log stream', "['sample'] | where status >= 500 | take 50");

    const tiles = page.locator('.react-grid-item');
    await expect(tiles.count()).resolves.toBe(5);
    await page.getByRole('grid', { name: 'Table' }).getByRole('gridcell', { name: 'PUT' }).waitFor();
    await expect(page.getByRole('grid', { name: 'Log stream' }).getAttribute('aria-rowcount')).resolves.toBe(
      '51',
    );
    const chartTile = tiles.filter({ has: page.getByRole('img', { name: /chart/ }) });
    await chartTile.getByRole('img').waitFor();
    await page.getByText('2000', { exact: true }).waitFor();
    await page.getByRole('heading', { name: 'Hello' }).waitFor();
    expect(await paintedPixels(page, '.react-grid-item [role="img"]')).toBeGreaterThan(100);

    // Drag the note (by its title bar) to the right half, then widen the time series from its corner.
    const note = tiles.filter({ has: page.getByRole('heading', { name: 'Hello' }) });
    const noteHead = await note.locator('.tile-head').boundingBox();
    const gridBox = await boxOf(page, '.grid-host');
    await page.mouse.move(noteHead!.x + 20, noteHead!.y + 8);
    await page.mouse.down();
    await page.mouse.move(noteHead!.x + gridBox.width / 2, noteHead!.y - 200, { steps: 12 });
    await page.mouse.up();
    const handle = await chartTile.locator('.react-resizable-handle').boundingBox();
    await page.mouse.move(handle!.x + handle!.width / 2, handle!.y + handle!.height / 2);
    await page.mouse.down();
    await page.mouse.move(handle!.x + gridBox.width / 6, handle!.y + 40, { steps: 10 });
    await page.mouse.up();

    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText(/^Saved \(version \d+\)/).waitFor();
    const stored = await (await env.server.request('GET', `/v2/dashboards/uid/${uid}`)).json();
    const doc = stored.dashboard;
    expect(doc.name).toBe('Ops');
    expect(doc.schemaVersion).toBe(2);
    expect(doc.charts.map((c: { type: string }) => c.type)).toEqual([
      'TimeSeries',
      'Statistic',
      'Note',
      'Table',
      'LogStream',
    ]);
    const layout = Object.fromEntries(
      doc.layout.map((l: { i: string }) => [doc.charts.find((c: { id: string }) => c.id === l.i).type, l]),
    );
    expect(layout.Note.x).toBeGreaterThanOrEqual(6);
    expect(layout.TimeSeries.w).toBeGreaterThan(6);
    for (const item of doc.layout) {
      expect(item.x + item.w).toBeLessThanOrEqual(12);
      expect(item.h).toBeGreaterThanOrEqual(1);
    }
    await screenshot(w, 'dashboard');
    expect(await accessibilityProblems(page)).toEqual([]);

    // After a reload the elements are where they were saved.
    const boxesBefore = await tiles.evaluateAll((els) =>
      els.map((e) => (e as unknown as { style: { transform: string } }).style.transform),
    );
    await page.reload();
    await page.getByRole('heading', { name: 'Hello' }).waitFor();
    await expect(tiles.count()).resolves.toBe(5);
    const boxesAfter = await tiles.evaluateAll((els) =>
      els.map((e) => (e as unknown as { style: { transform: string } }).style.transform),
    );
    expect(boxesAfter).toEqual(boxesBefore);

    // The time window goes into the URL and every element queries again.
    const requery = page.waitForRequest(
      (r) => r.url().includes('/v1/datasets/_apl') && r.postData()!.includes('now-15m'),
    );
    await page.getByRole('combobox', { name: 'Time window' }).selectOption({ label: 'Last 15 minutes' });
    await requery;
    expect(new URL(page.url()).searchParams.get('t_qr')).toBe('15m');

    // An absolute window from the URL (`t_ts`/`t_te`) is what every element queries.
    const start = new Date(Date.now() - 2 * 3_600_000).toISOString();
    const end = new Date().toISOString();
    const absolute = page.waitForRequest(
      (r) => r.url().includes('/v1/datasets/_apl') && JSON.parse(r.postData()!).startTime === start,
    );
    await page.goto(
      `${env.server.url}/dashboards/${uid}?t_ts=${encodeURIComponent(start)}&t_te=${encodeURIComponent(end)}`,
    );
    const sent = JSON.parse((await absolute).postData()!);
    expect(sent).toMatchObject({ startTime: start, endTime: end });
    await page.getByRole('heading', { name: 'Hello' }).waitFor();

    // Auto-refresh every 15 s runs the elements' queries again without any action.
    await page.waitForLoadState('networkidle');
    await page.getByRole('combobox', { name: 'Auto-refresh' }).selectOption({ label: 'Every 15 s' });
    const selectedAt = Date.now();
    await page.waitForRequest((r) => r.url().includes('/v1/datasets/_apl'), { timeout: 20_000 });
    expect(Date.now() - selectedAt).toBeGreaterThan(10_000);

    await page.getByRole('link', { name: 'Dashboards', exact: true }).click();
    await page.getByRole('link', { name: 'Ops', exact: true }).waitFor();
    await screenshot(w, 'dashboards');
    expect(w.problems).toEqual([]);
    await w.context.close();
  });
});
