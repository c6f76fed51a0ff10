import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import fastify from 'fastify';
import { consoleResponse, isApiPath, registerConsole } from './console-static';

describe('console static serving', () => {
  let dist: string;
  beforeAll(() => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-console-dist-'));
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
    fs.writeFileSync(path.join(dist, 'assets', 'index-AbCdEf12.js'), 'console.log(1)');
    fs.writeFileSync(path.join(dist, 'favicon.svg'), '<svg/>');
  });

  it('tells API paths from console paths', () => {
    for (const p of ['/v1', '/v1/datasets', '/v2/dashboards', '/metrics', '/readyz', '/internal/v1/rows'])
      expect(isApiPath(p)).toBe(true);
    for (const p of ['/', '/query', '/dashboards/x', '/v1x', '/assets/a.js'])
      expect(isApiPath(p)).toBe(false);
  });

  it('answers deep links with index.html, uncached, under a same-origin CSP', () => {
    const res = consoleResponse(dist, 'GET', '/dashboards/x?t_qr=1h')!;
    expect(res.status).toBe(200);
    expect(res.body!.toString()).toContain('id="root"');
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['content-security-policy']).toContain("connect-src 'self'");
  });

  it('serves hashed assets as immutable with their content type', () => {
    const res = consoleResponse(dist, 'GET', '/assets/index-AbCdEf12.js')!;
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/javascript/);
    expect(res.headers['cache-control']).toContain('immutable');
    const svg = consoleResponse(dist, 'GET', '/favicon.svg')!;
    expect(svg.headers['content-type']).toBe('image/svg+xml');
    expect(svg.headers['cache-control']).toBe('no-cache');
  });

  it('404s a missing asset, refuses traversal, ignores the API and other methods', () => {
    expect(consoleResponse(dist, 'GET', '/assets/gone-12345678.js')!.status).toBe(404);
    const traversal = consoleResponse(dist, 'GET', '/../../etc/passwd')!;
    expect(traversal.body!.toString()).toContain('id="root"');
    expect(consoleResponse(dist, 'GET', '/v1/datasets')).toBeNull();
    expect(consoleResponse(dist, 'POST', '/query')).toBeNull();
    expect(consoleResponse(dist, 'HEAD', '/query')!.body).toBeUndefined();
  });

  it('says how to build it when the console was not built', () => {
    const res = consoleResponse(path.join(dist, 'nope'), 'GET', '/')!;
    expect(res.status).toBe(503);
    expect(res.body!.toString()).toContain('npm run build');
  });

  it('serves through Fastify before routing and leaves the API routes alone', async () => {
    const app = fastify();
    registerConsole(app, { distDir: dist });
    app.get('/v1/ping', async () => ({ pong: true }));
    app.all('/*', async (_req, reply) => reply.code(404).send({ code: 404 }));
    const page = await app.inject({ method: 'GET', url: '/query?apl=x' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('id="root"');
    expect((await app.inject({ method: 'GET', url: '/v1/ping' })).json()).toEqual({ pong: true });
    expect((await app.inject({ method: 'GET', url: '/v2/nothing' })).statusCode).toBe(404);
    const head = await app.inject({ method: 'HEAD', url: '/' });
    expect(head.statusCode).toBe(200);
    await app.close();
  });
});
