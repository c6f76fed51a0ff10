import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  ingest,
  openPage,
  paintedPixels,
  SCREENSHOTS,
  startConsoleEnv,
  TEST_TOKEN,
  type ConsoleEnv,
  type WatchedPage,
} from './console-harness';

const MB = 1024 * 1024;

/**
 * Console flow 11 of console.md §6 and the "measure and report": JS per route, time to first
 * result, DOM rows for a 100k-row result, the draw time of a 50k-point chart. Sizes and DOM counts are
 * asserted; timings are measured in the page and written to screenshots/performance.txt (speed goals
 * are not asserted in tests on a shared machine).
 */
describe('console: performance', () => {
  let env: ConsoleEnv;
  const measured: Record<string, unknown> = {};

  beforeAll(async () => {
    env = await startConsoleEnv();
    await env.server.request('POST', '/v2/datasets', { body: { name: 'big' } });
    // 100,000 events, two a second over the last ~14 hours: 50,000 one-second bins.
    const now = Date.now();
    for (let start = 0; start < 100_000; start += 10_000) {
      const batch = Array.from({ length: 10_000 }, (_, k) => {
        const i = start + k;
        return {
          _time: new Date(now - 10_000 - Math.floor(i / 2) * 1000).toISOString(),
          n: i,
          level: ['info', 'warn', 'error'][i % 3],
        };
      });
      await ingest(env, 'big', batch);
    }
  });
  afterAll(async () => {
    fs.writeFileSync(path.join(SCREENSHOTS, 'performance.txt'), JSON.stringify(measured, null, 2));
    process.stdout.write(`console performance: ${JSON.stringify(measured)}\n`);
    await env?.close();
  });

  /** A fresh browser context already signed in (the session as the sign-in form stores it). */
  const signedInPage = async (): Promise<WatchedPage> => {
    const w = await openPage(env);
    await w.context.addInitScript((token) => {
      (
        globalThis as unknown as { sessionStorage: { setItem(k: string, v: string): void } }
      ).sessionStorage.setItem('quarry.session', JSON.stringify({ token }));
    }, TEST_TOKEN);
    return w;
  };

  it('ships under 1.5 MB of JavaScript per route, the editor and charts only where used', async () => {
    const routes: [string, string][] = [
      ['/query', '/query?apl=%5B%27big%27%5D+%7C+summarize+count()+by+bin(_time%2C+10m)&t_qr=1d'],
      ['/datasets', '/datasets'],
      ['/dashboards', '/dashboards'],
      ['/stream', '/stream/big'],
      ['/monitors', '/monitors'],
      ['/settings', '/settings'],
    ];
    const perRoute: Record<string, { kb: number; files: string[] }> = {};
    for (const [name, url] of routes) {
      const w = await signedInPage();
      await w.page.goto(env.server.url + url);
      await w.page.getByRole('heading', { level: 1 }).first().waitFor();
      if (name === '/query') await w.page.getByRole('img', { name: /chart/ }).waitFor();
      await w.page.waitForLoadState('networkidle');
      const bytes = [...w.js.values()].reduce((a, b) => a + b, 0);
      perRoute[name] = {
        kb: Math.round(bytes / 1024),
        files: [...w.js.keys()].map((u) => new URL(u).pathname.replace('/assets/', '')),
      };
      expect(bytes).toBeLessThan(1.5 * MB);
      expect(w.problems).toEqual([]);
      await w.context.close();
    }
    // The editor and uPlot load with the Query page, not with the others.
    expect(perRoute['/query']!.files.some((f) => f.startsWith('editor-'))).toBe(true);
    expect(perRoute['/query']!.files.some((f) => f.startsWith('charts-'))).toBe(true);
    for (const route of ['/datasets', '/monitors', '/settings'])
      expect(perRoute[route]!.files.some((f) => f.startsWith('editor-') || f.startsWith('charts-'))).toBe(
        false,
      );
    measured.jsPerRouteKb = Object.fromEntries(Object.entries(perRoute).map(([k, v]) => [k, v.kb]));
  });

  it('shows the first result of a 1,000-row query, and keeps a 100k-row result under 200 row nodes while scrolling to its end', async () => {
    const w = await signedInPage();
    const page = w.page;
    await page.goto(`${env.server.url}/query?t_qr=1d`);
    await page.getByRole('textbox', { name: 'APL query' }).click();
    await page.keyboard.insertText("['big'] | take 1000");
    const t0 = await page.evaluate(() => performance.now());
    await page.getByRole('button', { name: 'Run' }).click();
    await page.getByRole('grid', { name: 'Results' }).getByRole('row').nth(1).waitFor();
    measured.firstResult1000RowsMs = Math.round((await page.evaluate(() => performance.now())) - t0);

    await page.getByRole('textbox', { name: 'APL query' }).click();
    await page.keyboard.press('Control+A');
    await page.keyboard.insertText("['big'] | take 100000");
    const t1 = await page.evaluate(() => performance.now());
    await page.keyboard.press('Control+Enter');
    const grid = page.getByRole('grid', { name: 'Results' });
    await page.waitForFunction(
      () =>
        (
          globalThis as unknown as {
            document: { querySelector(s: string): { getAttribute(a: string): string | null } | null };
          }
        ).document
          .querySelector('[role="grid"]')
          ?.getAttribute('aria-rowcount') === '100001',
    );
    measured.firstResult100kRowsMs = Math.round((await page.evaluate(() => performance.now())) - t1);
    const body = page.locator('.results-body');
    let maxRows = 0;
    for (const fraction of [0.25, 0.5, 0.75, 1]) {
      await body.evaluate((el, f) => {
        const e = el as unknown as { scrollTop: number; scrollHeight: number };
        e.scrollTop = e.scrollHeight * f;
      }, fraction);
      await page.waitForTimeout(150);
      maxRows = Math.max(maxRows, await grid.getByRole('row').count());
    }
    expect(maxRows).toBeLessThan(200);
    expect(maxRows).toBeGreaterThan(5);
    await grid.locator('[aria-rowindex="100001"]').waitFor();
    measured.rowNodesFor100kRows = maxRows;
    expect(w.problems).toEqual([]);
    await w.context.close();
  });

  it('draws a 50,000-point chart', async () => {
    const w = await signedInPage();
    const apl = "['big'] | summarize count() by bin(_time, 1s)";
    await w.page.goto(`${env.server.url}/query?apl=${encodeURIComponent(apl)}&t_qr=1d`);
    const chart = w.page.getByRole('img', { name: /chart/ });
    await chart.waitFor();
    await expect(chart.getAttribute('data-points')).resolves.toBe('50000');
    expect(await paintedPixels(w.page, '[role="img"]')).toBeGreaterThan(1000);
    measured.chart50kPointsDrawMs = Number(await chart.getAttribute('data-draw-ms'));
    expect(measured.chart50kPointsDrawMs).toBeGreaterThan(0);
    expect(w.problems).toEqual([]);
    await w.context.close();
  });
});
