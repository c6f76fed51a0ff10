/**
 * `Token`: an API token of `/v2/tokens` plus the Secret that carries it (k8s.md §3.4). The API has no
 * update call, so every change is a rotation; the spec says what the token grants and when it rotates,
 * the status says which token is current and why it was last rotated.
 */
import { Type, type Static } from '@sinclair/typebox';
import type { KindNames } from './group';
import { ConnectionRef, capabilityProperties, deletionPolicy, statusWith } from './fragments';
import { CONDITION_COLUMNS, type CustomResource, type KindDefinition } from './kind';
import { LIMITS, PATTERNS, dateTime, stringEnum, stringMap, validations } from './openapi';
import { TOKEN_SECRET } from './well-known';

export const TOKEN_NAMES = {
  kind: 'Token',
  listKind: 'TokenList',
  plural: 'tokens',
  singular: 'token',
  shortNames: ['qtoken'],
  scope: 'Namespaced',
} as const satisfies KindNames;

export const ROTATION_REASONS = [
  'Created',
  'SpecChanged',
  'Requested',
  'Expiring',
  'SecretLost',
  'ExternalDeleted',
] as const;
export type RotationReason = (typeof ROTATION_REASONS)[number];

function duration(description: string, extra: Record<string, unknown> = {}) {
  return Type.String({ description, maxLength: LIMITS.duration, pattern: PATTERNS.goDuration, ...extra });
}

/** CEL: none of `keys` may appear in the map `field` (the operator owns them). */
function reserved(keys: readonly string[], field: string) {
  return validations({
    rule: keys.map((key) => `!('${key}' in self)`).join(' && '),
    message: `secretTemplate.${field} may not set ${keys.join(' or ')}: the operator sets them`,
  });
}

export const SecretTemplate = Type.Object(
  {
    labels: Type.Optional(
      stringMap(
        {
          description: 'Labels copied onto the Secret.',
          maxProperties: 32,
          ...reserved([TOKEN_SECRET.labels.token, TOKEN_SECRET.labels.managedBy], 'labels'),
        },
        { maxLength: 63 },
      ),
    ),
    annotations: Type.Optional(
      stringMap(
        {
          description: 'Annotations copied onto the Secret.',
          maxProperties: 32,
          ...reserved([TOKEN_SECRET.annotations.tokenId, TOKEN_SECRET.annotations.expiresAt], 'annotations'),
        },
        { maxLength: 4096 },
      ),
    ),
  },
  { description: 'Labels and annotations for the Secret (as cert-manager secretTemplate).' },
);

const { orgCapabilities, datasetCapabilities, viewCapabilities } = capabilityProperties();

export const TokenSpec = Type.Object(
  {
    name: Type.Optional(
      Type.String({
        description: 'Token display name; defaults to metadata.name.',
        minLength: 1,
        maxLength: 128,
      }),
    ),
    description: Type.Optional(
      Type.String({ description: 'Token description.', default: '', maxLength: LIMITS.description }),
    ),
    orgCapabilities,
    datasetCapabilities,
    viewCapabilities,
    expiresAt: Type.Optional(
      dateTime({ description: 'Fixed expiry (RFC 3339); never rotated automatically. Excludes ttl.' }),
    ),
    ttl: Type.Optional(
      duration(
        'Lifetime of each minted token (Go duration, at least 1h); the token is rotated before it ends.',
        {
          ...validations({ rule: "duration(self) >= duration('1h')", message: 'ttl must be at least 1h' }),
        },
      ),
    ),
    renewBefore: Type.Optional(
      duration('How long before expiry a ttl token is rotated; defaults to a third of ttl. Needs ttl.'),
    ),
    rotationGracePeriod: Type.Optional(
      duration('How long the previous token stays valid after a rotation.', { default: '10m' }),
    ),
    secretName: Type.Optional(
      Type.String({
        description: 'Secret (in this namespace) that receives the token; defaults to metadata.name.',
        maxLength: LIMITS.dnsSubdomain,
        pattern: PATTERNS.dnsSubdomain,
      }),
    ),
    secretTemplate: Type.Optional(SecretTemplate),
    deletionPolicy: Type.Optional(
      deletionPolicy(
        'Delete',
        'Delete (default) deletes the token and its Secret; Orphan keeps both (the Secret loses its owner).',
      ),
    ),
    connectionRef: Type.Optional(ConnectionRef),
  },
  {
    description: 'Desired token: what it grants and how it rotates.',
    ...validations(
      {
        rule: 'has(self.orgCapabilities) || (has(self.datasetCapabilities) && size(self.datasetCapabilities) > 0) || (has(self.viewCapabilities) && size(self.viewCapabilities) > 0)',
        message: 'a token must grant at least one capability',
      },
      {
        rule: '!(has(self.expiresAt) && has(self.ttl))',
        message: 'expiresAt and ttl are mutually exclusive',
        fieldPath: '.ttl',
      },
      {
        rule: '!has(self.renewBefore) || has(self.ttl)',
        message: 'renewBefore needs ttl',
        fieldPath: '.renewBefore',
      },
      {
        rule: '!has(self.renewBefore) || !has(self.ttl) || duration(self.renewBefore) < duration(self.ttl)',
        message: 'renewBefore must be shorter than ttl',
        fieldPath: '.renewBefore',
      },
    ),
  },
);
export type TokenSpec = Static<typeof TokenSpec>;

export const TokenRotation = Type.Object(
  {
    lastHandledRequest: Type.Optional(
      Type.String({ description: 'Value of the quarry.dev/rotate annotation last acted on.' }),
    ),
    lastRotationTime: Type.Optional(dateTime()),
    reason: Type.Optional(stringEnum(ROTATION_REASONS, { description: 'Why the current token was minted.' })),
    previousTokenId: Type.Optional(Type.String({ description: 'Token replaced by the last rotation.' })),
    previousExpiresAt: Type.Optional(dateTime({ description: 'When the previous token stops working.' })),
  },
  { description: 'The last rotation.' },
);
export type TokenRotation = Static<typeof TokenRotation>;

export const TokenStatus = statusWith(
  {
    tokenId: Type.Optional(Type.String({ description: 'Id of the current token in the management API.' })),
    expiresAt: Type.Optional(dateTime({ description: 'When the current token expires; absent: never.' })),
    secretName: Type.Optional(Type.String({ description: 'Secret holding the current token.' })),
    specHash: Type.Optional(
      Type.String({
        description: 'Hash of the name, description and capabilities the token was minted with.',
      }),
    ),
    rotation: Type.Optional(TokenRotation),
  },
  'Observed state of the token.',
);
export type TokenStatus = Static<typeof TokenStatus>;

export type TokenResource = CustomResource<'Token', TokenSpec, TokenStatus>;

export const TOKEN: KindDefinition = {
  names: TOKEN_NAMES,
  description:
    'An API token of the Quarry management API, written to a Secret (keys token, url, AXIOM_TOKEN, AXIOM_URL) and rotated on change, request, expiry or loss.',
  spec: TokenSpec,
  status: TokenStatus,
  specRequired: true,
  printerColumns: [
    { name: 'Secret', type: 'string', jsonPath: '.status.secretName' },
    { name: 'Expires', type: 'date', jsonPath: '.status.expiresAt' },
    CONDITION_COLUMNS.ready,
    CONDITION_COLUMNS.synced,
    CONDITION_COLUMNS.reason,
    CONDITION_COLUMNS.deletion,
    CONDITION_COLUMNS.age,
  ],
};
