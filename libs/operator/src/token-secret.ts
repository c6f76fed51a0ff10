import { API_VERSION, ANNOTATIONS, LABELS, MANAGED_BY, SECRET_KEYS } from './constants';
import type { SecretObject, TokenResource } from './resources';
import { secretNameOf } from './token-desired';

export interface SecretContent {
  secret: string;
  tokenId: string;
  expiresAt?: string;
  url: string;
}

/**
 * The Secret of a Token CR: `token`/`url` plus `AXIOM_TOKEN`/`AXIOM_URL`, the owner's template labels and
 * annotations, and a controller owner reference (dropped when `owned` is false: the Orphan policy).
 */
export function buildTokenSecret(cr: TokenResource, content: SecretContent, owned = true): SecretObject {
  const template = cr.spec.secretTemplate ?? {};
  return {
    metadata: {
      name: secretNameOf(cr),
      namespace: cr.metadata.namespace!,
      labels: {
        ...(template.labels ?? {}),
        [LABELS.managedBy]: MANAGED_BY,
        [LABELS.token]: cr.metadata.name,
      },
      annotations: {
        ...(template.annotations ?? {}),
        [ANNOTATIONS.tokenId]: content.tokenId,
        ...(content.expiresAt ? { [ANNOTATIONS.expiresAt]: content.expiresAt } : {}),
      },
      ownerReferences: owned
        ? [
            {
              apiVersion: API_VERSION,
              kind: 'Token',
              name: cr.metadata.name,
              uid: cr.metadata.uid!,
              controller: true,
              blockOwnerDeletion: true,
            },
          ]
        : [],
    },
    type: 'Opaque',
    data: {
      [SECRET_KEYS.token]: content.secret,
      [SECRET_KEYS.url]: content.url,
      [SECRET_KEYS.axiomToken]: content.secret,
      [SECRET_KEYS.axiomUrl]: content.url,
    },
  };
}

/** A Secret is the CR's only if it carries the CR's `quarry.dev/token` label; others are never overwritten. */
export function isOwnSecret(secret: SecretObject, cr: TokenResource): boolean {
  return secret.metadata.labels?.[LABELS.token] === cr.metadata.name;
}

/** Whether applying `desired` would change what is stored (so resyncs do not rewrite Secrets). */
export function secretDiffers(stored: SecretObject, desired: SecretObject): boolean {
  const pick = (s: SecretObject) => ({
    data: sortKeys(s.data),
    labels: sortKeys(s.metadata.labels ?? {}),
    annotations: sortKeys(s.metadata.annotations ?? {}),
    owners: (s.metadata.ownerReferences ?? []).map((o) => o.uid),
  });
  const desiredView = pick(desired);
  const storedView = pick(stored);
  // Other managers may add labels/annotations: only ours must match.
  storedView.labels = Object.fromEntries(
    Object.keys(desiredView.labels).map((k) => [k, storedView.labels[k]]),
  );
  storedView.annotations = Object.fromEntries(
    Object.keys(desiredView.annotations).map((k) => [k, storedView.annotations[k]]),
  );
  return JSON.stringify(storedView) !== JSON.stringify(desiredView);
}

function sortKeys(record: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.keys(record)
      .sort()
      .map((k) => [k, record[k]]),
  );
}
