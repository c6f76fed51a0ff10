/**
 * Fronts for the management server that the operator tests put between the operator and Quarry: one
 * that counts what the operator asks (`GET /v2/datasets/logs`), and an https one whose certificate is
 * signed by a private CA made for this run (`makePrivateCa`), what a QuarryConnection with
 * `spec.tls.caSecretRef` talks to. Both forward every request to a plain-http base URL.
 */
import * as http from 'node:http';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import { makePrivateCa } from '@quarry/operator/testing';

export interface Proxy {
  url: string;
  close(): Promise<void>;
}

export interface CountingProxy extends Proxy {
  /** Requests so far, as `METHOD path`. */
  readonly requests: string[];
}

/** Made on first use: only the suites that talk TLS pay for openssl. */
let privateCa: ReturnType<typeof makePrivateCa> | undefined;
const theCa = () => (privateCa ??= makePrivateCa());

/** The private CA's certificate (PEM): what `spec.tls.caSecretRef` names. */
export const privateCaPem = (): string => theCa().ca;

export function startCountingProxy(target: string): Promise<CountingProxy> {
  const requests: string[] = [];
  return startProxy(target, (request) => requests.push(`${request.method} ${request.url}`)).then((proxy) => ({
    ...proxy,
    requests,
  }));
}

/** `https://127.0.0.1:port`, trusted only with `PRIVATE_CA_PEM`. */
export function startPrivateCaProxy(target: string): Promise<Proxy> {
  return startProxy(target, undefined, { key: theCa().serverKey, cert: theCa().serverCert });
}

async function startProxy(
  target: string,
  onRequest?: (request: http.IncomingMessage) => void,
  tls?: https.ServerOptions,
): Promise<Proxy> {
  const upstream = new URL(target);
  const forward: http.RequestListener = (request, response) => {
    onRequest?.(request);
    const forwarded = http.request(
      {
        hostname: upstream.hostname,
        port: upstream.port,
        method: request.method,
        path: request.url,
        headers: { ...request.headers, host: upstream.host },
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    forwarded.on('error', (error) => response.destroy(error));
    request.pipe(forwarded);
  };
  const server = tls ? https.createServer(tls, forward) : http.createServer(forward);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
