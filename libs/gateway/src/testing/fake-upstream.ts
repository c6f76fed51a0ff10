import { createHash } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';

/** A request a fake upstream received, with its whole body read (kept as a hash and a length). */
export interface SeenRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  bytes: number;
  sha256: string;
}

/**
 * A role node for gateway tests: a real HTTP server on 127.0.0.1 that answers `/readyz` by its `ready` flag
 * and every other request with `handle` (default: 200 JSON naming itself) after reading the whole body.
 */
export class FakeUpstream {
  ready = true;
  probes = 0;
  readonly requests: SeenRequest[] = [];
  handle: (req: http.IncomingMessage, res: http.ServerResponse, seen: SeenRequest) => void = (_req, res) =>
    sendJson(res, 200, { upstream: this.name });

  private constructor(
    readonly name: string,
    private readonly server: http.Server,
  ) {}

  static async start(name: string): Promise<FakeUpstream> {
    const server = http.createServer();
    const fake = new FakeUpstream(name, server);
    server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => fake.onRequest(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return fake;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Stops listening and drops every open connection: the port now refuses connections. */
  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
    await closed;
  }

  private onRequest(req: http.IncomingMessage, res: http.ServerResponse): void {
    if (req.url === '/readyz') {
      this.probes++;
      sendJson(res, this.ready ? 200 : 503, { status: this.ready ? 'ready' : 'replaying' });
      return;
    }
    const hash = createHash('sha256');
    let bytes = 0;
    req.on('data', (chunk: Buffer) => {
      hash.update(chunk);
      bytes += chunk.length;
    });
    req.on('end', () => {
      const seen = {
        method: req.method!,
        url: req.url!,
        headers: req.headers,
        bytes,
        sha256: hash.digest('hex'),
      };
      this.requests.push(seen);
      this.handle(req, res, seen);
    });
  }
}

export function sendJson(res: http.ServerResponse, status: number, body: unknown, headers = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** A port nothing listens on (it was free a moment ago). */
export async function closedPortUrl(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

export interface TestResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  json(): unknown;
}

/** One request on a fresh connection; `body` may be a stream (sent chunked unless a length is given). */
export function send(
  url: string,
  options: { method?: string; headers?: http.OutgoingHttpHeaders; body?: Buffer | string | Readable } = {},
): Promise<TestResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, {
      method: options.method ?? 'GET',
      headers: options.headers,
      agent: false,
    });
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        resolve({
          status: res.statusCode!,
          headers: res.headers,
          body,
          json: () => JSON.parse(body.toString('utf8')),
        });
      });
    });
    if (options.body instanceof Readable) options.body.pipe(req);
    else req.end(options.body);
  });
}

export function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Polls `condition` until it holds (or fails the test after `timeoutMs`). */
export async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
