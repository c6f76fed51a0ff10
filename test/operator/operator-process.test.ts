/**
 * The operator as it runs in a cluster (k8s.md §9.3): `apps/operator/dist/main.js` in child processes (real
 * client-node informers, work queues, Lease election, signals and exit codes), against k8s-kit's fake
 * Kubernetes API server admitting objects with the generated CRD schemas, and the real management app; both
 * in this process. Objects are written over HTTP, as kubectl would, so admission applies.
 *
 * Needs the operator's build (`npm run build`, which `npm test` runs first).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildAllCrds } from '@quarry/k8s-api';
import { CrdAdmission } from '@quarry/k8s-api/testing';
import type { FakeApiServer } from '@quarry/k8s-kit/testing';
import { freePort } from '../support/free-port';
import { startTestServer, type TestServer } from '../support/test-server';
import {
  GROUP,
  kubeClient,
  requireBuild,
  startFakeKube,
  startOperatorProcess,
  type OperatorProcess,
} from './support';

const NS = 'shop';

/** Polls `check` until it returns a value (not undefined/false), or fails with what was awaited. */
async function eventually<T>(
  what: string,
  check: () => Promise<T | undefined | false>,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline)
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${String(last)}` : ''}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('the operator process (fake Kubernetes API, real management app)', () => {
  let dataDir: string;
  let managementPort: number;
  let management: TestServer;
  let fakeKube: FakeApiServer;
  let kubeUrl: string;
  let kubeconfig: string;
  const operators: OperatorProcess[] = [];

  const kube = kubeClient(() => kubeUrl);
  const crPath = (plural: string, name = '') =>
    `${GROUP}/namespaces/${NS}/${plural}${name ? `/${name}` : ''}`;
  const apply = (
    kind: string,
    plural: string,
    name: string,
    spec: object,
    annotations?: Record<string, string>,
  ) =>
    kube('POST', crPath(plural), {
      apiVersion: 'quarry.dev/v1alpha1',
      kind,
      metadata: { name, namespace: NS, ...(annotations ? { annotations } : {}) },
      spec,
    });
  const condition = async (plural: string, name: string, type: string) => {
    const { body } = await kube('GET', crPath(plural, name));
    return (body?.status?.conditions ?? []).find((c: { type: string }) => c.type === type) as
      { status: string; reason: string; message: string } | undefined;
  };
  const isReady = async (plural: string, name: string) =>
    (await condition(plural, name, 'Ready'))?.status === 'True';
  const secretToken = async (name: string): Promise<string | undefined> => {
    const { status, body } = await kube('GET', `/api/v1/namespaces/${NS}/secrets/${name}`);
    return status === 200 && body.data?.token ? Buffer.from(body.data.token, 'base64').toString() : undefined;
  };
  const secretWorks = async (secret: string) => {
    const response = await fetch(`${management.url}/v2/datasets`, {
      headers: { Authorization: `Bearer ${secret}` },
    });
    await response.arrayBuffer();
    return response.status !== 401;
  };
  const isLeader = async (health: string) =>
    /^quarry_operator_leader 1$/m.test(await (await fetch(`${health}/metrics`)).text());

  async function startOperator(name: string) {
    const operator = await startOperatorProcess({ name, kubeconfig, namespace: 'quarry-system' });
    operators.push(operator);
    return operator;
  }

  beforeAll(async () => {
    requireBuild();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-operator-e2e-'));
    managementPort = await freePort();
    management = await startTestServer({ PORT: String(managementPort) }, dataDir);

    kubeconfig = path.join(dataDir, 'kubeconfig.yaml');
    fakeKube = await startFakeKube(new CrdAdmission(buildAllCrds()), {
      namespaces: ['default', 'quarry-system', NS],
      kubeconfig,
    });
    kubeUrl = fakeKube.url;
    await kube('POST', '/api/v1/namespaces/quarry-system/secrets', {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'quarry-admin', namespace: 'quarry-system' },
      data: { token: Buffer.from(management.token).toString('base64') },
    });
    const connection = await kube('POST', `${GROUP}/quarryconnections`, {
      apiVersion: 'quarry.dev/v1alpha1',
      kind: 'QuarryConnection',
      metadata: { name: 'default' },
      spec: { url: management.url, credentialsSecretRef: { name: 'quarry-admin' } },
    });
    expect(connection.status).toBe(201);
    await startOperator('operator-a');
  });

  afterAll(async () => {
    for (const { child } of operators) {
      child.process.kill('SIGTERM');
      await child.exited;
    }
    await fakeKube?.stop();
    await management?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('reports the connection Ready after probing the management API', async () => {
    await eventually('QuarryConnection Ready', async () => {
      const { body } = await kube('GET', `${GROUP}/quarryconnections/default`);
      return (
        body.status?.conditions?.find((c: { type: string; status: string }) => c.type === 'Ready')?.status ===
        'True'
      );
    });
  });

  it('creates an applied Dataset within 2 s and applies an edit', async () => {
    expect(
      (await apply('Dataset', 'datasets', 'web-logs', { description: 'web', retentionDays: 14 })).status,
    ).toBe(201);
    await eventually('Dataset Ready', () => isReady('datasets', 'web-logs'), 2_000);
    expect(await management.request('GET', '/v2/datasets/web-logs').then((r) => r.json())).toMatchObject({
      description: 'web',
      retentionDays: 14,
      useRetentionPeriod: true,
    });
    await kube(
      'PATCH',
      crPath('datasets', 'web-logs'),
      { spec: { description: 'web v2' } },
      'application/merge-patch+json',
    );
    await eventually(
      'the edit in Quarry',
      async () =>
        (await management.request('GET', '/v2/datasets/web-logs').then((r) => r.json())).description ===
        'web v2',
    );
  });

  it('refuses an invalid CR at admission, as the apiserver does', async () => {
    const rejected = await apply('Dataset', 'datasets', 'bad', { name: 'axiom-reserved' });
    expect(rejected.status).toBe(422);
  });

  it.each([
    ['Delete', false],
    ['Orphan', true],
  ])('finalizes with deletionPolicy %s', async (policy, survives) => {
    const name = `del-${policy.toLowerCase()}`;
    await apply('Dataset', 'datasets', name, { deletionPolicy: policy });
    await eventually('Dataset Ready', () => isReady('datasets', name));
    expect((await kube('DELETE', crPath('datasets', name))).status).toBeLessThan(300);
    await eventually('the CR gone', async () => (await kube('GET', crPath('datasets', name))).status === 404);
    expect((await management.request('GET', `/v2/datasets/${name}`)).status).toBe(survives ? 200 : 404);
  });

  it('mints a token Secret, rotates when the Secret is deleted or a rotation is requested, keeping the old token in grace', async () => {
    await apply('Token', 'tokens', 'ci', {
      datasetCapabilities: [{ dataset: 'web-logs', ingest: ['create'] }],
    });
    const first = await eventually('the token Secret', () => secretToken('ci'));
    expect(await secretWorks(first)).toBe(true);

    expect((await kube('DELETE', `/api/v1/namespaces/${NS}/secrets/ci`)).status).toBeLessThan(300);
    const second = await eventually('a new token after the Secret was deleted', async () => {
      const token = await secretToken('ci');
      return token && token !== first ? token : undefined;
    });
    expect(await secretWorks(second)).toBe(true);
    expect(await secretWorks(first)).toBe(true); // still inside rotationGracePeriod (10m)

    await kube(
      'PATCH',
      crPath('tokens', 'ci'),
      { metadata: { annotations: { 'quarry.dev/rotate': 'now' } } },
      'application/merge-patch+json',
    );
    const third = await eventually('a new token after quarry.dev/rotate', async () => {
      const token = await secretToken('ci');
      return token && token !== second ? token : undefined;
    });
    expect(await secretWorks(third)).toBe(true);
    // The operator writes the Secret before the id and the status (token-reconciler.ts), so the status
    // may still describe the previous rotation for a moment after the new Secret shows.
    const rotation = await eventually('the rotation recorded in status', async () => {
      const { body } = await kube('GET', crPath('tokens', 'ci'));
      const recorded = body.status?.rotation;
      return recorded?.lastHandledRequest === 'now' ? recorded : undefined;
    });
    expect(rotation).toMatchObject({ reason: 'Requested', lastHandledRequest: 'now' });
    // One rotation per trigger: the Secret still holds the token minted for the request.
    expect(await secretToken('ci')).toBe(third);
  });

  it('reports the management API down as Synced=False and recovers when it is back', async () => {
    await management.close();
    await kube(
      'PATCH',
      crPath('datasets', 'web-logs'),
      { spec: { description: 'while down' } },
      'application/merge-patch+json',
    );
    await eventually(
      'Synced=False ManagementAPIUnavailable',
      async () => (await condition('datasets', 'web-logs', 'Synced'))?.reason === 'ManagementAPIUnavailable',
    );
    expect((await condition('datasets', 'web-logs', 'Ready'))?.status).toBe('True');

    management = await startTestServer({ PORT: String(managementPort) }, dataDir);
    // The key is on per-key backoff (1 s doubling): the next attempt may be some seconds away.
    await eventually(
      'recovery after the restart',
      async () => (await condition('datasets', 'web-logs', 'Synced'))?.status === 'True',
      40_000,
    ).catch((err: Error) => {
      throw new Error(`${err.message}\n${operators[0].child.output.join('')}`);
    });
    expect(await management.request('GET', '/v2/datasets/web-logs').then((r) => r.json())).toMatchObject({
      description: 'while down',
    });
  });

  it('misses no event when watches drop or the next watch answers 410 Gone', async () => {
    fakeKube.goneOnNextWatch();
    fakeKube.dropWatches();
    await apply('Dataset', 'datasets', 'after-drop', {});
    await eventually('Dataset Ready after the watches dropped', () => isReady('datasets', 'after-drop'));
  });

  it('serves reconcile counts, durations, errors, queue depth and management API state on /metrics', async () => {
    const text = await (await fetch(`${operators[0].health}/metrics`)).text();
    expect(text).toMatch(/^quarry_operator_reconcile_total\{kind="Dataset",result="success"\} [1-9]/m);
    // The management API was down for one test: those reconciles counted as errors.
    expect(text).toMatch(/^quarry_operator_reconcile_errors_total\{kind="Dataset"\} [1-9]/m);
    expect(text).toMatch(/^quarry_operator_reconcile_duration_seconds_count\{kind="Token"\} [1-9]/m);
    expect(text).toMatch(/^quarry_operator_work_queue_depth\{kind="Role"\} 0$/m);
    expect(text).toMatch(/^quarry_operator_management_api_up\{connection="default"\} [01]$/m);
    expect(text).toMatch(/^quarry_operator_informer_restarts\{kind="Dataset"\} \d+$/m);
  });

  it('runs one leader among two operators and hands over when the leader stops', async () => {
    const b = await startOperator('operator-b');
    const a = operators.find((o) => o.name === 'operator-a')!;
    expect(await isLeader(a.health)).toBe(true);
    expect(await isLeader(b.health)).toBe(false);

    a.child.process.kill('SIGTERM');
    expect(await a.child.exited).toBe(0);
    await eventually('operator-b to lead', () => isLeader(b.health), 10_000);
    await apply('Dataset', 'datasets', 'after-handover', {});
    await eventually('Dataset Ready under the new leader', () => isReady('datasets', 'after-handover'));
  });
});
