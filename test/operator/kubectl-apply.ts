/**
 * `kubectl apply -f DIR` (client-side apply) over HTTP, for the fake API server: every `*.yaml` file of
 * DIR in file-name order, every document in file order; a missing object is created with the
 * `last-applied-configuration` annotation, an existing one gets kubectl's three-way JSON merge patch
 * (fields dropped since the last apply are nulled, every applied field is set). Only what the Quarry
 * custom resources need: JSON merge patch (custom resources have no strategic merge), no pruning.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseAllDocuments } from 'yaml';
import type { KubeClient } from './support';

export const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

type Json = Record<string, unknown>;

export interface Manifest {
  file: string;
  object: Json & {
    apiVersion: string;
    kind: string;
    metadata: { name: string; namespace?: string; annotations?: Record<string, string> };
  };
}

/** Every document of every `*.yaml` file of `dir` (not recursive), in the order kubectl applies them. */
export function readManifests(dir: string): Manifest[] {
  const manifests: Manifest[] = [];
  for (const file of fs.readdirSync(dir).sort()) {
    if (!file.endsWith('.yaml')) continue;
    for (const document of parseAllDocuments(fs.readFileSync(path.join(dir, file), 'utf8'))) {
      const object = document.toJS() as Manifest['object'] | null;
      if (object) manifests.push({ file, object });
    }
  }
  return manifests;
}

export interface ApplyOutcome {
  file: string;
  kind: string;
  name: string;
  namespace?: string;
  action: 'created' | 'configured' | 'unchanged';
}

/** Where objects of `apiVersion`/`kind` live: the collection URL for `namespace`. */
export type CollectionPath = (apiVersion: string, kind: string, namespace?: string) => string;

/** Applies `manifests` one by one; throws with the server's answer on the first refusal, as kubectl reports it. */
export async function kubectlApply(
  kube: KubeClient,
  collection: CollectionPath,
  manifests: Manifest[],
): Promise<ApplyOutcome[]> {
  const outcomes: ApplyOutcome[] = [];
  for (const { file, object } of manifests) {
    const { apiVersion, kind, metadata } = object;
    const base = collection(apiVersion, kind, metadata.namespace);
    const itemPath = `${base}/${metadata.name}`;
    const modified = withLastApplied(object);
    const live = await kube('GET', itemPath);
    let answer;
    let action: ApplyOutcome['action'];
    if (live.status === 404) {
      answer = await kube('POST', base, modified);
      action = 'created';
    } else {
      const original = parseLastApplied(live.body);
      const patch = mergeObjects(deletions(original, modified), modified);
      answer = await kube('PATCH', itemPath, patch, 'application/merge-patch+json');
      action =
        answer.body?.metadata?.resourceVersion === live.body.metadata.resourceVersion
          ? 'unchanged'
          : 'configured';
    }
    if (answer.status >= 300) {
      throw new Error(`${file}: ${kind} ${metadata.name}: ${answer.status} ${JSON.stringify(answer.body)}`);
    }
    outcomes.push({ file, kind, name: metadata.name, namespace: metadata.namespace, action });
  }
  return outcomes;
}

/** The object with its own JSON as the last-applied annotation (kubectl leaves that annotation out of it). */
function withLastApplied(object: Manifest['object']): Json {
  const annotations = { ...(object.metadata.annotations ?? {}) };
  delete annotations[LAST_APPLIED];
  const bare = { ...object, metadata: { ...object.metadata, annotations } };
  if (Object.keys(annotations).length === 0) delete (bare.metadata as Json).annotations;
  return {
    ...object,
    metadata: {
      ...object.metadata,
      annotations: { ...annotations, [LAST_APPLIED]: JSON.stringify(bare) },
    },
  };
}

function parseLastApplied(live: { metadata?: { annotations?: Record<string, string> } }): Json {
  const text = live.metadata?.annotations?.[LAST_APPLIED];
  return text ? (JSON.parse(text) as Json) : {};
}

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Fields of `original` (the last applied configuration) that `modified` no longer has: `null` each. */
function deletions(original: Json, modified: Json): Json {
  const patch: Json = {};
  for (const [key, value] of Object.entries(original)) {
    if (!(key in modified)) patch[key] = null;
    else if (isObject(value) && isObject(modified[key])) {
      const nested = deletions(value, modified[key] as Json);
      if (Object.keys(nested).length > 0) patch[key] = nested;
    }
  }
  return patch;
}

/** `over` on top of `under`, objects merged key by key (lists and scalars replaced). */
function mergeObjects(under: Json, over: Json): Json {
  const merged: Json = { ...under };
  for (const [key, value] of Object.entries(over)) {
    merged[key] = isObject(value) && isObject(under[key]) ? mergeObjects(under[key] as Json, value) : value;
  }
  return merged;
}
