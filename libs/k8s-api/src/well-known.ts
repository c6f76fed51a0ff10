/**
 * The vocabulary shared by the CRDs, the operator and the charts (k8s.md §0, §3, §3.4): annotation keys,
 * the finalizer, condition types and reasons, and what the operator writes on token Secrets. Kept here,
 * beside the schemas, because some of it is also enforced by CEL rules (reserved Secret labels).
 */

export const FINALIZER = 'quarry.dev/finalizer';

export const ANNOTATIONS = {
  /** `"true"`: no external calls; `Synced=False ReconcilePaused`. */
  paused: 'quarry.dev/paused',
  /** Server id of a Role or Token; written by the operator, may be pre-set to adopt an existing object. */
  externalId: 'quarry.dev/external-id',
  /** Timestamp set around non-idempotent creates, so a restarted operator can find what it created. */
  createPending: 'quarry.dev/create-pending',
  /** Token only: any new value requests a rotation (compared with `status.rotation.lastHandledRequest`). */
  rotate: 'quarry.dev/rotate',
} as const;

export const CONDITION_TYPES = {
  /** The external object exists and matches the spec. */
  ready: 'Ready',
  /** The last reconcile reached the management API and succeeded. */
  synced: 'Synced',
} as const;

export const READY_REASONS = [
  'Available',
  'Creating',
  'Deleting',
  'InvalidSpec',
  'ImmutableFieldChanged',
  'ResourceConflict',
  'ConnectionNotReady',
  'Expired',
  'SecretConflict',
] as const;
export type ReadyReason = (typeof READY_REASONS)[number];

export const SYNCED_REASONS = [
  'ReconcileSuccess',
  'ReconcileError',
  'ManagementAPIUnavailable',
  'Unauthorized',
  'ReconcilePaused',
] as const;
export type SyncedReason = (typeof SYNCED_REASONS)[number];

/** What the operator writes on the Secret of a Token (k8s.md §3.4). */
export const TOKEN_SECRET = {
  dataKeys: { token: 'token', url: 'url', axiomToken: 'AXIOM_TOKEN', axiomUrl: 'AXIOM_URL' },
  labels: { managedBy: 'app.kubernetes.io/managed-by', token: 'quarry.dev/token' },
  managedByValue: 'quarry-operator',
  annotations: { tokenId: 'quarry.dev/token-id', expiresAt: 'quarry.dev/expires-at' },
} as const;
