/**
 * Names the operator writes onto Kubernetes objects (k8s.md §3). The vocabulary itself lives in
 * `@quarry/k8s-api` beside the schemas; this module only gathers what the reconcilers use.
 */
import { ANNOTATIONS as CR_ANNOTATIONS, API_GROUP_VERSION, FINALIZER, TOKEN_SECRET } from '@quarry/k8s-api';

export { FINALIZER };
export const API_VERSION = API_GROUP_VERSION;

export const ANNOTATIONS = {
  ...CR_ANNOTATIONS,
  /** On a token Secret: the id and expiry of the token it holds. */
  tokenId: TOKEN_SECRET.annotations.tokenId,
  expiresAt: TOKEN_SECRET.annotations.expiresAt,
} as const;

export const LABELS = TOKEN_SECRET.labels;
export const MANAGED_BY = TOKEN_SECRET.managedByValue;
/** Field manager of server-side applies. */
export const FIELD_MANAGER = 'quarry-operator';
/** Keys of a token Secret: `token`/`url` for people, `AXIOM_*` so `envFrom` feeds the official clients. */
export const SECRET_KEYS = TOKEN_SECRET.dataKeys;
