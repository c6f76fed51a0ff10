import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FastifyInstance } from 'fastify';

/**
 * The web console (apps/console) as static files: the built single-page app at `/`, with every path that
 * is not the API's answered by `index.html` (the SPA fallback), so a deep link such as `/dashboards/x`
 * opens the console on that page. The standalone server and the cluster's gateway both serve it through
 * `registerConsole`; the decision and the files live here, framework-free (`consoleResponse`).
 */

/** First path segments that belong to the HTTP API (and the probes): never answered by the console. */
export const API_PATH_PREFIXES = [
  '/v1',
  '/v2',
  '/api',
  '/ingest',
  '/internal',
  '/services',
  '/metrics',
  '/readyz',
  '/healthz',
  '/otlp',
  '/_bulk',
  '/loki',
] as const;

export function isApiPath(pathname: string): boolean {
  for (const prefix of API_PATH_PREFIXES) {
    if (pathname === prefix || pathname.startsWith(`${prefix}/`)) return true;
  }
  return false;
}

/**
 * Scripts, styles and connections only from the console's own origin: a script injected into the page
 * could not send the stored token elsewhere. Inline styles stay allowed (CodeMirror and uPlot set them).
 */
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/** Vite names every bundled asset `assets/<name>-<hash>.<ext>`: such a file never changes under its name. */
const HASHED_ASSET = /^\/assets\/[^/]+-[A-Za-z0-9_-]{8,}\.[a-z0-9]+$/;

export interface ConsoleResponse {
  status: number;
  headers: Record<string, string>;
  /** Absent for HEAD. */
  body?: Buffer;
}

export interface ConsoleOptions {
  /** The built console (`apps/console/dist`); `findConsoleDist()` when absent. */
  distDir?: string | null;
}

/**
 * Where the built console is: `QUARRY_CONSOLE_DIR`, else `apps/console/dist` found by walking up from this
 * file (it runs from `libs/console-static/dist` in the repository and in the images). Null when there is
 * no repository around (the console is then reported as not built).
 */
export function findConsoleDist(env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.QUARRY_CONSOLE_DIR) return path.resolve(env.QUARRY_CONSOLE_DIR);
  let dir = __dirname;
  for (let i = 0; i < 6; i++) {
    const candidate = path.join(dir, 'apps', 'console');
    if (fs.existsSync(path.join(candidate, 'package.json'))) return path.join(candidate, 'dist');
    dir = path.dirname(dir);
  }
  return null;
}

const NOT_BUILT = Buffer.from(
  '<!doctype html><meta charset="utf-8"><title>Quarry console not built</title>' +
    '<h1>The Quarry console has not been built</h1>' +
    '<p>Build it with <code>npm run build</code> (or <code>npm run build -w apps/console</code>) and reload. ' +
    'The HTTP API under <code>/v1</code> and <code>/v2</code> works without it.</p>',
);

/**
 * The console's answer to a GET or HEAD, or null when the request is not the console's (another method,
 * or an API path). Files are read from disk on each request: `index.html` is tiny and a rebuild is picked
 * up without a restart; the operating system caches the rest.
 */
export function consoleResponse(distDir: string | null, method: string, url: string): ConsoleResponse | null {
  if (method !== 'GET' && method !== 'HEAD') return null;
  const queryAt = url.indexOf('?');
  let pathname: string;
  try {
    pathname = decodeURIComponent(queryAt === -1 ? url : url.slice(0, queryAt));
  } catch {
    return null;
  }
  if (isApiPath(pathname)) return null;
  const head = method === 'HEAD';
  const security = {
    'content-security-policy': CSP,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
  };
  const index = distDir === null ? null : readFile(path.join(distDir, 'index.html'));
  if (distDir === null || index === null) {
    return {
      status: 503,
      headers: { ...security, 'content-type': CONTENT_TYPES['.html']!, 'cache-control': 'no-store' },
      body: head ? undefined : NOT_BUILT,
    };
  }
  const file = path.normalize(path.join(distDir, pathname));
  const inside = file.startsWith(distDir + path.sep);
  if (inside && pathname !== '/' && pathname !== '/index.html') {
    const body = readFile(file);
    if (body !== null) {
      const type = CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
      return {
        status: 200,
        headers: {
          ...security,
          'content-type': type,
          'content-length': String(body.length),
          'cache-control': HASHED_ASSET.test(pathname) ? 'public, max-age=31536000, immutable' : 'no-cache',
        },
        body: head ? undefined : body,
      };
    }
    // A missing bundle file is a 404, never the app's HTML (a stale page would parse HTML as a script).
    if (pathname.startsWith('/assets/')) {
      return {
        status: 404,
        headers: { ...security, 'content-type': CONTENT_TYPES['.txt']!, 'cache-control': 'no-cache' },
        body: head ? undefined : Buffer.from(`${pathname} is not part of this console build\n`),
      };
    }
  }
  return {
    status: 200,
    headers: {
      ...security,
      'content-type': CONTENT_TYPES['.html']!,
      'content-length': String(index.length),
      'cache-control': 'no-cache',
    },
    body: head ? undefined : index,
  };
}

function readFile(file: string): Buffer | null {
  try {
    return fs.readFileSync(file);
  } catch {
    return null;
  }
}

/**
 * Serves the console from a Fastify instance: an `onRequest` hook answers GET/HEAD outside the API before
 * routing, so it works whatever routes (or catch-all) the instance has. Register it before `listen`.
 */
export function registerConsole(app: FastifyInstance, options: ConsoleOptions = {}): void {
  const distDir = options.distDir === undefined ? findConsoleDist() : options.distDir;
  app.addHook('onRequest', (request, reply, done) => {
    const answer = consoleResponse(distDir, request.method, request.url);
    if (answer === null) return done();
    reply.code(answer.status).headers(answer.headers);
    if (answer.body === undefined) reply.removeHeader('content-length');
    reply.send(answer.body ?? '');
  });
}
