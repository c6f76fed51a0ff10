import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { helm, ROOT } from './helm';
import { containersOf, KUBE_VERSION, parseDocuments, validateObjects, type K8sObject } from './render';

/**
 * skaffold.yaml (k8s.md §6, §9.6). skaffold does not run here, so the file is checked by reading it: the
 * pinned schema version, image templates that name declared artifacts, paths that exist, and, for the
 * default deploy and each profile (JSON patches applied as skaffold applies them), every release rendered
 * with helm and the dev manifests, validated, with every in-cluster URL and Secret reference resolved.
 */
interface Release {
  name: string;
  chartPath: string;
  namespace: string;
  valuesFiles?: string[];
  setValues?: Record<string, string>;
  setValueTemplates?: Record<string, string>;
}
interface SkaffoldConfig {
  apiVersion: string;
  kind: string;
  build: { artifacts: { image: string; docker?: { dockerfile?: string } }[] };
  manifests?: { rawYaml?: string[] };
  deploy: { helm: { releases: Release[]; hooks?: { before?: { host?: { command: string[] } }[] } } };
  profiles?: { name: string; patches?: { op: string; path: string; value?: unknown }[] }[];
}

const CONFIG = parseYaml(fs.readFileSync(path.join(ROOT, 'skaffold.yaml'), 'utf8')) as SkaffoldConfig;
/** skaffold's template names: the artifact's image with `-`, `/`, `.` and `:` replaced by `_`. */
const sanitise = (image: string) => image.replace(/[-/.:]/g, '_');
const ARTIFACTS = new Map(CONFIG.build.artifacts.map((a) => [sanitise(a.image), a.image]));

/** RFC 6902 add/replace/remove on a copy, as skaffold applies profile patches. */
function applyPatches(config: SkaffoldConfig, patches: { op: string; path: string; value?: unknown }[]) {
  const copy = structuredClone(config) as unknown as Record<string, unknown>;
  for (const patch of patches) {
    const parts = patch.path
      .split('/')
      .slice(1)
      .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
    const last = parts.pop()!;
    let parent = copy as Record<string, unknown> | unknown[];
    for (const part of parts) {
      parent = (Array.isArray(parent) ? parent[Number(part)] : parent[part]) as
        Record<string, unknown> | unknown[];
      if (parent === undefined) throw new Error(`${patch.path}: no ${part}`);
    }
    if (Array.isArray(parent)) {
      const index = last === '-' ? parent.length : Number(last);
      if (patch.op === 'add') parent.splice(index, 0, patch.value);
      else if (patch.op === 'replace') parent[index] = patch.value;
      else if (patch.op === 'remove') parent.splice(index, 1);
      else throw new Error(`unsupported op ${patch.op}`);
    } else if (patch.op === 'remove') {
      delete parent[last];
    } else {
      if (patch.op === 'replace' && !(last in parent)) throw new Error(`${patch.path}: nothing to replace`);
      parent[last] = patch.value;
    }
  }
  return copy as unknown as SkaffoldConfig;
}

const PROFILES: [string, SkaffoldConfig][] = [
  ['(default)', CONFIG],
  ...(CONFIG.profiles ?? []).map(
    (p) => [p.name, applyPatches(CONFIG, p.patches ?? [])] as [string, SkaffoldConfig],
  ),
];

/** A template value with the image variables filled in as skaffold would (fake registry and tag). */
function fillTemplate(template: string): string {
  return template.replace(
    /\{\{\s*\.IMAGE_(REPO|TAG|DIGEST|FULLY_QUALIFIED)_(\w+)\s*\}\}/g,
    (_m, kind, name) => {
      const image = ARTIFACTS.get(name);
      if (!image) throw new Error(`template names no declared artifact: ${name}`);
      if (kind === 'REPO') return `registry.local/${image}`;
      if (kind === 'TAG') return 'dev';
      if (kind === 'DIGEST') return `sha256:${'0'.repeat(64)}`;
      return `registry.local/${image}:dev`;
    },
  );
}

function renderRelease(release: Release): K8sObject[] {
  const args = [
    'template',
    release.name,
    release.chartPath,
    '--namespace',
    release.namespace,
    '--kube-version',
    KUBE_VERSION,
  ];
  for (const file of release.valuesFiles ?? []) args.push('-f', file);
  for (const [key, value] of Object.entries(release.setValues ?? {})) args.push('--set', `${key}=${value}`);
  for (const [key, value] of Object.entries(release.setValueTemplates ?? {}))
    args.push('--set', `${key}=${fillTemplate(value)}`);
  const result = helm(args);
  if (result.status !== 0) throw new Error(`${release.name}: helm template failed:\n${result.stderr}`);
  return parseDocuments(result.stdout).map((o) => ({
    ...o,
    metadata: { namespace: release.namespace, ...o.metadata },
  }));
}

describe('skaffold.yaml', () => {
  it('pins the v4beta13 schema', () => {
    expect([CONFIG.apiVersion, CONFIG.kind]).toEqual(['skaffold/v4beta13', 'Config']);
  });

  it('builds quarry from Dockerfile and quarry-operator from Dockerfile.operator', () => {
    expect(CONFIG.build.artifacts.map((a) => [a.image, a.docker?.dockerfile])).toEqual([
      ['quarry', 'Dockerfile'],
      ['quarry-operator', 'Dockerfile.operator'],
    ]);
    for (const a of CONFIG.build.artifacts)
      expect(fs.existsSync(path.join(ROOT, a.docker!.dockerfile!))).toBe(true);
  });

  it('has the region and two-regions profiles', () => {
    expect((CONFIG.profiles ?? []).map((p) => p.name)).toEqual(['region', 'two-regions']);
  });

  describe.each(PROFILES)('profile %s', (_name, config) => {
    const releases = config.deploy.helm.releases;

    it('refers to artifacts, charts, values files and manifests that exist', () => {
      const text = JSON.stringify(config);
      for (const [, name] of text.matchAll(/\.IMAGE_(?:REPO|TAG|DIGEST|FULLY_QUALIFIED)_(\w+)/g)) {
        expect([name, ARTIFACTS.has(name)]).toEqual([name, true]);
      }
      for (const r of releases) {
        expect([r.chartPath, fs.existsSync(path.join(ROOT, r.chartPath, 'Chart.yaml'))]).toEqual([
          r.chartPath,
          true,
        ]);
        for (const f of r.valuesFiles ?? [])
          expect([f, fs.existsSync(path.join(ROOT, f))]).toEqual([f, true]);
        expect(Object.keys(r.setValueTemplates ?? {}).length).toBeGreaterThan(0);
      }
      for (const f of config.manifests?.rawYaml ?? [])
        expect([f, fs.existsSync(path.join(ROOT, f))]).toEqual([f, true]);
      for (const hook of config.deploy.helm.hooks?.before ?? []) {
        const command = hook.host?.command ?? [];
        const file = command[command.indexOf('-f') + 1];
        if (command.includes('-f'))
          expect([file, fs.existsSync(path.join(ROOT, file))]).toEqual([file, true]);
      }
      expect(new Set(releases.map((r) => r.name)).size).toBe(releases.length);
    });

    it('renders every release and dev manifest into valid objects whose URLs and Secrets resolve', () => {
      const manifests = (config.manifests?.rawYaml ?? []).flatMap((f) =>
        parseDocuments(fs.readFileSync(path.join(ROOT, f), 'utf8')),
      );
      const objects = [...manifests, ...releases.flatMap(renderRelease)];
      // The operator chart's CRDs join the batch, so the QuarryConnection is checked against its schema.
      const crdDir = path.join(ROOT, 'charts', 'quarry-operator', 'crds');
      const crds = fs
        .readdirSync(crdDir)
        .filter((f) => f.endsWith('.yaml'))
        .flatMap((f) => parseDocuments(fs.readFileSync(path.join(crdDir, f), 'utf8')));
      expect(validateObjects([...objects, ...crds])).toEqual([]);

      // Every in-cluster URL a release is given names a Service (and port) of this profile.
      const services = new Map(
        objects
          .filter((o) => o.kind === 'Service')
          .map((o) => [
            `${o.metadata.name}.${o.metadata.namespace}`,
            o.spec.ports.map((p: { port: number }) => p.port),
          ]),
      );
      const urls =
        JSON.stringify(objects.filter((o) => o.kind !== 'Service')).match(/http:\/\/[a-z0-9.-]+\.svc:\d+/g) ??
        [];
      expect(urls.length).toBeGreaterThan(0);
      for (const url of new Set(urls)) {
        const [, host, port] = /^http:\/\/([a-z0-9-]+\.[a-z0-9-]+)\.svc:(\d+)$/.exec(url)!;
        expect([url, services.get(host)?.includes(Number(port)) ?? false]).toEqual([url, true]);
      }

      // Every Secret a pod or the QuarryConnection refers to is created by the dev manifests, with its key.
      const secrets = new Map(
        manifests
          .filter((o) => o.kind === 'Secret')
          .map((o) => [
            `${o.metadata.namespace}/${o.metadata.name}`,
            Object.keys((o.stringData as object) ?? {}),
          ]),
      );
      for (const o of objects) {
        for (const c of containersOf(o)) {
          for (const e of c.env ?? []) {
            const ref = e.valueFrom?.secretKeyRef;
            if (!ref) continue;
            const id = `${o.metadata.namespace}/${ref.name}`;
            expect([id, ref.key, secrets.get(id)?.includes(ref.key) ?? false]).toEqual([id, ref.key, true]);
          }
        }
        if (o.kind === 'QuarryConnection') {
          const operator = releases.find((r) => r.chartPath === 'charts/quarry-operator')!;
          const id = `${operator.namespace}/${o.spec.credentialsSecretRef.name}`;
          expect([id, secrets.get(id)?.includes(o.spec.credentialsSecretRef.key ?? 'token')]).toEqual([
            id,
            true,
          ]);
        }
      }
      const images = objects.flatMap((o) => containersOf(o).map((c) => c.image ?? ''));
      expect(images.filter((i) => i.startsWith('registry.local/')).length).toBeGreaterThan(0);
    });
  });
});
