/**
 * An https front for a plain-http test server, with a certificate for `127.0.0.1`/`localhost` signed by a
 * private CA made for this run (`makePrivateCa`): what a QuarryConnection with `spec.tls.caSecretRef`
 * talks to.
 */
import * as http from 'node:http';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import { makePrivateCa } from '@quarry/operator/testing';

const privateCa = makePrivateCa();

/** The private CA's certificate (PEM): what `spec.tls.caSecretRef` names. */
export const PRIVATE_CA_PEM = privateCa.ca;

export interface TlsProxy {
  /** `https://127.0.0.1:port`. */
  url: string;
  close(): Promise<void>;
}

/** Forwards every request to `target` (an http base URL) over a TLS listener on loopback. */
export async function startPrivateCaProxy(target: string): Promise<TlsProxy> {
  const upstream = new URL(target);
  const server = https.createServer(
    { key: privateCa.serverKey, cert: privateCa.serverCert },
    (request, response) => {
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
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
