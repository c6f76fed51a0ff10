/**
 * `@quarry/k8s-api`: the Quarry custom resources (`quarry.dev/v1alpha1`) written once in TypeBox. From
 * here come the TS types the operator uses, the CRDs under `crds/` (`npm run sync`), and, through the
 * separate `@quarry/k8s-api/testing` entry, an apiserver-like admission check for fakes and fixtures.
 */
export { API_GROUP, API_VERSION, API_GROUP_VERSION, CATEGORY, crdName, type KindNames } from './group';
export {
  ANNOTATIONS,
  CONDITION_TYPES,
  FINALIZER,
  READY_REASONS,
  SYNCED_REASONS,
  TOKEN_SECRET,
  type ReadyReason,
  type SyncedReason,
} from './well-known';
export type { CelRule } from './openapi';
export {
  Condition,
  ConnectionRef,
  DATASET_CAPABILITY_ACTIONS,
  DELETION_POLICIES,
  ORG_CAPABILITY_ACTIONS,
  VIEW_CAPABILITY_ACTIONS,
  DatasetCapability,
  OrgCapabilities,
  ViewCapability,
  type DeletionPolicy,
} from './fragments';
export {
  CONDITION_COLUMNS,
  type CustomResource,
  type KindDefinition,
  type ObjectMeta,
  type PrinterColumn,
} from './kind';
export {
  DATASET,
  DATASET_KINDS,
  DATASET_NAMES,
  DatasetSpec,
  DatasetStatus,
  type DatasetKind,
  type DatasetResource,
} from './dataset';
export { ROLE, ROLE_NAMES, RoleSpec, RoleStatus, type RoleResource } from './role';
export {
  ROTATION_REASONS,
  TOKEN,
  TOKEN_NAMES,
  TokenRotation,
  TokenSpec,
  TokenStatus,
  type RotationReason,
  type TokenResource,
} from './token';
export {
  QUARRY_CONNECTION,
  QUARRY_CONNECTION_NAMES,
  QuarryConnectionSpec,
  QuarryConnectionStatus,
  type QuarryConnectionResource,
} from './quarry-connection';
export {
  KINDS,
  buildAllCrds,
  buildCrd,
  openApiSchemaOf,
  type CustomResourceDefinition,
  type JsonSchemaProps,
} from './crd';
