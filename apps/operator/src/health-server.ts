import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';

export interface HealthServerOptions {
  host: string;
  port: number;
  /** `/readyz`: the caches have their first list (a follower is ready too: it can take over at once). */
  ready(): boolean;
  registry: Registry;
}

export interface HealthServer {
  url: string;
  close(): Promise<void>;
}

/** `/healthz` (the process runs), `/readyz` (caches synced) and `/metrics` (Prometheus text). */
export async function startHealthServer(options: HealthServerOptions): Promise<HealthServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD' }).end();
      return;
    }
    if (path === '/healthz') {
      res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok\n');
    } else if (path === '/readyz') {
      const ready = options.ready();
      res
        .writeHead(ready ? 200 : 503, { 'Content-Type': 'text/plain' })
        .end(ready ? 'ok\n' : 'caches not synced\n');
    } else if (path === '/metrics') {
      options.registry.metrics().then(
        (text) => res.writeHead(200, { 'Content-Type': options.registry.contentType }).end(text),
        (err: unknown) => res.writeHead(500, { 'Content-Type': 'text/plain' }).end(`${String(err)}\n`),
      );
    } else {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found\n');
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host === '0.0.0.0' ? '127.0.0.1' : options.host;
  return {
    url: `http://${host}:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
