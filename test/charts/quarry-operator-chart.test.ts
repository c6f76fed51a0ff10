import * as fs from 'node:fs';
import * as path from 'node:path';
import { helm, ROOT } from './helm';
import {
  containersOf,
  golden,
  invalidCases,
  normalise,
  parseDocuments,
  podLabelsOf,
  podSpecOf,
  selects,
  template,
  validateObjects,
  valueCases,
  type K8sObject,
} from './render';

/**
 * charts/quarry-operator: rendered with --include-crds for every value set in ci/, the CRDs kept identical
 * to the repository's crds/, least-privilege RBAC, and refusals in ci/invalid/.
 */
const CHART = 'quarry-operator';
const NAMESPACE = 'quarry-system';
const KINDS = ['datasets', 'roles', 'tokens', 'quarryconnections'];

/** The variable names apps/operator reads: the keys of its config table (`NAME: {` at two spaces). */
function OPERATOR_VARIABLES(): Set<string> {
  const file = path.join(ROOT, 'apps', 'operator', 'src', 'config.ts');
  if (!fs.existsSync(file)) return new Set();
  return new Set(
    [...fs.readFileSync(file, 'utf8').matchAll(/^ {2}([A-Z][A-Z0-9_]+): \{/gm)].map((m) => m[1]),
  );
}

const cases = valueCases(CHART);
const rendered = new Map<string, { lint: { status: number; output: string }; objects: K8sObject[] }>();
let problems: Map<string, string[]>;

beforeAll(() => {
  for (const c of cases) {
    const lint = helm(['lint', '--strict', 'charts/quarry-operator', '-f', c.file]);
    const result = template(CHART, NAMESPACE, c.file, ['--include-crds']);
    if (result.status !== 0) throw new Error(`helm template ${c.file} failed:\n${result.stderr}`);
    rendered.set(c.name, {
      lint: { status: lint.status, output: lint.stdout + lint.stderr },
      objects: parseDocuments(result.stdout),
    });
  }
  const all = cases.flatMap((c) => rendered.get(c.name)!.objects.map((o) => ({ case: c.name, o })));
  problems = new Map();
  for (const p of validateObjects(all.map((a) => a.o))) {
    const caseName = all[p.index].case;
    problems.set(caseName, [
      ...(problems.get(caseName) ?? []),
      `${p.kind} ${p.name}: ${p.errors.join('; ')}`,
    ]);
  }
});

const yamlFiles = (dir: string) =>
  fs.existsSync(dir)
    ? fs
        .readdirSync(dir, { withFileTypes: true })
        .filter((e) => e.isFile() && e.name.endsWith('.yaml'))
        .map((e) => e.name)
        .sort()
    : [];

describe('charts/quarry-operator', () => {
  it('ships crds/ identical to the repository crds/ (node charts/sync-crds.mjs copies them)', () => {
    const source = path.join(ROOT, 'crds');
    const copy = path.join(ROOT, 'charts', CHART, 'crds');
    const wanted = yamlFiles(source);
    expect(wanted.length).toBeGreaterThan(0);
    expect(yamlFiles(copy)).toEqual(wanted);
    for (const name of wanted) {
      const same = fs.readFileSync(path.join(source, name)).equals(fs.readFileSync(path.join(copy, name)));
      expect([name, same]).toEqual([name, true]);
    }
  });

  describe.each(cases.map((c) => c.name))('ci/%s', (name) => {
    const objects = () => rendered.get(name)!.objects;
    const withoutCrds = () => objects().filter((o) => o.kind !== 'CustomResourceDefinition');

    it('passes helm lint --strict', () => {
      const { lint } = rendered.get(name)!;
      expect([lint.status, lint.output]).toEqual([0, expect.not.stringMatching(/\[(WARNING|ERROR)\]/)]);
    });

    it('renders objects (CRDs and the QuarryConnection included) their schemas accept', () => {
      expect(
        objects()
          .filter((o) => o.kind === 'CustomResourceDefinition')
          .map((o) => o.metadata.name)
          .sort(),
      ).toEqual(KINDS.map((k) => `${k}.quarry.dev`).sort());
      expect(problems.get(name) ?? []).toEqual([]);
    });

    it('matches its golden render without the CRDs (UPDATE_GOLDEN=1 rewrites it)', () => {
      const text = normalise(withoutCrds(), CHART);
      expect(text).toBe(golden(`${CHART}/${name}.yaml`, text));
    });

    it('runs node apps/operator/dist/main.js with its namespace from the downward API, probes and limits', () => {
      const deployment = objects().find((o) => o.kind === 'Deployment')!;
      const [container] = containersOf(deployment);
      expect(container.args).toEqual(['node', 'apps/operator/dist/main.js']);
      const env = Object.fromEntries((container.env ?? []).map((e) => [e.name, e]));
      expect(env.QUARRY_OPERATOR_NAMESPACE).toEqual({
        name: 'QUARRY_OPERATOR_NAMESPACE',
        valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } },
      });
      expect(env.QUARRY_OPERATOR_RESYNC?.value).toMatch(/^([0-9]+(ms|s|m|h))+$/);
      // The same names the operator reads (its config table), nothing it would ignore.
      const read = OPERATOR_VARIABLES();
      if (read.size > 0) expect(Object.keys(env).filter((name) => !read.has(name))).toEqual([]);
      expect([container.livenessProbe?.httpGet?.path, container.readinessProbe?.httpGet?.path]).toEqual([
        '/healthz',
        '/readyz',
      ]);
      expect(Object.keys(container.resources?.requests ?? {}).sort()).toEqual(['cpu', 'memory']);
      expect(container.resources?.limits?.memory).toBeDefined();
      expect(podSpecOf(deployment).securityContext).toEqual(
        expect.objectContaining({ runAsNonRoot: true, runAsUser: 10001 }),
      );
      expect(container.securityContext).toEqual(
        expect.objectContaining({
          allowPrivilegeEscalation: false,
          readOnlyRootFilesystem: true,
          capabilities: { drop: ['ALL'] },
        }),
      );
    });

    it('has least-privilege RBAC bound to its ServiceAccount', () => {
      const role = objects().find((o) => o.kind === 'ClusterRole')!;
      const rules = role.rules as { apiGroups: string[]; resources: string[]; verbs: string[] }[];
      for (const rule of rules) {
        expect([...rule.apiGroups, ...rule.resources, ...rule.verbs]).not.toContain('*');
      }
      const verbsOn = (group: string, resource: string) =>
        rules
          .filter((r) => r.apiGroups.includes(group) && r.resources.includes(resource))
          .flatMap((r) => r.verbs)
          .sort();
      for (const kind of KINDS) {
        expect([kind, verbsOn('quarry.dev', kind)]).toEqual([
          kind,
          ['get', 'list', 'patch', 'update', 'watch'],
        ]);
        expect(verbsOn('quarry.dev', `${kind}/status`)).toEqual(['get', 'patch', 'update']);
        expect(verbsOn('quarry.dev', `${kind}/finalizers`)).toEqual(['patch', 'update']);
      }
      expect(verbsOn('', 'secrets')).toEqual(['create', 'delete', 'get', 'list', 'patch', 'update', 'watch']);
      expect(verbsOn('', 'events')).toEqual(['create', 'patch']);
      expect(rules.flatMap((r) => r.resources).filter((r) => r.includes('lease'))).toEqual([]);

      const leases = objects().find((o) => o.kind === 'Role')!;
      expect(leases.metadata.namespace).toBe(NAMESPACE);
      const deploymentEnv = containersOf(objects().find((o) => o.kind === 'Deployment')!)[0].env ?? [];
      const leaseName = deploymentEnv.find((e) => e.name === 'QUARRY_OPERATOR_LEASE_NAME')?.value;
      expect(leases.rules).toEqual([
        { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['create'] },
        {
          apiGroups: ['coordination.k8s.io'],
          resources: ['leases'],
          resourceNames: [leaseName],
          verbs: ['get', 'update', 'patch'],
        },
      ]);

      const account = objects().find((o) => o.kind === 'ServiceAccount')!;
      const deployment = objects().find((o) => o.kind === 'Deployment')!;
      expect(podSpecOf(deployment).serviceAccountName).toBe(account.metadata.name);
      for (const binding of objects().filter(
        (o) => o.kind === 'ClusterRoleBinding' || o.kind === 'RoleBinding',
      )) {
        const roleRef = binding.roleRef as { kind: string; name: string };
        const bound = roleRef.kind === 'ClusterRole' ? role : leases;
        expect([roleRef.kind, roleRef.name]).toEqual([bound.kind, bound.metadata.name]);
        expect(binding.subjects).toEqual([
          { kind: 'ServiceAccount', name: account.metadata.name, namespace: NAMESPACE },
        ]);
      }
    });

    it('points its Service, PodDisruptionBudget and ServiceMonitor at what it renders', () => {
      const deployment = objects().find((o) => o.kind === 'Deployment')!;
      for (const o of objects()) {
        if (o.kind === 'Service') expect(selects(o.spec.selector, podLabelsOf(deployment))).toBe(true);
        if (o.kind === 'PodDisruptionBudget') {
          expect(selects(o.spec.selector.matchLabels, podLabelsOf(deployment))).toBe(true);
          expect(deployment.spec.replicas).toBeGreaterThan(1);
        }
        if (o.kind === 'ServiceMonitor') {
          const service = objects().find(
            (s) => s.kind === 'Service' && selects(o.spec.selector.matchLabels, s.metadata.labels ?? {}),
          );
          expect(service?.spec.ports.map((p: { name: string }) => p.name)).toContain(
            o.spec.endpoints[0].port,
          );
        }
      }
    });

    it('creates the QuarryConnection only when asked, cluster-scoped, with a Secret reference and no token', () => {
      const connection = objects().find((o) => o.kind === 'QuarryConnection');
      if (!connection) return;
      expect(connection.metadata.namespace).toBeUndefined();
      expect(connection.spec.credentialsSecretRef.name).toMatch(/^[a-z0-9-]+$/);
      expect(JSON.stringify(connection)).not.toMatch(/xaat-|xapt-/);
    });
  });

  describe.each(invalidCases(CHART).map((c) => [c.name, c] as const))('ci/invalid/%s', (_name, c) => {
    it('is refused with its message', () => {
      const result = template(CHART, NAMESPACE, c.file);
      expect([result.status === 0, result.stderr]).toEqual([false, expect.stringContaining(c.expect)]);
    });
  });
});
