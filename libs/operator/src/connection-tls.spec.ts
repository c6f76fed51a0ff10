import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { ConnectionResolver } from './connection-resolver';
import { API_VERSION } from './constants';
import { HttpManagementApi } from './http-management-api.adapter';
import { InMemoryKubeObjects } from './testing/kube-objects.fake';
import { makePrivateCa } from './testing/private-ca';

/**
 * `QuarryConnection.spec.tls` (k8s.md §3.1): a management API behind a private CA. An HTTPS server on
 * loopback with a certificate from a throw-away CA (openssl): the client refuses it by default, trusts it
 * with the CA from the connection's Secret, and with `insecureSkipVerify`.
 */
let server: Server;
let baseUrl: string;
let ca: string;

beforeAll(async () => {
  const made = makePrivateCa();
  ca = made.ca;
  server = createServer({ key: made.serverKey, cert: made.serverCert }, (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end('[]');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 30_000);
afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

const api = (tls?: { ca?: string; insecureSkipVerify: boolean }) =>
  new HttpManagementApi({ baseUrl, token: 'xaat-test', timeoutMs: 5_000, tls });

describe('a management API behind a private CA', () => {
  it('is refused without the CA: the certificate is not trusted', async () => {
    await expect(api().listDatasets()).rejects.toMatchObject({ kind: 'Unavailable' });
  });

  it('is reached with the CA of spec.tls.caSecretRef', async () => {
    expect(await api({ ca, insecureSkipVerify: false }).listDatasets()).toEqual([]);
  });

  it('is reached with insecureSkipVerify', async () => {
    expect(await api({ insecureSkipVerify: true }).listDatasets()).toEqual([]);
  });

  it('is refused with another CA', async () => {
    const other = makePrivateCa().ca;
    await expect(api({ ca: other, insecureSkipVerify: false }).listDatasets()).rejects.toMatchObject({
      kind: 'Unavailable',
    });
  });
});

describe('ConnectionResolver and spec.tls', () => {
  function setup(tls: Record<string, unknown>, secretData: Record<string, string>) {
    const kube = new InMemoryKubeObjects();
    kube.create('QuarryConnection', {
      apiVersion: API_VERSION,
      kind: 'QuarryConnection',
      metadata: { name: 'default' },
      spec: { url: baseUrl, credentialsSecretRef: { name: 'admin' }, tls },
    });
    kube.putSecret({ metadata: { namespace: 'ops', name: 'admin' }, data: { token: 'xaat-admin' } });
    kube.putSecret({ metadata: { namespace: 'ops', name: 'private-ca' }, data: secretData });
    return new ConnectionResolver(kube, 'ops');
  }

  it('reads the CA bundle from its Secret (key ca.crt by default)', async () => {
    const resolved = await setup({ caSecretRef: { name: 'private-ca' } }, { 'ca.crt': ca }).resolve(
      undefined,
    );
    expect(resolved.tls).toEqual({ ca: ca.trim(), insecureSkipVerify: false });
  });

  it('is not ready while the CA Secret lacks a PEM bundle under its key', async () => {
    const resolver = setup({ caSecretRef: { name: 'private-ca', key: 'bundle.pem' } }, { 'ca.crt': ca });
    await expect(resolver.resolve(undefined)).rejects.toMatchObject({
      name: 'ConnectionNotReadyError',
      message: expect.stringContaining('no PEM CA bundle under key "bundle.pem"'),
    });
  });
});
