/**
 * What a kind module declares, and the resource envelope around its spec and status. `crd.ts` turns a
 * `KindDefinition` into a CustomResourceDefinition; nothing else about a kind lives outside its module.
 */
import type { TSchema } from '@sinclair/typebox';
import type { API_GROUP_VERSION, KindNames } from './group';

/** A CRD `additionalPrinterColumns` entry; `type` is mandatory (kubectl and kubernetes-models insist). */
export interface PrinterColumn {
  readonly name: string;
  readonly type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  readonly jsonPath: string;
  readonly description?: string;
  readonly format?: string;
  /** 1 = shown only by `kubectl get -o wide`. */
  readonly priority?: number;
}

export interface KindDefinition {
  readonly names: KindNames;
  /** Shown by `kubectl explain <kind>`. */
  readonly description: string;
  readonly spec: TSchema;
  readonly status: TSchema;
  /** `true`: `spec` must be given. `false`: it defaults to `{}` so the spec's own defaults apply. */
  readonly specRequired: boolean;
  readonly printerColumns: readonly PrinterColumn[];
}

/** The subset of metav1.ObjectMeta the operator reads and writes, in wire form (times are strings). */
export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  finalizers?: string[];
  ownerReferences?: {
    apiVersion: string;
    kind: string;
    name: string;
    uid: string;
    controller?: boolean;
    blockOwnerDeletion?: boolean;
  }[];
}

/** A custom resource as read from the apiserver (JSON). */
export interface CustomResource<K extends string, Spec, Status> {
  apiVersion: typeof API_GROUP_VERSION;
  kind: K;
  metadata: ObjectMeta;
  spec: Spec;
  status?: Status;
}

/** Printer columns every reconciled kind shows (k8s.md §3): the Ready/Synced condition statuses. */
export const CONDITION_COLUMNS = {
  ready: {
    name: 'Ready',
    type: 'string',
    jsonPath: '.status.conditions[?(@.type=="Ready")].status',
  },
  synced: {
    name: 'Synced',
    type: 'string',
    jsonPath: '.status.conditions[?(@.type=="Synced")].status',
  },
  reason: {
    name: 'Reason',
    type: 'string',
    jsonPath: '.status.conditions[?(@.type=="Ready")].reason',
    priority: 1,
  },
  deletion: {
    name: 'Deletion',
    type: 'string',
    description: 'What deleting this object does to the external object: Delete or Orphan.',
    jsonPath: '.spec.deletionPolicy',
    priority: 1,
  },
  age: { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
} as const satisfies Record<string, PrinterColumn>;
