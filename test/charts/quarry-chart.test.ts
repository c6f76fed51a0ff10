import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse as parseYaml } from 'yaml';
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
  WORKLOAD_KINDS,
  type K8sObject,
} from './render';

/**
 * charts/quarry, rendered offline for every value set in ci/: lint, schema-valid objects, golden renders,
 * and the rules every render must keep (k8s.md §9.5). Refusals in ci/invalid/ must fail with their message.
 */
const CHART = 'quarry';
const NAMESPACE = 'quarry';
const ROLES_BY_TOPOLOGY: Record<string, string[]> = {
  Standalone: ['standalone'],
  Region: ['compactor', 'gateway', 'ingest', 'query'],
  Main: ['gateway', 'management', 'query'],
  MainAndRegion: ['compactor', 'gateway', 'ingest', 'management', 'query'],
};
const COMPONENTS = new Set([...Object.values(ROLES_BY_TOPOLOGY).flat(), 'test']);

/** The variable names an app reads: the keys of its config table (`NAME: {` at two spaces). */
function declaredVariables(file: string): Set<string> {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
  return new Set([...text.matchAll(/^ {2}([A-Z][A-Z0-9_]+): \{/gm)].map((m) => m[1]));
}
const SERVER_VARIABLES = declaredVariables('libs/server/src/config/config.ts');
const GATEWAY_VARIABLES = declaredVariables('libs/gateway/src/config.ts');
// Read by the AWS SDK (S3 credentials), or only used to build other values in the pod spec.
const OTHER_VARIABLES = new Set(['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'POD_IP', 'TARGET']);

const CREDENTIAL_NAME = /PASSWORD|SECRET|TOKEN|_PAT$|METASTORE_URL|AWS_ACCESS_KEY_ID|USERNAME/;
const CREDENTIAL_VALUE = /postgres(ql)?:\/\/[^/\s]*:[^@\s]*@|xaa?pt-|xaat-|AKIA[0-9A-Z]{12}|-----BEGIN/;

interface Rendered {
  name: string;
  file: string;
  topology: string;
  lint: { status: number; output: string };
  objects: K8sObject[];
}

const cases = valueCases(CHART);
const rendered = new Map<string, Rendered>();
let problems: Map<string, string[]>;

beforeAll(() => {
  for (const c of cases) {
    const values = (parseYaml(fs.readFileSync(path.join(ROOT, c.file), 'utf8')) ?? {}) as {
      topology?: string;
    };
    const lint = helm(['lint', '--strict', 'charts/quarry', '-f', c.file]);
    const result = template(CHART, NAMESPACE, c.file);
    if (result.status !== 0) throw new Error(`helm template ${c.file} failed:\n${result.stderr}`);
    rendered.set(c.name, {
      ...c,
      topology: values.topology ?? 'Region',
      lint: { status: lint.status, output: lint.stdout + lint.stderr },
      objects: parseDocuments(result.stdout),
    });
  }
  // One validation process for every case (it loads the models once).
  const all = [...rendered.values()].flatMap((r) => r.objects.map((o) => ({ case: r.name, o })));
  problems = new Map();
  for (const p of validateObjects(all.map((a) => a.o))) {
    const caseName = all[p.index].case;
    problems.set(caseName, [
      ...(problems.get(caseName) ?? []),
      `${p.kind} ${p.name}: ${p.errors.join('; ')}`,
    ]);
  }
});

describe('charts/quarry', () => {
  it('has a value set per topology, plus monitoring and HA', () => {
    const topologies = new Set([...rendered.values()].map((r) => r.topology));
    expect([...topologies].sort()).toEqual(Object.keys(ROLES_BY_TOPOLOGY).sort());
    expect(cases.map((c) => c.name)).toEqual(expect.arrayContaining(['monitoring', 'ha']));
    expect(rendered.get('ha')!.objects.map((o) => o.kind)).toEqual(
      expect.arrayContaining(['HorizontalPodAutoscaler', 'PodDisruptionBudget', 'Ingress', 'NetworkPolicy']),
    );
  });

  describe.each(cases.map((c) => c.name))('ci/%s', (name) => {
    const r = () => rendered.get(name)!;

    it('passes helm lint --strict', () => {
      expect([r().lint.status, r().lint.output]).toEqual([
        0,
        expect.not.stringMatching(/\[(WARNING|ERROR)\]/),
      ]);
    });

    it('renders objects the Kubernetes and prometheus-operator schemas accept', () => {
      expect(problems.get(name) ?? []).toEqual([]);
    });

    it('matches its golden render (UPDATE_GOLDEN=1 rewrites it)', () => {
      const text = normalise(r().objects, CHART);
      expect(text).toBe(golden(`${CHART}/${name}.yaml`, text));
    });

    it("runs exactly the topology's roles, each as node apps/<role>/dist/main.js", () => {
      const workloads = r().objects.filter((o) => WORKLOAD_KINDS.includes(o.kind));
      const roles = workloads.map((o) => o.metadata.labels?.['app.kubernetes.io/component']).sort();
      expect(roles).toEqual(ROLES_BY_TOPOLOGY[r().topology]);
      for (const w of workloads) {
        const role = w.metadata.labels!['app.kubernetes.io/component'];
        const [container] = containersOf(w);
        expect(fs.existsSync(path.join(ROOT, 'apps', role, 'src', 'main.ts'))).toBe(true);
        expect([role, container.name, container.args]).toEqual([
          role,
          role,
          expect.arrayContaining(['node', `apps/${role}/dist/main.js`]),
        ]);
        expect(podLabelsOf(w)['app.kubernetes.io/component']).toBe(role);
        expect(w.metadata.name).toBe(`rel-quarry-${role}`);
      }
      if (r().topology === 'Standalone') {
        // /data is a volume claim, or (persistence.enabled=false) an emptyDir.
        const sts = workloads.find((w) => w.kind === 'StatefulSet')!;
        const claims = (sts.spec.volumeClaimTemplates ?? []).map((c: K8sObject) => c.metadata.name);
        const emptyDirs = podSpecOf(sts)
          .volumes.filter((v: { emptyDir?: object }) => v.emptyDir)
          .map((v: { name: string }) => v.name);
        expect([...claims, ...emptyDirs].filter((n) => n === 'data')).toEqual(['data']);
      }
    });

    it('gives every container requests, limits, both probes and a locked-down security context', () => {
      for (const o of r().objects) {
        const pod = podSpecOf(o);
        if (!pod) continue;
        const isTest = o.metadata.annotations?.['helm.sh/hook'] === 'test';
        expect([o.metadata.name, pod.securityContext?.runAsNonRoot, pod.securityContext?.runAsUser]).toEqual([
          o.metadata.name,
          true,
          10001,
        ]);
        for (const c of containersOf(o)) {
          const where = `${o.kind}/${o.metadata.name}/${c.name}`;
          expect([where, Object.keys(c.resources?.requests ?? {}).sort()]).toEqual([
            where,
            ['cpu', 'memory'],
          ]);
          expect([where, Boolean(c.resources?.limits?.memory)]).toEqual([where, true]);
          if (!isTest) {
            expect([where, c.livenessProbe?.httpGet?.path, c.readinessProbe?.httpGet?.path]).toEqual([
              where,
              '/healthz',
              '/readyz',
            ]);
          }
          expect([where, c.securityContext]).toEqual([
            where,
            expect.objectContaining({
              runAsNonRoot: true,
              allowPrivilegeEscalation: false,
              readOnlyRootFilesystem: true,
              capabilities: { drop: ['ALL'] },
            }),
          ]);
        }
      }
    });

    it('rolls the pods when the ConfigMap changes (checksum/config)', () => {
      for (const o of r().objects.filter((o) => WORKLOAD_KINDS.includes(o.kind))) {
        expect([o.metadata.name, o.spec.template.metadata.annotations?.['checksum/config']]).toEqual([
          o.metadata.name,
          expect.stringMatching(/^[0-9a-f]{64}$/),
        ]);
      }
    });

    it('points every Service, PodDisruptionBudget and HPA at a workload it renders', () => {
      const objects = r().objects;
      const workloads = objects.filter((o) => WORKLOAD_KINDS.includes(o.kind));
      for (const o of objects) {
        if (o.kind === 'Service') {
          expect([o.metadata.name, workloads.some((w) => selects(o.spec.selector, podLabelsOf(w)))]).toEqual([
            o.metadata.name,
            true,
          ]);
        } else if (o.kind === 'PodDisruptionBudget') {
          const matching = workloads.filter((w) => selects(o.spec.selector?.matchLabels, podLabelsOf(w)));
          expect([o.metadata.name, matching.length]).toEqual([o.metadata.name, 1]);
          const replicas =
            matching[0].spec.replicas ??
            objects.find(
              (h) =>
                h.kind === 'HorizontalPodAutoscaler' &&
                h.spec.scaleTargetRef.name === matching[0].metadata.name,
            )?.spec.minReplicas;
          expect([o.metadata.name, replicas > 1]).toEqual([o.metadata.name, true]);
        } else if (o.kind === 'HorizontalPodAutoscaler') {
          const target = o.spec.scaleTargetRef;
          const workload = workloads.find((w) => w.kind === target.kind && w.metadata.name === target.name);
          expect([o.metadata.name, workload?.metadata.labels?.['app.kubernetes.io/component']]).toEqual([
            o.metadata.name,
            expect.stringMatching(/^(ingest|query)$/),
          ]);
          expect(workload!.spec.replicas).toBeUndefined(); // the HPA owns it
        } else if (o.kind === 'NetworkPolicy') {
          const components = o.spec.podSelector.matchExpressions?.[0]?.values ?? [];
          const guarded = workloads.filter(
            (w) =>
              selects(o.spec.podSelector.matchLabels, podLabelsOf(w)) &&
              components.includes(podLabelsOf(w)['app.kubernetes.io/component']),
          );
          expect(guarded.length).toBeGreaterThan(0);
          // The entry point stays reachable from outside the release.
          expect(guarded.map((w) => podLabelsOf(w)['app.kubernetes.io/component'])).not.toContain('gateway');
        } else if (o.kind === 'Ingress') {
          for (const rule of o.spec.rules as {
            http: { paths: { backend: { service: { name: string; port: { number: number } } } }[] };
          }[]) {
            for (const { backend } of rule.http.paths) {
              const service = objects.find(
                (s) => s.kind === 'Service' && s.metadata.name === backend.service.name,
              );
              const ports = (service?.spec.ports ?? []).map((p: { port: number }) => p.port);
              expect([backend.service.name, ports]).toEqual([
                backend.service.name,
                expect.arrayContaining([backend.service.port.number]),
              ]);
            }
          }
        } else if (o.kind === 'ServiceMonitor') {
          const services = objects.filter(
            (s) => s.kind === 'Service' && selects(o.spec.selector.matchLabels, s.metadata.labels ?? {}),
          );
          expect(services.length).toBeGreaterThan(0);
          expect(
            services.every((s) =>
              s.spec.ports.some((p: { name: string }) => p.name === o.spec.endpoints[0].port),
            ),
          ).toBe(true);
        }
      }
    });

    it('keeps credentials out of ConfigMaps and plain env values', () => {
      for (const o of r().objects) {
        if (o.kind === 'ConfigMap') {
          for (const [key, value] of Object.entries(o.data ?? {})) {
            expect([key, CREDENTIAL_NAME.test(key) || CREDENTIAL_VALUE.test(value)]).toEqual([key, false]);
          }
        }
        for (const c of containersOf(o)) {
          for (const e of c.env ?? []) {
            if (e.value === undefined) continue;
            expect([e.name, CREDENTIAL_NAME.test(e.name) || CREDENTIAL_VALUE.test(e.value)]).toEqual([
              e.name,
              false,
            ]);
          }
        }
      }
    });

    it('sets only variables the role apps read (config.ts), with the same names', () => {
      const config = r().objects.find(
        (o) => o.kind === 'ConfigMap' && o.metadata.name === 'rel-quarry-config',
      );
      for (const key of Object.keys(config?.data ?? {}))
        expect([key, SERVER_VARIABLES.has(key)]).toEqual([key, true]);
      for (const o of r().objects) {
        const role = o.metadata.labels?.['app.kubernetes.io/component'];
        const known = role === 'gateway' ? GATEWAY_VARIABLES : SERVER_VARIABLES;
        for (const c of containersOf(o)) {
          for (const e of c.env ?? []) {
            expect([role, e.name, known.has(e.name) || OTHER_VARIABLES.has(e.name)]).toEqual([
              role,
              e.name,
              true,
            ]);
          }
        }
      }
    });

    it('labels every object with the release and a known component', () => {
      for (const o of r().objects) {
        const labels = o.metadata.labels ?? {};
        expect([
          o.kind,
          o.metadata.name,
          labels['app.kubernetes.io/instance'],
          labels['app.kubernetes.io/part-of'],
        ]).toEqual([o.kind, o.metadata.name, 'rel', 'quarry']);
        const component = labels['app.kubernetes.io/component'];
        if (component !== undefined)
          expect([o.metadata.name, COMPONENTS.has(component)]).toEqual([o.metadata.name, true]);
      }
    });

    it("has a helm test pod that asks the entry point's /readyz", () => {
      const test = r().objects.find((o) => o.metadata.annotations?.['helm.sh/hook'] === 'test');
      const target = containersOf(test!)[0].env?.find((e) => e.name === 'TARGET')?.value;
      const entry = r().topology === 'Standalone' ? 'standalone' : 'gateway';
      const service = r().objects.find(
        (o) => o.kind === 'Service' && o.metadata.name === `rel-quarry-${entry}`,
      );
      expect(target).toBe(
        `http://${service!.metadata.name}.${NAMESPACE}.svc:${service!.spec.ports[0].port}/readyz`,
      );
    });
  });

  it('renders neither ServiceMonitor nor PrometheusRule where the Prometheus operator is missing', () => {
    const result = helm([
      'template',
      'rel',
      'charts/quarry',
      '-n',
      NAMESPACE,
      '-f',
      'charts/quarry/ci/monitoring-values.yaml',
    ]);
    expect(result.status).toBe(0);
    const kinds = parseDocuments(result.stdout).map((o) => o.kind);
    expect(kinds).not.toContain('ServiceMonitor');
    expect(kinds).not.toContain('PrometheusRule');
    const monitoring = rendered.get('monitoring')!.objects.map((o) => o.kind);
    expect(monitoring).toEqual(expect.arrayContaining(['ServiceMonitor', 'PrometheusRule']));
  });

  it('serves OTLP/gRPC on the ingest pods and Service only when otlpGrpc.enabled', () => {
    const render = (values: string, ...set: string[]) => {
      const result = helm([
        'template',
        'rel',
        'charts/quarry',
        '-n',
        NAMESPACE,
        '-f',
        `charts/quarry/ci/${values}-values.yaml`,
        ...set.flatMap((s) => ['--set', s]),
      ]);
      expect(result.stderr).toBe('');
      return parseDocuments(result.stdout);
    };
    const grpcOf = (objects: K8sObject[]) =>
      objects.flatMap((o) => {
        const component = o.metadata.labels?.['app.kubernetes.io/component'];
        const servicePorts = o.kind === 'Service' ? (o.spec.ports as { name: string; port: number }[]) : [];
        const containers = WORKLOAD_KINDS.includes(o.kind) ? containersOf(o) : [];
        return [
          ...servicePorts.filter((p) => p.name === 'otlp-grpc').map((p) => `${component} Service ${p.port}`),
          ...containers.flatMap((c) => [
            ...(c.ports ?? [])
              .filter((p) => p.name === 'otlp-grpc')
              .map((p) => `${component} pod ${p.containerPort}`),
            ...(c.env ?? [])
              .filter((e) => e.name === 'QUARRY_OTLP_GRPC_PORT')
              .map((e) => `${component} env ${e.value}`),
          ]),
        ];
      });
    expect(grpcOf(render('region'))).toEqual([]);
    expect(grpcOf(render('region', 'otlpGrpc.enabled=true', 'otlpGrpc.port=14317')).sort()).toEqual([
      'ingest Service 14317',
      'ingest env 14317',
      'ingest pod 14317',
    ]);
    expect(grpcOf(render('standalone', 'otlpGrpc.enabled=true')).sort()).toEqual([
      'standalone Service 4317',
      'standalone env 4317',
      'standalone pod 4317',
    ]);
  });

  describe.each(invalidCases(CHART).map((c) => [c.name, c] as const))('ci/invalid/%s', (_name, c) => {
    it('is refused with its message', () => {
      const result = template(CHART, NAMESPACE, c.file);
      expect([result.status === 0, result.stderr]).toEqual([false, expect.stringContaining(c.expect)]);
    });
  });
});
