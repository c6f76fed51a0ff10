import { CustomResourceDefinition as CrdModel } from 'kubernetes-models/apiextensions.k8s.io/v1/CustomResourceDefinition';
import { buildAllCrds, buildCrd, KINDS, openApiSchemaOf, type CustomResourceDefinition } from './crd';
import { DATASET } from './dataset';
import { ROLE } from './role';
import { TOKEN } from './token';
import { lintCrd } from './testing/structural-lint';

/** kubernetes-models over the wire form of a CRD (what `kubectl apply` would send). */
function validateWithModel(crd: CustomResourceDefinition): void {
  new CrdModel(JSON.parse(JSON.stringify(crd))).validate();
}

describe('generated CRDs', () => {
  const crds = buildAllCrds();

  it('has one CRD per kind, named <plural>.quarry.dev, in category quarry, with the status subresource', () => {
    expect(crds.map((crd) => crd.metadata.name)).toEqual([
      'quarryconnections.quarry.dev',
      'datasets.quarry.dev',
      'roles.quarry.dev',
      'tokens.quarry.dev',
    ]);
    for (const crd of crds) {
      expect(crd.spec.group).toBe('quarry.dev');
      expect(crd.spec.names.categories).toEqual(['quarry']);
      expect(crd.spec.versions.map((v) => [v.name, v.served, v.storage, v.subresources])).toEqual([
        ['v1alpha1', true, true, { status: {} }],
      ]);
    }
    expect(crds.map((crd) => crd.spec.scope)).toEqual(['Cluster', 'Namespaced', 'Namespaced', 'Namespaced']);
  });

  it.each(crds.map((crd) => [crd.metadata.name, crd] as const))(
    '%s passes kubernetes-models validation',
    (_, crd) => {
      expect(() => validateWithModel(crd)).not.toThrow();
    },
  );

  it('kubernetes-models validation can fail: a printer column without type is refused', () => {
    const crd = buildCrd(DATASET);
    delete (crd.spec.versions[0].additionalPrinterColumns[0] as { type?: string }).type;
    expect(() => validateWithModel(crd)).toThrow(/must have required property 'type'|required property type/);
  });

  it.each(crds.map((crd) => [crd.metadata.name, crd] as const))('%s passes the structural lint', (_, crd) => {
    expect(lintCrd(crd)).toEqual([]);
  });

  it('shows the deletion policy and the Ready reason only in wide output (priority 1)', () => {
    for (const definition of [DATASET, ROLE, TOKEN]) {
      const wideOnly = buildCrd(definition)
        .spec.versions[0].additionalPrinterColumns.filter((column) => column.priority === 1)
        .map((column) => column.name);
      expect(wideOnly).toEqual(['Reason', 'Deletion']);
    }
  });

  it('gives Role and Token the same capability schemas (one fragment, no drift)', () => {
    const role = openApiSchemaOf(ROLE).properties!.spec.properties!;
    const token = openApiSchemaOf(TOKEN).properties!.spec.properties!;
    for (const field of ['orgCapabilities', 'datasetCapabilities', 'viewCapabilities']) {
      // Role defaults the lists to [] (a role is PUT whole); the rest must be identical.
      const { default: _roleDefault, ...roleField } = role[field];
      expect(roleField).toEqual(token[field]);
    }
  });

  it('defaults the deletion policy per kind: Orphan for datasets (data), Delete for roles and tokens', () => {
    const defaults = [DATASET, ROLE, TOKEN].map(
      (definition) => openApiSchemaOf(definition).properties!.spec.properties!.deletionPolicy.default,
    );
    expect(defaults).toEqual(['Orphan', 'Delete', 'Delete']);
  });

  it('lists every kind once', () => {
    expect(new Set(KINDS.map((k) => k.names.kind)).size).toBe(KINDS.length);
  });
});
