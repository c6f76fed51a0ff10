/**
 * The operator's runtime toolkit over @kubernetes/client-node 1.4 (k8s.md §4.1): a self-restarting
 * informer, a keyed work queue with per-key backoff, Lease leader election, and the small helpers
 * reconcilers share (status and finalizer patches, owner references, conditions, durations, API errors).
 * The fake API server for tests is a separate entry: `@quarry/k8s-kit/testing`.
 */
export {
  ResilientInformer,
  type InformerEvent,
  type ObjectHandler,
  type ResilientInformerOptions,
  type Selectors,
} from './resilient-informer';
export { WorkQueue, type WorkQueueOptions } from './work-queue';
export {
  defaultControllerRateLimiter,
  ItemExponentialBackoff,
  MaxOfRateLimiter,
  TokenBucketRateLimiter,
  type ExponentialBackoffOptions,
  type RateLimiter,
  type TokenBucketOptions,
} from './rate-limiter';
export {
  LeaderElector,
  type ElectionOutcome,
  type LeaderElectorOptions,
  type LeaseApi,
} from './leader-elector';
export { collectionPath, type CustomObjectRef, type CustomResourceType } from './custom-resource-ref';
export {
  jsonPatchStatus,
  mergePatchObject,
  mergePatchStatus,
  type CustomObjectPatchApi,
  type JsonPatchOperation,
} from './custom-object-patches';
export {
  addFinalizerPatch,
  ensureFinalizer,
  hasFinalizer,
  removeFinalizer,
  removeFinalizerPatch,
  type FinalizerPatch,
} from './finalizers';
export {
  controllerKey,
  controllerOf,
  controllerReference,
  isControlledBy,
  type OwnerIdentity,
} from './owner-references';
export {
  findCondition,
  isConditionTrue,
  sameConditions,
  setCondition,
  type Condition,
  type ConditionUpdate,
} from './conditions';
export { parseDuration, type DurationParse } from './duration';
export {
  isAlreadyExists,
  isConflict,
  isInvalid,
  isNotFound,
  kubeApiFailureOf,
  type KubeApiFailure,
} from './api-errors';
export { objectKey, parseObjectKey } from './object-key';
