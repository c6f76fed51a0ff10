/**
 * What the operator-process suites share: the built operator run as a child process, k8s-kit's fake
 * Kubernetes API server admitting custom resources with a `CrdAdmission`, and a small HTTP client for it
 * (objects are written over HTTP, as kubectl would, so admission applies).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { API_GROUP, API_VERSION } from '@quarry/k8s-api';
import type { CrdAdmission } from '@quarry/k8s-api/testing';
import { eventually, FakeApiServer } from '@quarry/k8s-kit/testing';
import { freePort } from '../support/free-port';

export const ROOT = path.resolve(__dirname, '../..');
export const OPERATOR_MAIN = path.join(ROOT, 'apps/operator/dist/main.js');
export const GROUP = `/apis/${API_GROUP}/${API_VERSION}`;

/** Fails with the fix when the build the suites run is missing. */
export function requireBuild(): void {
  for (const built of [OPERATOR_MAIN, path.join(ROOT, 'libs/k8s-kit/dist/testing/index.js')]) {
    if (!fs.existsSync(built)) throw new Error(`${built} is missing: run npm run build first`);
  }
}

export interface Child {
  process: ChildProcess;
  output: string[];
  exited: Promise<number | null>;
}

export function spawnNode(script: string, env: Record<string, string>): Child {
  const child = spawn(process.execPath, [script], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { process: child, output, exited };
}

export interface OperatorProcess {
  name: string;
  child: Child;
  /** Base URL of its health and metrics server. */
  health: string;
}

/** Starts `apps/operator/dist/main.js` as pod `name` and waits until it answers `/readyz`. */
export async function startOperatorProcess(options: {
  name: string;
  kubeconfig: string;
  namespace: string;
  resync?: string;
}): Promise<OperatorProcess> {
  const port = await freePort();
  const child = spawnNode(OPERATOR_MAIN, {
    KUBECONFIG: options.kubeconfig,
    QUARRY_OPERATOR_NAMESPACE: options.namespace,
    QUARRY_OPERATOR_RESYNC: options.resync ?? '5m',
    HOST: '127.0.0.1',
    PORT: String(port),
    POD_NAME: options.name,
  });
  const health = `http://127.0.0.1:${port}`;
  await eventually(async () => {
    if ((await fetch(`${health}/readyz`)).status !== 200) throw new Error('/readyz is not 200');
  }, 10_000).catch((err: Error) => {
    child.process.kill('SIGTERM');
    throw new Error(
      `operator ${options.name} did not become ready: ${err.message}\n${child.output.join('')}`,
    );
  });
  return { name: options.name, child, health };
}

export async function stopOperatorProcess({ child }: OperatorProcess): Promise<number | null> {
  child.process.kill('SIGTERM');
  return child.exited;
}

/**
 * The fake API server serving every CRD `admission` loaded, each with its status subresource and
 * admission by its schema and CEL rules; plus the kubeconfig file a child process reads.
 */
export async function startFakeKube(
  admission: CrdAdmission,
  options: { namespaces: string[]; kubeconfig: string },
): Promise<FakeApiServer> {
  const fakeKube = await FakeApiServer.start({
    namespaces: options.namespaces,
    garbageCollection: true,
    customResources: admission.crds.map((crd) => ({
      group: crd.spec.group,
      version: crd.spec.versions.find((v) => v.storage)!.name,
      plural: crd.spec.names.plural,
      kind: crd.spec.names.kind,
      namespaced: crd.spec.scope === 'Namespaced',
      statusSubresource: true,
      admit: (object, oldObject) => admission.admit(object, oldObject),
    })),
  });
  fs.writeFileSync(options.kubeconfig, fakeKube.kubeConfig().exportConfig());
  return fakeKube;
}

export interface KubeResponse {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

export type KubeClient = (
  method: string,
  urlPath: string,
  body?: unknown,
  contentType?: string,
) => Promise<KubeResponse>;

/** A bare HTTP client of an API server: JSON in, status and parsed JSON out. */
export function kubeClient(baseUrl: () => string): KubeClient {
  return async (method, urlPath, body, contentType = 'application/json') => {
    const response = await fetch(`${baseUrl()}${urlPath}`, {
      method,
      headers: body === undefined ? {} : { 'Content-Type': contentType },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };
}

export interface Condition {
  type: string;
  status: string;
  reason: string;
  message: string;
  observedGeneration?: number;
  lastTransitionTime?: string;
}

/** One condition of an object's status, if it has it. */
export function conditionOf(object: { status?: { conditions?: Condition[] } }, type: string) {
  return (object.status?.conditions ?? []).find((c) => c.type === type);
}

/** Base64-encodes every value, as a Secret's `data` wants. */
export function secretData(values: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(values).map(([key, value]) => [key, Buffer.from(value).toString('base64')]),
  );
}
