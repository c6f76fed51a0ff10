/**
 * `@quarry/operator/testing`: in-memory fakes of the operator's two ports, a fault-injecting wrapper for any
 * `ManagementApi`, and the shared suites (the `ManagementApi` contract, the reconcile suite) that run on the
 * fakes here and on the real management app under `test/operator`. Never loaded by production code.
 */
export { InMemoryManagementApi, type InMemoryManagementApiOptions } from './management-api.fake';
export { InstrumentedManagementApi, type ManagementMethod } from './instrumented-management-api';
export { InMemoryKubeObjects, type KubeMethod, type RecordedEvent } from './kube-objects.fake';
export { failureKind, managementApiContract, type ManagementApiTarget } from './management-api.contract';
export { reconcileSuite, type ReconcileTarget } from './reconcile.suite';
export {
  kubeObjectsContract,
  type KubeObjectsHarness,
  type KubeObjectsTarget,
} from './kube-objects.contract';
export { makePrivateCa, type PrivateCa } from './private-ca';
