/**
 * Test support for operator code: an in-process Kubernetes API server on loopback and small waiting
 * helpers. Imported as `@quarry/k8s-kit/testing`, never by production code.
 */
export {
  FakeApiServer,
  type FakeApiServerOptions,
  type ObjectRef,
  type RecordedRequest,
} from './fake-api-server';
export type { FailNextOptions, GoneDelivery, RequestInfo } from './fault-switches';
export type {
  AdmissionContext,
  AdmissionHook,
  AdmissionResult,
  KubeObject,
  ObjectMeta,
  OwnerReference,
  ResourceType,
} from './resource-types';
export type { StatusBody } from './api-status';
export { kubeConfigFor } from './kube-config';
export { eventually } from './eventually';
export { applyJsonPatch, JsonPatchError, type JsonPatchOperation } from './json-patch';
export { applyMergePatch } from './json-merge-patch';
export { parseLabelSelector } from './label-selector';
