import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseAllDocuments, parse as parseYaml, stringify } from 'yaml';
import { helm, ROOT } from './helm';

/**
 * What the chart tests share: the value sets of a chart (`ci/*.yaml`) and its refusals
 * (`ci/invalid/*.yaml`, each with a `# expect: <message>` line), rendering with `helm template`,
 * offline validation of what was rendered, and golden files of the normalised render.
 */
export const KUBE_VERSION = '1.31';
export const MONITORING_API = 'monitoring.coreos.com/v1/ServiceMonitor';
export const UPDATE = process.env.UPDATE_GOLDEN === '1';

export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
  // Rendered objects are read as plain JSON.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  spec?: any;
  data?: Record<string, string>;
  [key: string]: unknown;
}

export interface ValueCase {
  name: string;
  file: string;
}

export interface InvalidCase extends ValueCase {
  expect: string;
}

export const chartDir = (chart: string) => path.join('charts', chart);

/** `ci/<name>-values.yaml` or `ci/<name>.yaml`, named `<name>`. */
export function valueCases(chart: string): ValueCase[] {
  const dir = path.join(ROOT, chartDir(chart), 'ci');
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((f) => ({ name: f.replace(/(-values)?\.yaml$/, ''), file: path.join(chartDir(chart), 'ci', f) }));
}

export function invalidCases(chart: string): InvalidCase[] {
  const dir = path.join(ROOT, chartDir(chart), 'ci', 'invalid');
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((f) => {
      const file = path.join(chartDir(chart), 'ci', 'invalid', f);
      const expect = /^# expect: (.+)$/m.exec(fs.readFileSync(path.join(ROOT, file), 'utf8'))?.[1]?.trim();
      if (!expect) throw new Error(`${file}: no "# expect: <message>" line`);
      return { name: f.replace(/\.yaml$/, ''), file, expect };
    });
}

/** `helm template` of a chart with one values file, as release `rel`, with the monitoring CRD "present". */
export function template(
  chart: string,
  namespace: string,
  valuesFile: string,
  extra: readonly string[] = [],
) {
  return helm([
    'template',
    'rel',
    chartDir(chart),
    '--namespace',
    namespace,
    '--kube-version',
    KUBE_VERSION,
    '--api-versions',
    MONITORING_API,
    '-f',
    valuesFile,
    ...extra,
  ]);
}

export function parseDocuments(text: string): K8sObject[] {
  return parseAllDocuments(text)
    .map((doc) => {
      if (doc.errors.length > 0) throw new Error(`rendered YAML does not parse: ${doc.errors[0].message}`);
      return doc.toJSON() as K8sObject | null;
    })
    .filter((o): o is K8sObject => o !== null && typeof o === 'object');
}

export interface ValidationProblem {
  index: number;
  kind: string;
  name: string;
  errors: string[];
}

/** Validates objects with the Kubernetes and prometheus-operator models (in a child process, see the script). */
export function validateObjects(objects: readonly K8sObject[]): ValidationProblem[] {
  const result = spawnSync(process.execPath, [path.join(__dirname, 'validate-manifests.mjs')], {
    cwd: ROOT,
    input: JSON.stringify(objects),
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0) throw new Error(`validate-manifests.mjs failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as ValidationProblem[];
}

/**
 * The render as golden text: objects sorted by kind, namespace and name; the chart and app versions and
 * the config checksum replaced by placeholders, so a version bump does not rewrite every golden file.
 */
export function normalise(objects: readonly K8sObject[], chart: string): string {
  const chartYaml = parseYaml(fs.readFileSync(path.join(ROOT, chartDir(chart), 'Chart.yaml'), 'utf8')) as {
    version: string;
    appVersion: string;
  };
  const key = (o: K8sObject) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;
  const sorted = [...objects].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  const text = sorted.map((o) => `---\n${stringify(o, { lineWidth: 0 })}`).join('');
  return text
    .replaceAll(`${chart}-${chartYaml.version}`, `${chart}-<version>`)
    .replaceAll(
      `app.kubernetes.io/version: ${chartYaml.appVersion}`,
      'app.kubernetes.io/version: <appVersion>',
    )
    .replaceAll(
      `app.kubernetes.io/version: "${chartYaml.appVersion}"`,
      'app.kubernetes.io/version: <appVersion>',
    )
    .replace(/(image: "?[^\s":]+):[^\s"@]+/g, '$1:<appVersion>')
    .replace(/checksum\/config: [0-9a-f]{64}/g, 'checksum/config: <sha256>');
}

/** Compares with the golden file, or (UPDATE_GOLDEN=1) rewrites it. Answers the expected text. */
export function golden(relativePath: string, actual: string): string {
  const file = path.join(ROOT, 'test', 'golden', 'charts', relativePath);
  if (UPDATE) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, actual);
    return actual;
  }
  if (!fs.existsSync(file)) throw new Error(`missing ${file}; run with UPDATE_GOLDEN=1`);
  return fs.readFileSync(file, 'utf8');
}

export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string }; fieldRef?: { fieldPath: string } };
}

export interface Container {
  name: string;
  image?: string;
  args?: string[];
  env?: EnvVar[];
  ports?: { name?: string; containerPort: number }[];
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  livenessProbe?: { httpGet?: { path: string } };
  readinessProbe?: { httpGet?: { path: string } };
  securityContext?: Record<string, unknown>;
}

/** Every container (init containers too) of a workload or pod. */
export function containersOf(o: K8sObject): Container[] {
  const pod = o.kind === 'Pod' ? o.spec : o.spec?.template?.spec;
  if (!pod) return [];
  return [...(pod.initContainers ?? []), ...(pod.containers ?? [])];
}

export function podSpecOf(o: K8sObject) {
  return o.kind === 'Pod' ? o.spec : o.spec?.template?.spec;
}

export function podLabelsOf(o: K8sObject): Record<string, string> {
  return (o.kind === 'Pod' ? o.metadata.labels : o.spec?.template?.metadata?.labels) ?? {};
}

export const WORKLOAD_KINDS = ['Deployment', 'StatefulSet', 'DaemonSet'];

/** Does `labels` satisfy `selector` (a Service's map, or a LabelSelector with matchLabels)? */
export function selects(selector: Record<string, string> | undefined, labels: Record<string, string>) {
  if (!selector || Object.keys(selector).length === 0) return false;
  return Object.entries(selector).every(([k, v]) => labels[k] === v);
}
