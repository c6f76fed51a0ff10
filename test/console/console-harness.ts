import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startTestServer, TEST_PAT, TEST_TOKEN, type TestServer } from '../support/test-server';

/**
 * The console's browser tests: the standalone server (in this process, serving the built console
 * from apps/console/dist) and Debian's Chromium driven by playwright-core. `.ci/run` installs
 * `chromium`; `npm test` builds the console first (`npm run build`). Neither is downloaded here.
 */
export const REPO = path.join(__dirname, '..', '..');
export const CONSOLE_DIST = path.join(REPO, 'apps', 'console', 'dist');
export const SCREENSHOTS = path.join(__dirname, 'screenshots');
export const CHROMIUM = process.env.QUARRY_CHROMIUM ?? '/usr/bin/chromium';
export { TEST_PAT, TEST_TOKEN };

export interface ConsoleEnv {
  server: TestServer;
  browser: Browser;
  close(): Promise<void>;
}

export async function startConsoleEnv(env: Record<string, string> = {}): Promise<ConsoleEnv> {
  if (!fs.existsSync(path.join(CONSOLE_DIST, 'index.html')))
    throw new Error(
      `the console is not built (${CONSOLE_DIST}): run npm run build (or npm run build -w apps/console)`,
    );
  if (!fs.existsSync(CHROMIUM))
    throw new Error(
      `no Chromium at ${CHROMIUM}: apt-get install -y chromium (.ci/run does), or set QUARRY_CHROMIUM`,
    );
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  const server = await startTestServer(env);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  return {
    server,
    browser,
    async close() {
      await browser.close();
      await server.close();
    },
  };
}

/**
 * A page that records what must never happen on normal use: uncaught errors, `console.error`, and
 * requests to any origin other than the server's.
 */
export interface WatchedPage {
  page: Page;
  context: BrowserContext;
  problems: string[];
  /** Bytes of JavaScript received since the last `resetJs()`, by URL. */
  js: Map<string, number>;
  resetJs(): void;
}

export async function openPage(
  env: ConsoleEnv,
  options: { expectErrors?: RegExp } = {},
): Promise<WatchedPage> {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 860 } });
  const page = await context.newPage();
  const origin = new URL(env.server.url).origin;
  const problems: string[] = [];
  const js = new Map<string, number>();
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    // A 4xx the test provokes on purpose (a bad token, a bad query) is logged by Chromium as a failed load.
    if (options.expectErrors?.test(msg.text())) return;
    problems.push(`console.error: ${msg.text()}`);
  });
  page.on('request', (req) => {
    const url = req.url();
    if (url.startsWith('data:') || url.startsWith('blob:')) return;
    if (new URL(url).origin !== origin) problems.push(`request to another origin: ${url}`);
  });
  page.on('response', async (res) => {
    if (!/\.js(\?|$)/.test(res.url())) return;
    try {
      js.set(res.url(), (await res.body()).length);
    } catch {
      // a response without a body (cached): nothing to count
    }
  });
  return { page, context, problems, js, resetJs: () => js.clear() };
}

/** Signs in through the form with the admin API token (or a PAT with the org id) and waits for `expectPath`. */
export async function signIn(
  w: WatchedPage,
  env: ConsoleEnv,
  startPath = '/',
  expectPath = '/query',
  pat = false,
): Promise<void> {
  await w.page.goto(env.server.url + startPath);
  await w.page.getByRole('textbox', { name: 'Token' }).fill(pat ? TEST_PAT : TEST_TOKEN);
  if (pat) await w.page.getByRole('textbox', { name: 'Org ID' }).fill(env.server.orgId);
  await w.page.getByRole('button', { name: 'Sign in' }).click();
  await w.page.waitForURL((u) => u.pathname === expectPath.split('?')[0]);
}

/** Saves a full-page screenshot and checks it is a real PNG of the viewport's width. */
export async function screenshot(w: WatchedPage, name: string): Promise<string> {
  const file = path.join(SCREENSHOTS, `${name}.png`);
  const png = await w.page.screenshot({ path: file, fullPage: true });
  // PNG signature, then the IHDR width (big-endian) at byte 16.
  expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
  expect(png.readUInt32BE(16)).toBe(1280);
  expect(png.length).toBeGreaterThan(5000);
  return file;
}

/** Non-background pixels of the first canvas inside `selector` (uPlot draws on a 2D canvas). */
export async function paintedPixels(page: Page, selector: string): Promise<number> {
  return page.$eval(selector, (root) => {
    const canvas = root.querySelector('canvas');
    if (!canvas) return -1;
    const ctx = canvas.getContext('2d')!;
    const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
    let painted = 0;
    for (let i = 3; i < data.length; i += 4) if (data[i]! > 0) painted++;
    return painted;
  });
}

/** A rendered element's box: asserts it exists and is not empty. */
export async function boxOf(page: Page, selector: string): Promise<{ width: number; height: number }> {
  const box = await page.locator(selector).first().boundingBox();
  expect(box).not.toBeNull();
  expect(box!.width).toBeGreaterThan(0);
  expect(box!.height).toBeGreaterThan(0);
  return box!;
}

const AXE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core's checks that every control has an accessible name and that ARIA is used validly. The
 * source is evaluated through the DevTools protocol, which the page's CSP does not restrict.
 */
export async function accessibilityProblems(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const page = globalThis as unknown as {
      document: unknown;
      axe: {
        run(
          context: unknown,
          options: unknown,
        ): Promise<{ violations: { id: string; help: string; nodes: { target: string[] }[] }[] }>;
      };
    };
    const result = await page.axe.run(page.document, {
      runOnly: {
        type: 'rule',
        values: [
          'button-name',
          'link-name',
          'label',
          'select-name',
          'input-button-name',
          'aria-input-field-name',
          'aria-toggle-field-name',
          'aria-command-name',
          'role-img-alt',
          'image-alt',
          'aria-allowed-attr',
          'aria-required-attr',
          'aria-required-children',
          'aria-required-parent',
          'aria-roles',
          'aria-valid-attr',
          'aria-valid-attr-value',
          'aria-hidden-focus',
          'duplicate-id-aria',
          'nested-interactive',
          'scrollable-region-focusable',
        ],
      },
    });
    return result.violations.map(
      (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`,
    );
  });
  return violations;
}

/** Events for the `sample` dataset: `n` HTTP-log lines over the last `spanMs`, statuses and methods cycling. */
export function sampleEvents(n: number, spanMs = 3_000_000): Record<string, unknown>[] {
  const now = Date.now();
  const methods = ['GET', 'POST', 'PUT'];
  const statuses = [200, 200, 201, 404, 500, 503];
  return Array.from({ length: n }, (_, i) => ({
    _time: new Date(now - 5_000 - Math.floor((i * spanMs) / n)).toISOString(),
    method: methods[i % 3],
    status: statuses[i % 6],
    path: `/api/items/${i % 17}`,
    duration_ms: (i % 97) + 0.5,
    ok: statuses[i % 6]! < 400,
  }));
}

export async function ingest(
  env: ConsoleEnv,
  dataset: string,
  events: Record<string, unknown>[],
): Promise<void> {
  const res = await env.server.request('POST', `/v1/datasets/${dataset}/ingest`, { body: events });
  expect(res.status).toBe(200);
}

export const tmpDir = (): string => fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-console-'));
