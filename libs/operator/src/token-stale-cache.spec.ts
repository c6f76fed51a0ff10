/**
 * A Token rotates once per trigger even when the informer cache lags behind the operator's own writes
 * (the flake of test/operator/operator-process.test.ts under CPU load): after a reconcile minted, the
 * next reconcile may still see the CR from before that mint — with the `create-pending` mark and the old
 * id — and must neither sweep the token just minted nor write the old id back into the Secret.
 */
import { ManualClock } from './clock';
import { ConnectionResolver } from './connection-resolver';
import { ANNOTATIONS, API_VERSION } from './constants';
import type { ReconcileResult } from './reconcile-result';
import { tokenReconciler } from './token-reconciler';
import { InstrumentedManagementApi } from './testing/instrumented-management-api';
import { InMemoryKubeObjects } from './testing/kube-objects.fake';
import { InMemoryManagementApi } from './testing/management-api.fake';

const NS = 'shop';
const NAME = 'ci';

function setup() {
  const clock = new ManualClock('2026-11-26T06:00:00Z');
  const kube = new InMemoryKubeObjects();
  kube.create('QuarryConnection', {
    apiVersion: API_VERSION,
    kind: 'QuarryConnection',
    metadata: { name: 'default' },
    spec: { url: 'http://quarry.test', credentialsSecretRef: { name: 'admin' } },
  });
  kube.putSecret({ metadata: { namespace: 'ops', name: 'admin' }, data: { token: 'xaat-admin' } });
  const api = new InMemoryManagementApi({ clock });
  const calls = new InstrumentedManagementApi(api);
  const reconciler = tokenReconciler({
    kube,
    connections: new ConnectionResolver(kube, 'ops'),
    apiFor: () => calls.api,
    clock,
    resyncMs: 3_600_000,
    random: () => 0.5,
  });
  kube.create('Token', {
    apiVersion: API_VERSION,
    kind: 'Token',
    metadata: { name: NAME, namespace: NS },
    spec: { datasetCapabilities: [{ dataset: 'web-logs', ingest: ['create'] }] },
  });

  /** The informer cache freezes as the next token is minted: it keeps the `create-pending` mark. */
  const freezeCacheWhenMinting = () => {
    const { regenerateToken, createToken } = api;
    api.regenerateToken = (...args) => {
      kube.freezeCache();
      api.regenerateToken = regenerateToken;
      return regenerateToken.apply(api, args);
    };
    api.createToken = (...args) => {
      kube.freezeCache();
      api.createToken = createToken;
      return createToken.apply(api, args);
    };
  };
  const reconcile = (): Promise<ReconcileResult> => reconciler.reconcile({ namespace: NS, name: NAME });
  const secret = () => kube.peekSecret(NS, NAME);
  const cr = () => kube.peek('Token', NS, NAME)!;
  /** Reconciles as the queue would: a few passes on the lagging cache, then a few once it caught up. */
  const settle = async (stalePasses = 2) => {
    for (let i = 0; i < stalePasses; i++) await reconcile();
    kube.catchUpCache();
    for (let i = 0; i < 2; i++) await reconcile();
  };
  return { kube, api, calls, clock, reconcile, secret, cr, settle, freezeCacheWhenMinting };
}

describe('Token rotation with an informer cache behind the operator’s own writes', () => {
  it('mints once when the Secret is deleted, and neither sweeps the new token nor writes the old id back', async () => {
    const w = setup();
    await w.reconcile();
    const first = w.secret()!;
    const firstId = w.cr().status!.tokenId!;

    await w.kube.deleteSecret(NS, NAME);
    w.calls.reset();
    w.freezeCacheWhenMinting();
    await w.reconcile();
    const second = w.secret()!;
    expect(second.data.token).not.toBe(first.data.token);

    await w.settle();
    expect(w.calls.writes()).toEqual(['regenerateToken']);
    expect(w.secret()!.data.token).toBe(second.data.token);
    expect(w.api.isSecretValid(second.data.token)).toBe(true);
    expect(w.api.isSecretValid(first.data.token)).toBe(true); // in grace
    const status = w.cr().status!;
    expect(status.rotation).toMatchObject({ reason: 'SecretLost', previousTokenId: firstId });
    expect(w.secret()!.metadata.annotations?.[ANNOTATIONS.tokenId]).toBe(status.tokenId);
  });

  it('handles quarry.dev/rotate once, as Requested, while the cache still shows the mint in progress', async () => {
    const w = setup();
    await w.reconcile();
    await w.kube.deleteSecret(NS, NAME);
    await w.reconcile();
    await w.reconcile();
    const second = w.secret()!;
    const secondId = w.cr().status!.tokenId!;

    w.kube.edit('Token', NS, NAME, (t) => {
      t.metadata.annotations = { ...t.metadata.annotations, [ANNOTATIONS.rotate]: 'now' };
    });
    w.calls.reset();
    w.freezeCacheWhenMinting();
    await w.reconcile();
    const third = w.secret()!;
    expect(third.data.token).not.toBe(second.data.token);

    await w.settle();
    expect(w.calls.writes()).toEqual(['regenerateToken']);
    expect(w.secret()!.data.token).toBe(third.data.token);
    expect(w.api.isSecretValid(third.data.token)).toBe(true);
    expect(w.cr().status!.rotation).toMatchObject({
      reason: 'Requested',
      lastHandledRequest: 'now',
      previousTokenId: secondId,
    });
  });

  it('acts on nothing while the cache still shows the CR from before its own writes', async () => {
    const w = setup();
    await w.reconcile();
    await w.kube.deleteSecret(NS, NAME);
    w.kube.freezeCache(); // the watch events of the next reconcile's writes do not arrive
    await w.reconcile();
    const minted = w.secret()!;
    const kubeWrites = w.kube.writes.length;
    w.calls.reset();

    const stale = await w.reconcile();
    expect(w.calls.writes()).toEqual([]);
    expect(w.kube.writes.length).toBe(kubeWrites);
    expect(stale).toMatchObject({ requeue: 'after' });
    expect(w.secret()).toEqual(minted);

    await w.settle(0);
    expect(w.calls.writes()).toEqual([]);
    expect(w.secret()!.metadata.annotations?.[ANNOTATIONS.tokenId]).toBe(w.cr().status!.tokenId);
  });

  it('sweeps after an interrupted mint only once the cache shows the CR as it is', async () => {
    const w = setup();
    await w.reconcile();
    const held = w.cr().status!.tokenId!;
    // Another operator (before a leader handover) wrote the mark; this one's cache has not seen the mint
    // that followed, so the token it minted is referenced only by the live CR.
    await w.kube.deleteSecret(NS, NAME);
    w.freezeCacheWhenMinting();
    const other = tokenReconcilerLike(w);
    await other();
    const minted = w.cr().status!.tokenId!;
    expect(minted).not.toBe(held);
    w.calls.reset();

    await w.reconcile(); // a fresh reconciler that never wrote this CR, on the stale cache
    expect(w.calls.methods()).not.toContain('deleteToken');
    expect(w.api.isSecretValid(w.secret()!.data.token)).toBe(true);
  });
});

/** A second operator process: its own reconciler (no memory of what the first one wrote) on the same world. */
function tokenReconcilerLike(w: ReturnType<typeof setup>) {
  const reconciler = tokenReconciler({
    kube: w.kube,
    connections: new ConnectionResolver(w.kube, 'ops'),
    apiFor: () => w.calls.api,
    clock: w.clock,
    resyncMs: 3_600_000,
  });
  return () => reconciler.reconcile({ namespace: NS, name: NAME });
}
