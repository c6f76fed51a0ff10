/**
 * The acceptance criterion "`kubectl apply -f crds/examples/` against the fake API server makes the
 * datasets, roles and tokens appear in Quarry with Ready=True and usable Secrets": the built operator in a
 * child process, k8s-kit's fake API server admitting with the CRDs of `crds/`, and a real standalone Quarry
 * in this process. Every example document is applied as kubectl's client-side apply would, in file-name
 * order (update fixtures included).
 *
 * What a cluster would have before the examples, the test makes: the namespaces they use, the Secrets
 * their connections name (in the operator's namespace), the dataset the ingest token names and the users
 * the reader role names. The connections' URLs name in-cluster or private hosts: here `default` points at
 * the test server and `analytics-org` at an https front of it with a certificate of a private test CA (its
 * `orgId` becomes the test org's, which its personal access token needs).
 *
 * Quarry serves region `eu-central-1`, the region the examples name (a Dataset's `spec.region`, else the
 * connection's `defaultRegion`, becomes the dataset's `edgeDeployment`; Quarry refuses unknown regions).
 *
 * Needs the operator's build (`npm run build`, which `npm test` runs first).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Agent, fetch as undiciFetch } from 'undici';
import { TOKEN_SECRET } from '@quarry/k8s-api';
import { CrdAdmission } from '@quarry/k8s-api/testing';
import { eventually, type FakeApiServer } from '@quarry/k8s-kit/testing';
import { startTestServer, type TestServer } from '../support/test-server';
import { kubectlApply, readManifests, type ApplyOutcome, type Manifest } from './kubectl-apply';
import { privateCaPem, startPrivateCaProxy, type Proxy } from './proxies';
import {
  conditionOf,
  kubeClient,
  requireBuild,
  ROOT,
  secretData,
  startFakeKube,
  startOperatorProcess,
  stopOperatorProcess,
  type OperatorProcess,
} from './support';

const EXAMPLES_DIR = path.join(ROOT, 'crds/examples');
/** The operator's namespace: `quarry`, as the example connection's `quarry-management.quarry.svc` says. */
const OPERATOR_NS = 'quarry';
const REGION = 'eu-central-1';
/** The dataset `token-checkout-ingest.yaml` may ingest into; no example creates it, so the test does. */
const INGEST_DATASET = 'checkout-logs';
/** The org's users `role-readers.yaml` names; the test creates them. */
const ROLE_MEMBERS = ['usr_4f9a1c', 'usr_77be02'];

type Cr = Manifest['object'] & { spec?: Record<string, unknown> };
interface SecretRef {
  name: string;
  key?: string;
}
interface ConnectionSpec {
  url: string;
  orgId?: string;
  credentialsSecretRef: SecretRef;
  tls?: { caSecretRef?: SecretRef };
}

describe('kubectl apply -f crds/examples/ (fake Kubernetes API, operator process, real Quarry)', () => {
  let dataDir: string;
  let management: TestServer;
  let fakeKube: FakeApiServer;
  let operator: OperatorProcess;
  let admission: CrdAdmission;
  let outcomes: ApplyOutcome[];
  let tlsProxy: Proxy;
  /** Each connection's URL as applied (what token Secrets carry). */
  let connectionUrls: Record<string, string>;
  const manifests = readManifests(EXAMPLES_DIR);
  const kube = kubeClient(() => fakeKube.url);

  const collectionPath = (apiVersion: string, kind: string, namespace?: string) => {
    const crd = admission.crdFor(apiVersion, kind);
    if (!crd) throw new Error(`no CRD serves ${apiVersion} ${kind}`);
    const ns = crd.spec.scope === 'Namespaced' ? `/namespaces/${namespace ?? 'default'}` : '';
    return `/apis/${apiVersion}${ns}/${crd.spec.names.plural}`;
  };
  const objectPath = ({ apiVersion, kind, metadata }: Cr) =>
    `${collectionPath(apiVersion, kind, metadata.namespace)}/${metadata.name}`;
  const live = async (object: Cr) => {
    const { status, body } = await kube('GET', objectPath(object));
    if (status !== 200) throw new Error(`GET ${objectPath(object)}: ${status}`);
    return body;
  };
  /** The last document of each object: what the cluster should hold once every file is applied. */
  const finalObjects = (kind: string): Cr[] => {
    const byKey = new Map<string, Cr>();
    for (const { object } of manifests) {
      if (object.kind === kind) byKey.set(`${object.metadata.namespace}/${object.metadata.name}`, object);
    }
    return [...byKey.values()];
  };
  const secretOf = async (namespace: string, name: string) => {
    const { status, body } = await kube('GET', `/api/v1/namespaces/${namespace}/secrets/${name}`);
    return status === 200 ? body : undefined;
  };
  const decoded = (data: Record<string, string>) =>
    Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v, 'base64').toString()]));

  beforeAll(async () => {
    requireBuild();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-operator-examples-'));
    management = await startTestServer({ QUARRY_REGION: REGION }, dataDir);
    const created = await management.request('POST', '/v2/datasets', { body: { name: INGEST_DATASET } });
    expect(created.status).toBe(200);
    // The users role-readers.yaml names as members: Quarry refuses a role with unknown members.
    for (const id of ROLE_MEMBERS)
      await management.metastore.users.create({ id, name: id, email: `${id}@example.com`, role: 'user' });

    admission = CrdAdmission.fromDirectory(path.join(ROOT, 'crds'));
    const kubeconfig = path.join(dataDir, 'kubeconfig.yaml');
    fakeKube = await startFakeKube(admission, { namespaces: ['default', OPERATOR_NS], kubeconfig });

    // What a cluster has before the examples: their namespaces, and the Secrets their connections name.
    const namespaces = new Set(manifests.map(({ object }) => object.metadata.namespace).filter(Boolean));
    for (const name of namespaces) {
      const ns = await kube('POST', '/api/v1/namespaces', {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name },
      });
      expect(ns.status).toBe(201);
    }
    tlsProxy = await startPrivateCaProxy(management.url);
    const adapted: Record<string, { url: string; orgId?: string; credential: string }> = {
      default: { url: management.url, credential: management.token },
      'analytics-org': { url: tlsProxy.url, orgId: management.orgId, credential: management.pat },
    };
    const writeSecret = async (ref: SecretRef, defaultKey: string, value: string) => {
      const secret = await kube('POST', `/api/v1/namespaces/${OPERATOR_NS}/secrets`, {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: ref.name, namespace: OPERATOR_NS },
        data: secretData({ [ref.key ?? defaultKey]: value }),
      });
      expect(secret.status).toBe(201);
    };
    const applied = [];
    for (const { file, object } of manifests) {
      if (object.kind !== 'QuarryConnection') {
        applied.push({ file, object });
        continue;
      }
      const spec = object.spec as unknown as ConnectionSpec;
      const here = adapted[object.metadata.name];
      if (!here) throw new Error(`${file}: no test endpoint for QuarryConnection ${object.metadata.name}`);
      await writeSecret(spec.credentialsSecretRef, 'token', here.credential);
      if (spec.tls?.caSecretRef) await writeSecret(spec.tls.caSecretRef, 'ca.crt', privateCaPem());
      const orgId = here.orgId ? { orgId: here.orgId } : {};
      applied.push({ file, object: { ...object, spec: { ...spec, url: here.url, ...orgId } } });
    }
    connectionUrls = Object.fromEntries(Object.entries(adapted).map(([name, { url }]) => [name, url]));

    operator = await startOperatorProcess({ name: 'operator-0', kubeconfig, namespace: OPERATOR_NS });
    outcomes = await kubectlApply(kube, collectionPath, applied);
  }, 30_000);

  afterAll(async () => {
    if (operator) await stopOperatorProcess(operator);
    await fakeKube?.stop();
    await tlsProxy?.close();
    await management?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('applies every document, creating each object once and updating it after', () => {
    expect(outcomes.map(({ file, name, action }) => `${file} ${name} ${action}`)).toEqual([
      'dataset-minimal.yaml web-logs created',
      'dataset-otel-traces.yaml checkout-traces created',
      'dataset-update-description.yaml checkout-traces configured',
      'dataset-update-description.yaml checkout-traces configured',
      'dataset-with-status.yaml web-logs configured',
      'quarryconnection-default.yaml default created',
      'quarryconnection-private-ca.yaml analytics-org created',
      'role-admins-orphan.yaml platform-admins created',
      'role-readers.yaml shop-readers created',
      'token-checkout-ingest.yaml checkout-ingest created',
      'token-fixed-expiry.yaml grafana-reader created',
    ]);
  });

  it('makes every Dataset, Role, Token and QuarryConnection Ready (and Synced) at its generation', async () => {
    const objects = ['Dataset', 'Role', 'Token', 'QuarryConnection'].flatMap(finalObjects);
    expect(objects).toHaveLength(8);
    await eventually(async () => {
      for (const object of objects) {
        const { metadata, status } = await live(object);
        const what = `${object.kind} ${metadata.namespace ?? ''}/${metadata.name}`;
        // A QuarryConnection reports Ready only: nothing to sync.
        for (const type of object.kind === 'QuarryConnection' ? ['Ready'] : ['Ready', 'Synced']) {
          const condition = conditionOf({ status }, type);
          if (condition?.status !== 'True')
            throw new Error(`${what}: ${type} is ${JSON.stringify(condition)}`);
        }
        // QuarryConnection: the operator writes observedGeneration on its condition only.
        const observed =
          object.kind === 'QuarryConnection'
            ? conditionOf({ status }, 'Ready')?.observedGeneration
            : status.observedGeneration;
        if (observed !== metadata.generation)
          throw new Error(`${what}: observedGeneration ${observed}, generation ${metadata.generation}`);
      }
    }, 20_000).catch((err: Error) => {
      throw new Error(`${err.message}\n${operator.child.output.join('')}`);
    });
  }, 25_000);

  it('ignores the status an example carries and counts generation itself', async () => {
    const [withStatus] = finalObjects('Dataset').filter((o) => o.status !== undefined);
    expect(withStatus.metadata.name).toBe('web-logs');
    const { metadata, status } = await live(withStatus);
    // Created by dataset-minimal.yaml, its spec changed once by dataset-with-status.yaml.
    expect(metadata.generation).toBe(2);
    // Nothing of the example's status (written in 2026-11-20) survived: the operator wrote its own.
    const example = withStatus.status as { created: string; lastSyncTime: string };
    expect(status.created).toEqual(expect.any(String));
    expect(status.created).not.toBe(example.created);
    expect(status.lastSyncTime).not.toBe(example.lastSyncTime);
    expect(conditionOf({ status }, 'Ready')?.lastTransitionTime).not.toBe('2026-11-20T09:14:03Z');
    expect(status).toMatchObject({ datasetName: 'web-logs', region: REGION });
  });

  it('creates each Dataset in Quarry as its last applied document says, in the connection region', async () => {
    const datasets = finalObjects('Dataset');
    expect(datasets.map((d) => d.metadata.name)).toEqual(['web-logs', 'checkout-traces']);
    const inQuarry = async (name: string) => {
      const response = await management.request('GET', `/v2/datasets/${encodeURIComponent(name)}`);
      expect(response.status).toBe(200);
      return response.json();
    };
    // dataset-minimal.yaml then dataset-with-status.yaml: no name, kind or region of its own.
    expect(await inQuarry('web-logs')).toMatchObject({
      name: 'web-logs',
      description: '',
      kind: 'axiom:events:v1',
      edgeDeployment: REGION, // the default connection's defaultRegion
      retentionDays: 90,
      useRetentionPeriod: true,
    });
    // dataset-otel-traces.yaml, then both documents of dataset-update-description.yaml: the first drops
    // mapFields (no longer managed) and resets deletionPolicy to its default (Orphan), as kubectl's
    // three-way merge removes fields the last applied configuration had; the second sets description
    // and retention. Map fields are not
    // asserted: the operator may or may not have seen the spec that named them.
    const traces = finalObjects('Dataset').find((d) => d.metadata.name === 'checkout-traces')!;
    const { spec } = await live(traces);
    expect(spec.mapFields).toBeUndefined();
    expect(spec.deletionPolicy).toBe('Orphan');
    expect(await inQuarry('checkout.traces')).toMatchObject({
      name: 'checkout.traces',
      description: 'Spans of the checkout service, kept a week',
      kind: 'otel:traces:v1',
      edgeDeployment: REGION,
      retentionDays: 7,
      useRetentionPeriod: true,
    });
  });

  it('creates each Role in Quarry with the capabilities of its CR', async () => {
    const response = await management.request('GET', '/v2/rbac/roles');
    expect(response.status).toBe(200);
    const roles: Record<string, unknown>[] = await response.json();
    const sortedActions = (capabilities: Record<string, string[]> = {}) =>
      Object.fromEntries(Object.entries(capabilities).map(([k, actions]) => [k, [...actions].sort()]));
    const byKey = (entries: Record<string, unknown>[] = [], key: string) =>
      Object.fromEntries(
        entries.map(({ [key]: name, ...actions }) => [
          name,
          sortedActions(actions as Record<string, string[]>),
        ]),
      );
    for (const cr of finalObjects('Role')) {
      const spec = cr.spec as Record<string, never>;
      const name = spec.name ?? cr.metadata.name;
      const role = roles.find((r) => r.name === name) as Record<string, never> | undefined;
      expect(role).toBeDefined();
      expect({
        description: role!.description ?? '',
        members: [...(role!.members ?? [])].sort(),
        orgCapabilities: sortedActions(role!.orgCapabilities),
        datasetCapabilities: byKey(
          Object.entries(role!.datasetCapabilities ?? {}).map(([dataset, a]) => ({
            dataset,
            ...(a as object),
          })),
          'dataset',
        ),
        viewCapabilities: byKey(
          Object.entries(role!.viewCapabilities ?? {}).map(([view, a]) => ({ view, ...(a as object) })),
          'view',
        ),
      }).toEqual({
        description: spec.description ?? '',
        members: [...(spec.members ?? [])].sort(),
        orgCapabilities: sortedActions(spec.orgCapabilities),
        datasetCapabilities: byKey(spec.datasetCapabilities, 'dataset'),
        viewCapabilities: byKey(spec.viewCapabilities, 'view'),
      });
      const { status } = await live(cr);
      expect(status.roleId).toBe(role!.id);
    }
  });

  it("writes each Token's Secret with the connection URL, the Token's label and template, owned by the Token", async () => {
    const tokens = finalObjects('Token');
    expect(tokens.map((t) => t.metadata.name)).toEqual(['checkout-ingest', 'grafana-reader']);
    for (const cr of tokens) {
      const { metadata, spec } = await live(cr);
      const secret = await secretOf(metadata.namespace, spec.secretName ?? metadata.name);
      expect(secret).toBeDefined();
      const data = decoded(secret.data);
      const url = connectionUrls[spec.connectionRef.name];
      expect(Object.keys(data).sort()).toEqual(Object.values(TOKEN_SECRET.dataKeys).sort());
      expect(data).toMatchObject({ url, AXIOM_URL: url, AXIOM_TOKEN: data.token });
      expect(secret.metadata.labels).toMatchObject({
        ...(spec.secretTemplate?.labels ?? {}),
        [TOKEN_SECRET.labels.token]: metadata.name,
      });
      expect(secret.metadata.annotations).toMatchObject(spec.secretTemplate?.annotations ?? {});
      // Owned while the Token lives, even with deletionPolicy Orphan (the operator drops the reference
      // when it orphans the Secret on delete).
      expect(secret.metadata.ownerReferences).toEqual([
        expect.objectContaining({ kind: 'Token', name: metadata.name, uid: metadata.uid, controller: true }),
      ]);
    }
  });

  /** A request with a token Secret: to the URL it names, trusting the private CA (as a pod given it would). */
  const withSecret = async (namespace: string, name: string) => {
    const data = decoded((await secretOf(namespace, name)).data);
    const dispatcher = new Agent({ connect: { ca: privateCaPem() } });
    return async (method: string, urlPath: string, body?: unknown) => {
      const response = await undiciFetch(`${data.url}${urlPath}`, {
        method,
        dispatcher,
        headers: { Authorization: `Bearer ${data.token}`, 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: await response.text() };
    };
  };
  const events = () => [{ _time: new Date().toISOString(), service: 'checkout', message: 'paid' }];
  const aplQuery = (dataset: string) => ({ apl: `['${dataset}']`, startTime: '2020-01-01T00:00:00Z' });

  it('gives checkout-ingest a token that ingests into checkout-logs and does nothing else', async () => {
    const request = await withSecret('shop', 'checkout-ingest');
    const ingested = await request('POST', `/v1/datasets/${INGEST_DATASET}/ingest`, events());
    expect(ingested.status).toBe(200);
    expect(JSON.parse(ingested.body)).toMatchObject({ ingested: 1, failed: 0 });
    expect((await request('POST', '/v1/datasets/checkout.traces/ingest', events())).status).toBe(403);
    expect((await request('POST', '/v1/datasets/_apl?format=tabular', aplQuery(INGEST_DATASET))).status).toBe(
      403,
    );
    expect((await request('GET', '/v2/datasets')).status).toBe(403);
  });

  it('gives grafana-reader a token, over the private-CA connection, that lists and queries but does not write', async () => {
    const request = await withSecret('monitoring', 'grafana-quarry-datasource');
    expect((await request('GET', '/v2/datasets')).status).toBe(200);
    const query = await request('POST', '/v1/datasets/_apl?format=tabular', aplQuery('web-logs'));
    expect(query.status).toBe(200);
    expect((await request('POST', '/v1/datasets/web-logs/ingest', events())).status).toBe(403);
    expect((await request('POST', '/v2/datasets', { name: 'not-allowed' })).status).toBe(403);
  });

  it('needs the private CA: the https front is not trusted without it', async () => {
    await expect(fetch(`${connectionUrls['analytics-org']}/v2/datasets`)).rejects.toThrow();
  });
});
