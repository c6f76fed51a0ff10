/**
 * The static types and the CRDs come from the same schemas: an object written against the TS types
 * (checked by `npm run typecheck:tests`) is admitted by the generated CRDs, status included.
 */
import { buildAllCrds } from './crd';
import type { DatasetResource, DatasetSpec } from './dataset';
import type { DatasetCapability, OrgCapabilities } from './fragments';
import type { QuarryConnectionResource } from './quarry-connection';
import type { RoleResource } from './role';
import type { TokenResource } from './token';
import { CrdAdmission } from './testing';

const admission = new CrdAdmission(buildAllCrds());

const connection: QuarryConnectionResource = {
  apiVersion: 'quarry.dev/v1alpha1',
  kind: 'QuarryConnection',
  metadata: { name: 'default' },
  spec: { url: 'https://quarry.example.com', credentialsSecretRef: { name: 'operator-token' } },
  status: { serverVersion: '0.1.0', lastProbeTime: '2026-11-26T06:00:00Z' },
};

const dataset: DatasetResource = {
  apiVersion: 'quarry.dev/v1alpha1',
  kind: 'Dataset',
  metadata: { name: 'logs', namespace: 'shop', generation: 1 },
  spec: { kind: 'OTelLogs', retentionDays: 14, mapFields: ['attributes'] },
  status: {
    observedGeneration: 1,
    conditions: [
      {
        type: 'Ready',
        status: 'False',
        observedGeneration: 1,
        lastTransitionTime: '2026-11-26T06:00:00Z',
        reason: 'ConnectionNotReady',
        message: 'QuarryConnection default is not Ready',
      },
    ],
  },
};

const role: RoleResource = {
  apiVersion: 'quarry.dev/v1alpha1',
  kind: 'Role',
  metadata: { name: 'readers', namespace: 'shop' },
  spec: {
    orgCapabilities: { datasets: ['read'], billing: ['read'] },
    datasetCapabilities: [{ dataset: '*', query: ['read'] }],
    viewCapabilities: [{ view: 'errors', share: ['read'] }],
  },
  status: { roleId: 'role_1' },
};

const token: TokenResource = {
  apiVersion: 'quarry.dev/v1alpha1',
  kind: 'Token',
  metadata: { name: 'ingest', namespace: 'shop' },
  spec: { datasetCapabilities: [{ dataset: 'logs', ingest: ['create'] }], ttl: '720h' },
  status: {
    tokenId: 'tok_2',
    secretName: 'ingest',
    rotation: { reason: 'SpecChanged', previousTokenId: 'tok_1', previousExpiresAt: '2026-11-26T06:10:00Z' },
  },
};

describe('static types', () => {
  it.each([connection, dataset, role, token].map((object) => [object.kind, object] as const))(
    'a %s typed against the TS types is admitted',
    (_, object) => {
      const result = admission.admit(object);
      if (!result.ok) throw new Error(result.message);
      expect(result.warnings).toEqual([]);
    },
  );
});

describe('static types are as narrow as the schema', () => {
  it('refuses actions a capability does not take, and unknown enum values (checked by tsc)', () => {
    // @ts-expect-error ingest only takes create
    const ingestRead: DatasetCapability = { dataset: 'logs', ingest: ['read'] };
    // @ts-expect-error auditLog only takes read
    const auditWrite: OrgCapabilities = { auditLog: ['update'] };
    // @ts-expect-error kind is Events | OTelLogs | OTelTraces | OTelMetrics
    const logs: DatasetSpec = { kind: 'Logs' };
    // The same objects are refused at admission too.
    const refused = [
      { ...role, spec: { datasetCapabilities: [ingestRead] } },
      { ...role, spec: { orgCapabilities: auditWrite } },
      { ...dataset, spec: logs },
    ].map((object) => admission.admit(object).ok);
    expect(refused).toEqual([false, false, false]);
  });
});
