import { ANNOTATIONS } from './constants';
import type { SecretObject, TokenResource, TokenSpec, TokenStatus } from './resources';
import { tokenSpecHash, tokenTiming } from './token-desired';
import { decideRotation, type RotationDecision } from './token-rotation';

const NOW = new Date('2026-06-01T12:00:00Z');
const spec: TokenSpec = { datasetCapabilities: [{ dataset: 'logs', ingest: ['create'] }], ttl: '30h' };

const token = (change: Partial<TokenSpec> = {}, annotations: Record<string, string> = {}): TokenResource => ({
  apiVersion: 'quarry.dev/v1alpha1',
  kind: 'Token',
  metadata: { name: 'ci', namespace: 'shop', annotations },
  spec: { ...spec, ...change },
});

const secret = (
  data: Record<string, string> = { token: 'xaat-1', url: 'u', AXIOM_TOKEN: 'xaat-1', AXIOM_URL: 'u' },
): SecretObject => ({
  metadata: { name: 'ci', namespace: 'shop' },
  data,
});

/** The status of a token minted from `spec` at `minted`, expiring after the 30 h ttl. */
const status = (
  extra: Partial<TokenStatus> = {},
  minted = new Date('2026-06-01T00:00:00Z'),
): TokenStatus => ({
  tokenId: 'tok_1',
  expiresAt: new Date(minted.getTime() + 30 * 3_600_000).toISOString(),
  specHash: tokenSpecHash(token()),
  rotation: { lastHandledRequest: 'r1' },
  ...extra,
});

describe('decideRotation (k8s.md §3.4, triggers in order)', () => {
  const cases: [
    string,
    TokenResource,
    TokenStatus | undefined,
    SecretObject | undefined,
    Date,
    RotationDecision,
  ][] = [
    ['no token yet → create', token(), undefined, undefined, NOW, { action: 'create', reason: 'Created' }],
    [
      'status without tokenId → create',
      token(),
      { specHash: 'x' },
      secret(),
      NOW,
      { action: 'create', reason: 'Created' },
    ],
    ['in sync → keep', token(), status(), secret(), NOW, { action: 'keep' }],
    [
      'Secret missing → SecretLost',
      token(),
      status(),
      undefined,
      NOW,
      { action: 'rotate', reason: 'SecretLost' },
    ],
    [
      'Secret without token key → SecretLost',
      token(),
      status(),
      secret({ url: 'u' }),
      NOW,
      { action: 'rotate', reason: 'SecretLost' },
    ],
    [
      'description changed → SpecChanged',
      token({ description: 'new' }),
      status(),
      secret(),
      NOW,
      { action: 'rotate', reason: 'SpecChanged' },
    ],
    [
      'capabilities changed → SpecChanged',
      token({ datasetCapabilities: [{ dataset: 'logs', query: ['read'] }] }),
      status(),
      secret(),
      NOW,
      { action: 'rotate', reason: 'SpecChanged' },
    ],
    [
      'ttl changed alone → keep (applies at the next rotation)',
      token({ ttl: '48h' }),
      status(),
      secret(),
      NOW,
      { action: 'keep' },
    ],
    [
      'new rotate annotation → Requested',
      token({}, { [ANNOTATIONS.rotate]: 'r2' }),
      status(),
      secret(),
      NOW,
      { action: 'rotate', reason: 'Requested' },
    ],
    [
      'rotate annotation already handled → keep',
      token({}, { [ANNOTATIONS.rotate]: 'r1' }),
      status(),
      secret(),
      NOW,
      { action: 'keep' },
    ],
    ['rotate annotation removed → keep', token({}, {}), status(), secret(), NOW, { action: 'keep' }],
    [
      'ttl: before expiresAt − renewBefore → keep',
      token(),
      status(),
      secret(),
      new Date('2026-06-01T19:59:59Z'),
      { action: 'keep' },
    ],
    [
      'ttl: at expiresAt − renewBefore (ttl/3) → Expiring',
      token(),
      status(),
      secret(),
      new Date('2026-06-01T20:00:00Z'),
      { action: 'rotate', reason: 'Expiring' },
    ],
    [
      'ttl: explicit renewBefore',
      token({ renewBefore: '1h' }),
      status(),
      secret(),
      new Date('2026-06-02T05:00:00Z'),
      { action: 'rotate', reason: 'Expiring' },
    ],
    [
      'no ttl: never Expiring',
      token({ ttl: undefined }),
      status({ specHash: tokenSpecHash(token({ ttl: undefined })) }),
      secret(),
      new Date('2030-01-01T00:00:00Z'),
      { action: 'keep' },
    ],
    [
      'SecretLost wins over SpecChanged',
      token({ description: 'new' }),
      status(),
      undefined,
      NOW,
      { action: 'rotate', reason: 'SecretLost' },
    ],
    [
      'SpecChanged wins over Requested',
      token({ description: 'new' }, { [ANNOTATIONS.rotate]: 'r2' }),
      status(),
      secret(),
      NOW,
      { action: 'rotate', reason: 'SpecChanged' },
    ],
    [
      'Requested wins over Expiring',
      token({}, { [ANNOTATIONS.rotate]: 'r2' }),
      status(),
      secret(),
      new Date('2026-06-03T00:00:00Z'),
      { action: 'rotate', reason: 'Requested' },
    ],
  ];

  it.each(cases)('%s', (_, cr, current, stored, now, expected) => {
    expect(decideRotation(cr, current, stored, tokenTiming(cr).timing, now)).toEqual(expected);
  });
});

describe('tokenTiming', () => {
  it.each<[Partial<TokenSpec>, string | undefined]>([
    [{ ttl: '720h' }, undefined],
    [{ ttl: 'forever' }, 'spec.ttl "forever" is not a duration'],
    [{ ttl: '1h', renewBefore: '2h' }, 'must be shorter than spec.ttl'],
    [{ rotationGracePeriod: '15' }, 'spec.rotationGracePeriod "15" is not a duration'],
  ])('%j → %s', (change, problem) => {
    const { problems } = tokenTiming(token(change));
    if (problem === undefined) expect(problems).toEqual([]);
    else expect(problems.join('; ')).toContain(problem);
  });

  it('defaults renewBefore to a third of ttl and the grace period to 10 minutes', () => {
    expect(tokenTiming(token({ ttl: '30h' })).timing).toEqual({
      ttlMs: 108_000_000,
      renewBeforeMs: 36_000_000,
      graceMs: 600_000,
    });
  });
});
