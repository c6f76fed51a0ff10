/**
 * `QuarryConnection` (cluster-scoped): where the management API is and which credentials to use
 * (k8s.md §3.1). Datasets, Roles and Tokens pick one by `spec.connectionRef.name` (default `default`).
 */
import { Type, type Static } from '@sinclair/typebox';
import type { KindNames } from './group';
import { statusWith } from './fragments';
import { CONDITION_COLUMNS, type CustomResource, type KindDefinition } from './kind';
import { LIMITS, PATTERNS, dateTime } from './openapi';

export const QUARRY_CONNECTION_NAMES = {
  kind: 'QuarryConnection',
  listKind: 'QuarryConnectionList',
  plural: 'quarryconnections',
  singular: 'quarryconnection',
  shortNames: ['qconn'],
  scope: 'Cluster',
} as const satisfies KindNames;

/** A key of a Secret in the operator's namespace. */
function secretKeyRef(description: string, defaultKey?: string) {
  return Type.Object(
    {
      name: Type.String({
        description: 'Secret name (in the operator namespace).',
        minLength: 1,
        maxLength: LIMITS.dnsSubdomain,
        pattern: PATTERNS.dnsSubdomain,
      }),
      key: Type.Optional(
        Type.String({
          description: 'Key in the Secret.',
          minLength: 1,
          maxLength: LIMITS.dnsSubdomain,
          pattern: PATTERNS.secretKey,
          ...(defaultKey === undefined ? {} : { default: defaultKey }),
        }),
      ),
    },
    { description },
  );
}

export const QuarryConnectionSpec = Type.Object(
  {
    url: Type.String({
      description: 'Base URL of the main (management) API, e.g. https://quarry.example.com.',
      maxLength: 2048,
      pattern: '^https?://[^\\s/?#]+([/?#]\\S*)?$',
    }),
    credentialsSecretRef: secretKeyRef(
      'Secret holding an API token with datasets, rbac and apiTokens CRUD (or a personal access token with orgId).',
      'token',
    ),
    orgId: Type.Optional(
      Type.String({
        description: 'Sent as X-Axiom-Org-Id (required with personal access tokens).',
        maxLength: 128,
      }),
    ),
    defaultRegion: Type.Optional(
      Type.String({
        description: 'Region for Datasets that name none.',
        maxLength: LIMITS.region,
        pattern: PATTERNS.region,
      }),
    ),
    tls: Type.Optional(
      Type.Object(
        {
          caSecretRef: Type.Optional(secretKeyRef('CA bundle (PEM) for a private endpoint.', 'ca.crt')),
          insecureSkipVerify: Type.Optional(
            Type.Boolean({
              description: 'Do not verify the server certificate (testing only).',
              default: false,
            }),
          ),
        },
        { description: 'TLS settings for https URLs.' },
      ),
    ),
    requestTimeout: Type.Optional(
      Type.String({
        description: 'Timeout of each management API call (Go duration).',
        default: '10s',
        maxLength: LIMITS.duration,
        pattern: PATTERNS.goDuration,
      }),
    ),
  },
  { description: 'How to reach and authenticate to the management API.' },
);
export type QuarryConnectionSpec = Static<typeof QuarryConnectionSpec>;

export const QuarryConnectionStatus = statusWith(
  {
    serverVersion: Type.Optional(Type.String({ description: 'Version reported by the server.' })),
    lastProbeTime: Type.Optional(dateTime({ description: 'Last authenticated probe (GET /v2/datasets).' })),
  },
  'Observed state of the connection.',
);
export type QuarryConnectionStatus = Static<typeof QuarryConnectionStatus>;

export type QuarryConnectionResource = CustomResource<
  'QuarryConnection',
  QuarryConnectionSpec,
  QuarryConnectionStatus
>;

export const QUARRY_CONNECTION: KindDefinition = {
  names: QUARRY_CONNECTION_NAMES,
  description:
    'Connection to a Quarry management API: URL and credentials. Datasets, Roles and Tokens refer to one by name.',
  spec: QuarryConnectionSpec,
  status: QuarryConnectionStatus,
  specRequired: true,
  printerColumns: [
    { name: 'URL', type: 'string', jsonPath: '.spec.url' },
    CONDITION_COLUMNS.ready,
    CONDITION_COLUMNS.reason,
    CONDITION_COLUMNS.age,
  ],
};
