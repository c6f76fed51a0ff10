/**
 * The operator process and the management API calls it makes (k8s.md §3.5): a full resync is one LIST per
 * kind per connection, and only drifted keys cost further calls; a QuarryConnection's credentials Secret
 * created or changed after the connection is noticed at once (the watch on the operator's namespace), not
 * at the 30 s retry. The management app sits behind a proxy that records every request.
 *
 * Needs the operator's build (`npm run build`, which `npm test` runs first).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildAllCrds } from '@quarry/k8s-api';
import { CrdAdmission } from '@quarry/k8s-api/testing';
import { eventually, type FakeApiServer } from '@quarry/k8s-kit/testing';
import { startTestServer, type TestServer } from '../support/test-server';
import { startCountingProxy, type CountingProxy } from './proxies';
import {
  GROUP,
  conditionOf,
  kubeClient,
  requireBuild,
  secretData,
  startFakeKube,
  startOperatorProcess,
  stopOperatorProcess,
  type OperatorProcess,
} from './support';

const NS = 'shop';
const OPERATOR_NS = 'quarry-system';
const DATASETS = ['logs-a', 'logs-b', 'logs-c', 'logs-d'];

describe('the operator process: resync by LIST, connection Secrets watched', () => {
  let dataDir: string;
  let management: TestServer;
  let proxy: CountingProxy;
  let fakeKube: FakeApiServer;
  let operator: OperatorProcess | undefined;
  const kube = kubeClient(() => fakeKube.url);
  const crPath = (plural: string, name = '') =>
    `${GROUP}/namespaces/${NS}/${plural}${name ? `/${name}` : ''}`;
  const ready = async (urlPath: string) => conditionOf((await kube('GET', urlPath)).body ?? {}, 'Ready');
  const connectionReady = () => ready(`${GROUP}/quarryconnections/default`);
  const adminSecret = (token: string) => ({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'quarry-admin', namespace: OPERATOR_NS },
    data: secretData({ token }),
  });
  /** Waits for `check` (up to `ms`), failing with the operator's output. */
  const until = (what: string, check: () => Promise<boolean>, ms = 10_000) =>
    eventually(async () => {
      if (!(await check())) throw new Error(`waiting for ${what}`);
    }, ms).catch((err: Error) => {
      throw new Error(`${err.message}\n${operator?.child.output.join('') ?? ''}`);
    });

  beforeAll(async () => {
    requireBuild();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-operator-resync-'));
    management = await startTestServer({}, dataDir);
    proxy = await startCountingProxy(management.url);
    const kubeconfig = path.join(dataDir, 'kubeconfig.yaml');
    fakeKube = await startFakeKube(new CrdAdmission(buildAllCrds()), {
      namespaces: ['default', OPERATOR_NS, NS],
      kubeconfig,
    });
    operator = await startOperatorProcess({
      name: 'operator-a',
      kubeconfig,
      namespace: OPERATOR_NS,
      resync: '2s',
    });
  });

  afterAll(async () => {
    if (operator) await stopOperatorProcess(operator);
    await fakeKube?.stop();
    await proxy?.close();
    await management?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('notices a credentials Secret created after its connection at once, and then reconciles the waiting CRs', async () => {
    expect(
      (
        await kube('POST', `${GROUP}/quarryconnections`, {
          apiVersion: 'quarry.dev/v1alpha1',
          kind: 'QuarryConnection',
          metadata: { name: 'default' },
          spec: { url: proxy.url, credentialsSecretRef: { name: 'quarry-admin' } },
        })
      ).status,
    ).toBe(201);
    for (const name of DATASETS)
      await kube('POST', crPath('datasets'), {
        apiVersion: 'quarry.dev/v1alpha1',
        kind: 'Dataset',
        metadata: { name, namespace: NS },
        spec: { description: name },
      });
    await until('ConnectionNotReady', async () => (await connectionReady())?.reason === 'ConnectionNotReady');
    await until(
      'the Dataset waiting for its connection',
      async () => (await ready(crPath('datasets', 'logs-a')))?.reason === 'ConnectionNotReady',
    );

    // The connection's next retry is 30 s away: only the Secret's watch event can make this quick.
    const created = Date.now();
    expect(
      (await kube('POST', `/api/v1/namespaces/${OPERATOR_NS}/secrets`, adminSecret(management.token))).status,
    ).toBe(201);
    await until('the connection Ready', async () => (await connectionReady())?.status === 'True', 10_000);
    for (const name of DATASETS)
      await until(
        `Dataset ${name} Ready`,
        async () => (await ready(crPath('datasets', name)))?.status === 'True',
      );
    expect(Date.now() - created).toBeLessThan(15_000);
  });

  it('resyncs with one LIST per kind and no per-object GET while nothing drifted', async () => {
    await kube('POST', crPath('roles'), {
      apiVersion: 'quarry.dev/v1alpha1',
      kind: 'Role',
      metadata: { name: 'readers', namespace: NS },
      spec: { datasetCapabilities: [{ dataset: 'logs-a', query: ['read'] }] },
    });
    await kube('POST', crPath('tokens'), {
      apiVersion: 'quarry.dev/v1alpha1',
      kind: 'Token',
      metadata: { name: 'ci', namespace: NS },
      spec: { datasetCapabilities: [{ dataset: 'logs-a', ingest: ['create'] }] },
    });
    await until(
      'Role and Token Ready',
      async () =>
        (await ready(crPath('roles', 'readers')))?.status === 'True' &&
        (await ready(crPath('tokens', 'ci')))?.status === 'True',
    );
    // Let the reconciles these creations caused (and one resync) pass, then watch two whole resyncs.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    proxy.requests.length = 0;
    const resyncs = () => proxy.requests.filter((r) => r === 'GET /v2/tokens').length;
    await until('two resyncs', async () => resyncs() >= 2, 10_000);
    const seen = [...proxy.requests];
    const perKind = (request: string) => seen.filter((r) => r === request).length;
    // Six CRs; before this change each resync was the probe plus six GETs (one per object).
    expect(new Set(seen)).toEqual(new Set(['GET /v2/datasets', 'GET /v2/rbac/roles', 'GET /v2/tokens']));
    expect(Math.abs(perKind('GET /v2/datasets') - perKind('GET /v2/tokens'))).toBeLessThanOrEqual(1);
    expect(Math.abs(perKind('GET /v2/rbac/roles') - perKind('GET /v2/tokens'))).toBeLessThanOrEqual(1);
  });

  it('repairs a description changed in Quarry by hand within one resync, calling only for that dataset', async () => {
    proxy.requests.length = 0;
    const changed = await management.request('PUT', '/v2/datasets/logs-c', {
      body: { description: 'changed by hand', retentionDays: 0, useRetentionPeriod: false },
    });
    expect(changed.status).toBe(200);
    await until(
      'the description put back',
      async () =>
        (await management.request('GET', '/v2/datasets/logs-c').then((r) => r.json())).description ===
        'logs-c',
      5_000,
    );
    const single = proxy.requests.filter(
      (r) => !['GET /v2/datasets', 'GET /v2/rbac/roles', 'GET /v2/tokens'].includes(r),
    );
    expect(single).toEqual(['GET /v2/datasets/logs-c', 'PUT /v2/datasets/logs-c']);
  });

  it('gives the younger of two Datasets naming one dataset ResourceConflict, and hands the name over when the older goes', async () => {
    for (const name of ['conflict-a', 'conflict-b'])
      await kube('POST', crPath('datasets'), {
        apiVersion: 'quarry.dev/v1alpha1',
        kind: 'Dataset',
        metadata: { name, namespace: NS },
        spec: { name: 'shared-logs', description: name },
      });
    await until(
      'conflict-a Ready',
      async () => (await ready(crPath('datasets', 'conflict-a')))?.status === 'True',
    );
    await until(
      'conflict-b ResourceConflict',
      async () => (await ready(crPath('datasets', 'conflict-b')))?.reason === 'ResourceConflict',
    );
    expect((await kube('DELETE', crPath('datasets', 'conflict-a'))).status).toBeLessThan(300);
    await until(
      'conflict-b Ready',
      async () => (await ready(crPath('datasets', 'conflict-b')))?.status === 'True',
    );
    expect(
      (await management.request('GET', '/v2/datasets/shared-logs').then((r) => r.json())).description,
    ).toBe('conflict-b');
  });

  it('reports rotated credentials at once: a wrong token is Unauthorized, the right one Ready again', async () => {
    await kube('PUT', `/api/v1/namespaces/${OPERATOR_NS}/secrets/quarry-admin`, adminSecret('xaat-wrong'));
    await until('Unauthorized', async () => (await connectionReady())?.reason === 'Unauthorized', 5_000);
    await kube(
      'PUT',
      `/api/v1/namespaces/${OPERATOR_NS}/secrets/quarry-admin`,
      adminSecret(management.token),
    );
    await until('Ready again', async () => (await connectionReady())?.status === 'True', 5_000);
  });
});
