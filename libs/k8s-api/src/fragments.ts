/**
 * Schema fragments shared by several kinds: conditions and the common status, the connection reference,
 * the deletion policy, and the capability sets Role and Token both carry (k8s.md §1, §3, §3.3). Role and
 * Token build their capabilities from the same functions here, so the two cannot drift apart.
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import {
  LIMITS,
  PATTERNS,
  dateTime,
  int64,
  mapListOf,
  setOf,
  stringEnum,
  validations,
  type CelRule,
} from './openapi';

// --- conditions and status ------------------------------------------------------------------------

/** metav1.Condition, with the bounds and patterns Kubernetes itself declares for it. */
export const Condition = Type.Object(
  {
    type: Type.String({
      description: 'Type of condition in CamelCase: Ready or Synced.',
      maxLength: 316,
      pattern:
        '^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$',
    }),
    status: stringEnum(['True', 'False', 'Unknown'] as const, { description: 'Status of the condition.' }),
    observedGeneration: Type.Optional(
      int64({ minimum: 0, description: 'metadata.generation the condition was set for.' }),
    ),
    lastTransitionTime: dateTime({ description: 'Last time the status changed.' }),
    reason: Type.String({
      description: 'One CamelCase word saying why the condition has its status.',
      minLength: 1,
      maxLength: 1024,
      pattern: '^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$',
    }),
    message: Type.String({ description: 'Human-readable details.', maxLength: 32768 }),
  },
  { description: 'One aspect of the current state (metav1.Condition).' },
);
export type Condition = Static<typeof Condition>;

/** Status fields every Quarry kind has; `extra` adds the kind's observed fields. */
export function statusWith<P extends Record<string, TSchema>>(extra: P, description: string) {
  return Type.Object(
    {
      observedGeneration: Type.Optional(
        int64({ minimum: 0, description: 'metadata.generation the operator last reconciled.' }),
      ),
      conditions: Type.Optional(
        mapListOf(Condition, ['type'], {
          maxItems: 16,
          description:
            'Ready (the external object exists and matches) and Synced (the last reconcile succeeded).',
        }),
      ),
      lastSyncTime: Type.Optional(
        dateTime({ description: 'When the operator last reached the management API.' }),
      ),
      ...extra,
    },
    { description },
  );
}

// --- connection reference and deletion policy ------------------------------------------------------

/** Which `QuarryConnection` (cluster-scoped) talks to the management API for this object; immutable. */
export const ConnectionRef = Type.Object(
  {
    name: Type.String({
      description: 'Name of a cluster-scoped QuarryConnection.',
      default: 'default',
      minLength: 1,
      maxLength: LIMITS.dnsSubdomain,
      pattern: PATTERNS.dnsSubdomain,
    }),
  },
  {
    description:
      'The QuarryConnection used for this object. Immutable: moving an object between APIs is a delete and a create.',
    default: {},
    ...validations({ rule: 'self.name == oldSelf.name', message: 'connectionRef.name is immutable' }),
  },
);
export type ConnectionRef = Static<typeof ConnectionRef>;

export const DELETION_POLICIES = ['Delete', 'Orphan'] as const;
export type DeletionPolicy = (typeof DELETION_POLICIES)[number];

/** What happens to the external object when the custom resource is deleted; the default differs per kind. */
export function deletionPolicy(defaultPolicy: DeletionPolicy, description: string) {
  return stringEnum(DELETION_POLICIES, { default: defaultPolicy, description });
}

// --- capabilities ---------------------------------------------------------------------------------

const CRUD = ['create', 'read', 'update', 'delete'] as const;

/** Org-wide areas and the actions each accepts (api.md §2.1; the server's ORG_AREAS). */
export const ORG_CAPABILITY_ACTIONS = {
  annotations: CRUD,
  apiTokens: CRUD,
  auditLog: ['read'],
  billing: ['read', 'update'],
  dashboards: CRUD,
  datasets: CRUD,
  endpoints: CRUD,
  flows: CRUD,
  integrations: CRUD,
  monitors: CRUD,
  notifiers: CRUD,
  rbac: CRUD,
  sharedAccessKeys: ['read', 'update'],
  users: CRUD,
  views: CRUD,
} as const;

/** Per-dataset capabilities and their actions (the server's DATASET_CAPABILITIES). */
export const DATASET_CAPABILITY_ACTIONS = {
  ingest: ['create'],
  query: ['read'],
  starredQueries: CRUD,
  virtualFields: CRUD,
  trim: ['update'],
  vacuum: ['update'],
  data: ['delete'],
  share: ['create', 'read', 'delete'],
} as const;

/** Per-view capabilities and their actions. */
export const VIEW_CAPABILITY_ACTIONS = {
  query: ['read'],
  share: ['create', 'read', 'delete'],
} as const;

type ActionTable = Record<string, readonly string[]>;
type ActionSets<T extends ActionTable> = { [K in keyof T]?: T[K][number][] };

/** A set of the actions `allowed`: no duplicates, at least one (an empty grant is a typo, not a grant). */
function actionSet<const A extends readonly string[]>(allowed: A, capability: string) {
  return setOf(stringEnum(allowed), {
    minItems: 1,
    maxItems: allowed.length,
    description: `Actions granted on ${capability}: ${allowed.join(', ')}.`,
  });
}

function actionProperties<T extends ActionTable>(table: T, what: string) {
  const properties: Record<string, TSchema> = {};
  for (const [capability, allowed] of Object.entries(table)) {
    properties[capability] = Type.Optional(actionSet(allowed, `${what} ${capability}`));
  }
  return properties;
}

/** CEL: an entry of a capability list must grant something besides its key. */
function grantsSomething(table: ActionTable, what: string): CelRule {
  const any = Object.keys(table)
    .map((capability) => `has(self.${capability})`)
    .join(' || ');
  return { rule: any, message: `a ${what} capability entry must grant at least one action` };
}

export const OrgCapabilities = Type.Unsafe<ActionSets<typeof ORG_CAPABILITY_ACTIONS>>(
  Type.Object(actionProperties(ORG_CAPABILITY_ACTIONS, 'org'), {
    description: 'Org-wide capabilities: per area, the actions granted. Absent areas grant nothing.',
    minProperties: 1,
  }),
);
export type OrgCapabilities = Static<typeof OrgCapabilities>;

export const DATASET_CAPABILITY_KEY = {
  maxLength: 80,
  /** A dataset name as the management API accepts it, or `*` for every dataset. */
  pattern: '^(\\*|[a-zA-Z0-9]([a-zA-Z0-9._-]{0,78}[a-zA-Z0-9])?)$',
} as const;

export const DatasetCapability = Type.Unsafe<
  { dataset: string } & ActionSets<typeof DATASET_CAPABILITY_ACTIONS>
>(
  Type.Object(
    {
      dataset: Type.String({
        description: 'Dataset name, or * for every dataset.',
        minLength: 1,
        ...DATASET_CAPABILITY_KEY,
      }),
      ...actionProperties(DATASET_CAPABILITY_ACTIONS, 'dataset'),
    },
    {
      description: 'Capabilities on one dataset (or on every dataset with *).',
      ...validations(grantsSomething(DATASET_CAPABILITY_ACTIONS, 'dataset')),
    },
  ),
);
export type DatasetCapability = Static<typeof DatasetCapability>;

export const ViewCapability = Type.Unsafe<{ view: string } & ActionSets<typeof VIEW_CAPABILITY_ACTIONS>>(
  Type.Object(
    {
      view: Type.String({ description: 'View id, or * for every view.', minLength: 1, maxLength: 128 }),
      ...actionProperties(VIEW_CAPABILITY_ACTIONS, 'view'),
    },
    {
      description: 'Capabilities on one view (or on every view with *).',
      ...validations(grantsSomething(VIEW_CAPABILITY_ACTIONS, 'view')),
    },
  ),
);
export type ViewCapability = Static<typeof ViewCapability>;

/** The three capability fields of Role and Token; `listDefault` is Role's `[]` (Token has none). */
export function capabilityProperties(listDefault?: []) {
  const withDefault = listDefault === undefined ? {} : { default: listDefault };
  return {
    orgCapabilities: Type.Optional(OrgCapabilities),
    datasetCapabilities: Type.Optional(
      mapListOf(DatasetCapability, ['dataset'], {
        maxItems: 512,
        description: 'Per-dataset capabilities, one entry per dataset name (or *); becomes the /v2 map.',
        ...withDefault,
      }),
    ),
    viewCapabilities: Type.Optional(
      mapListOf(ViewCapability, ['view'], {
        maxItems: 512,
        description: 'Per-view capabilities, one entry per view id (or *); becomes the /v2 map.',
        ...withDefault,
      }),
    ),
  };
}
