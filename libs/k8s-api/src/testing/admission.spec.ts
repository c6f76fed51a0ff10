import { buildAllCrds } from '../crd';
import { CRDS_DIR } from '../sync-crds';
import { CEL_SKIPPED_NOTICE, CrdAdmission, toKubeStatus, type AdmissionResult } from './admission';
import { CelRuleCompileError } from './cel-validation';
import { syntheticCrd, widget } from './synthetic-crd';

const quarry = new CrdAdmission(buildAllCrds());

function dataset(spec?: Record<string, unknown>): Record<string, unknown> {
  return {
    apiVersion: 'quarry.dev/v1alpha1',
    kind: 'Dataset',
    metadata: { name: 'logs', namespace: 'shop' },
    ...(spec === undefined ? {} : { spec }),
  };
}

function admitted(result: AdmissionResult) {
  if (!result.ok) throw new Error(`expected admission, got: ${result.message}`);
  return result;
}

function rejected(result: AdmissionResult) {
  if (result.ok) throw new Error('expected a rejection');
  return result;
}

describe('CrdAdmission defaulting', () => {
  it('fills the static defaults of a Dataset, including an absent spec', () => {
    expect(admitted(quarry.admit(dataset())).object.spec).toEqual({
      description: '',
      kind: 'Events',
      deletionPolicy: 'Orphan',
      connectionRef: { name: 'default' },
    });
  });

  it('fills Role lists, Token rotation grace and QuarryConnection secret key and timeout', () => {
    const role = quarry.admit({ apiVersion: 'quarry.dev/v1alpha1', kind: 'Role', metadata: { name: 'r' } });
    expect(admitted(role).object.spec).toMatchObject({
      members: [],
      datasetCapabilities: [],
      viewCapabilities: [],
      deletionPolicy: 'Delete',
    });
    const token = quarry.admit({
      apiVersion: 'quarry.dev/v1alpha1',
      kind: 'Token',
      metadata: { name: 't' },
      spec: { orgCapabilities: { datasets: ['read'] } },
    });
    expect(admitted(token).object.spec).toMatchObject({
      rotationGracePeriod: '10m',
      deletionPolicy: 'Delete',
    });
    const connection = quarry.admit({
      apiVersion: 'quarry.dev/v1alpha1',
      kind: 'QuarryConnection',
      metadata: { name: 'default' },
      spec: { url: 'https://q.example.com', credentialsSecretRef: { name: 's' } },
    });
    expect(admitted(connection).object.spec).toMatchObject({
      credentialsSecretRef: { name: 's', key: 'token' },
      requestTimeout: '10s',
    });
  });

  it('returns a copy and leaves the input untouched', () => {
    const input = dataset({});
    admitted(quarry.admit(input));
    expect(input.spec).toEqual({});
  });

  it('prunes unknown fields with a warning, and drops nulls before defaulting', () => {
    const result = admitted(quarry.admit(dataset({ retention: 30, description: null })));
    expect(result.warnings).toEqual(['unknown field "spec.retention"']);
    expect(result.object.spec).toMatchObject({ description: '' });
    expect(result.object.spec).not.toHaveProperty('retention');
  });
});

describe('CrdAdmission rules', () => {
  it('skips transition rules on create and runs them on update', () => {
    expect(quarry.admit(dataset({ name: 'logs-v1' })).ok).toBe(true);
    const update = rejected(quarry.admit(dataset({ name: 'logs-v2' }), dataset({ name: 'logs-v1' })));
    expect(update.causes).toEqual([
      {
        reason: 'FieldValueInvalid',
        field: 'spec.name',
        message: 'Invalid value: "object": name cannot be added, removed or changed',
      },
    ]);
  });

  it('compares with the stored object as read back, i.e. defaulted', () => {
    // Stored before `kind` had a default: reads back as Events, so Events is no change but OTelLogs is.
    expect(quarry.admit(dataset({ kind: 'Events' }), dataset({})).ok).toBe(true);
    expect(rejected(quarry.admit(dataset({ kind: 'OTelLogs' }), dataset({}))).message).toBe(
      'Dataset.quarry.dev "logs" is invalid: spec.kind: Invalid value: "string": kind is immutable',
    );
  });

  it('skips CEL with the apiserver notice when a type error makes the rules meaningless', () => {
    const result = rejected(quarry.admit(dataset({ name: 'axiom-x', retentionDays: 'forever' })));
    expect(result.errors.map((e) => [e.type, e.field])).toEqual([
      ['FieldValueTypeInvalid', 'spec.retentionDays'],
      ['FieldValueInvalid', ''],
    ]);
    expect(result.errors[1].detail).toBe(CEL_SKIPPED_NOTICE);
  });

  it('lists every problem, each as a cause', () => {
    const result = rejected(quarry.admit(dataset({ name: 'axiom-x', retentionDays: 0 })));
    expect(result.causes.map((cause) => cause.field)).toEqual(['spec.retentionDays', 'spec.name']);
    expect(result.message).toMatch(
      /^Dataset\.quarry\.dev "logs" is invalid: \[spec\.retentionDays: .*, spec\.name: .*\]$/,
    );
  });

  it('builds the 422 metav1.Status body', () => {
    const result = rejected(quarry.admit(dataset({ retentionDays: 0 })));
    expect(toKubeStatus(result)).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: result.message,
      reason: 'Invalid',
      details: { name: 'logs', group: 'quarry.dev', kind: 'Dataset', causes: result.causes },
      code: 422,
    });
  });

  it('loads the same CRDs from crds/ as the generator builds, and finds them by apiVersion and kind', () => {
    const fromFiles = CrdAdmission.fromDirectory(CRDS_DIR);
    expect(fromFiles.crds.map((crd) => crd.metadata.name).sort()).toEqual(
      quarry.crds.map((crd) => crd.metadata.name).sort(),
    );
    expect(fromFiles.crdFor('quarry.dev/v1alpha1', 'Token')?.spec.names.plural).toBe('tokens');
    expect(fromFiles.crdFor('quarry.dev/v1alpha1', 'Widget')).toBeUndefined();
  });

  it('answers 404 for a kind no CRD serves and 400 for a non-object', () => {
    expect(quarry.admit({ apiVersion: 'quarry.dev/v1', kind: 'Dataset' })).toMatchObject({
      ok: false,
      status: 404,
    });
    expect(quarry.admit('nope')).toMatchObject({ ok: false, status: 400 });
  });
});

describe('CrdAdmission on hand-written schemas', () => {
  const counted = new CrdAdmission([
    syntheticCrd({
      type: 'object',
      properties: {
        count: {
          type: 'integer',
          'x-kubernetes-validations': [
            { rule: 'type(self) == int && self + 1 > 1', message: 'count must be a positive int' },
          ],
        },
      },
    }),
  ]);

  it('passes integers to CEL as int (bigint), not double', () => {
    expect(counted.admit(widget({ count: 2 })).ok).toBe(true);
    expect(rejected(counted.admit(widget({ count: 0 }))).message).toContain('count must be a positive int');
  });

  const items = new CrdAdmission([
    syntheticCrd({
      type: 'object',
      properties: {
        items: {
          type: 'array',
          maxItems: 8,
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name'],
          items: {
            type: 'object',
            required: ['name'],
            properties: { name: { type: 'string', maxLength: 8 }, size: { type: 'integer' } },
            'x-kubernetes-validations': [
              {
                rule: 'self.size == oldSelf.size',
                message: 'size is immutable',
                reason: 'FieldValueForbidden',
              },
            ],
          },
        },
      },
    }),
  ]);

  it('correlates list-map items by key for oldSelf: reorder and add pass, a changed item fails', () => {
    const old = widget({
      items: [
        { name: 'a', size: 1 },
        { name: 'b', size: 2 },
      ],
    });
    const reordered = widget({
      items: [
        { name: 'c', size: 9 },
        { name: 'b', size: 2 },
        { name: 'a', size: 1 },
      ],
    });
    expect(items.admit(reordered, old).ok).toBe(true);
    const changed = widget({
      items: [
        { name: 'b', size: 2 },
        { name: 'a', size: 5 },
      ],
    });
    expect(rejected(items.admit(changed, old)).message).toBe(
      'Widget.example.dev "w" is invalid: spec.items[1]: Forbidden: size is immutable',
    );
  });

  it('throws at load time when a rule does not compile (a broken CRD is a bug, not a bad object)', () => {
    const broken = syntheticCrd({
      type: 'object',
      'x-kubernetes-validations': [{ rule: 'self.', message: 'x' }],
    });
    expect(() => new CrdAdmission([broken])).toThrow(CelRuleCompileError);
  });
});
