import { CoordinationV1Api } from '@kubernetes/client-node';
import { kubeApiFailureOf } from './api-errors';
import {
  LeaderElector,
  type ElectionOutcome,
  type LeaderElectorOptions,
  type LeaseApi,
} from './leader-elector';
import { eventually, FakeApiServer, kubeConfigFor } from './testing';

// Loopback HTTP only: fail fast instead of waiting for the repository-wide 120 s timeout.
jest.setTimeout(15_000);

// Short but client-go-shaped timings: lease 1 s > renew deadline 500 ms > 1.2 × retry 100 ms.
const TIMING = { leaseDurationSeconds: 1, renewDeadlineMs: 500, retryPeriodMs: 100, retryJitter: 0 };
const LEASE_MS = 1_000;
const RETRY_MS = 100;
/** Room for HTTP round trips and a loaded 2-core machine. */
const SLACK_MS = 400;

let server: FakeApiServer;
const running: Array<{ cancel: () => void; done: Promise<ElectionOutcome> }> = [];

beforeEach(async () => {
  server = await FakeApiServer.start({ namespaces: ['quarry-system'] });
});
afterEach(async () => {
  for (const candidate of running.splice(0)) {
    candidate.cancel();
    await candidate.done;
  }
  await server.stop();
});

interface Candidate {
  identity: string;
  startedAt?: number;
  stoppedAt?: number;
  leading: boolean;
  cancel: () => void;
  done: Promise<ElectionOutcome>;
}

/** Runs a candidate whose calls carry its own bearer token, so faults can target it. */
function candidate(identity: string, overrides: Partial<LeaderElectorOptions> = {}): Candidate {
  const leases = kubeConfigFor(server.url, identity).makeApiClient(CoordinationV1Api);
  const abort = new AbortController();
  const state: Partial<Candidate> & { leading: boolean } = { identity, leading: false };
  const elector = new LeaderElector({
    leases,
    namespace: 'quarry-system',
    name: 'quarry-operator',
    identity,
    ...TIMING,
    onStartedLeading: () => {
      state.leading = true;
      state.startedAt = Date.now();
    },
    onStoppedLeading: () => {
      state.leading = false;
      state.stoppedAt = Date.now();
    },
    ...overrides,
  });
  const done = elector.run(abort.signal);
  const handle = Object.assign(state, { cancel: () => abort.abort(), done }) as Candidate;
  running.push(handle);
  return handle;
}

const lease = () =>
  server.getObject({
    group: 'coordination.k8s.io',
    plural: 'leases',
    namespace: 'quarry-system',
    name: 'quarry-operator',
  });
const holder = () => (lease()?.spec as { holderIdentity?: string } | undefined)?.holderIdentity;
const renewCount = () =>
  server.requests.filter((r) => r.method === 'PUT' && r.path.endsWith('/leases/quarry-operator')).length;

it('elects exactly one of several racing candidates and keeps it while it renews', async () => {
  const candidates = ['a', 'b', 'c', 'd'].map((id) => candidate(id));
  await eventually(() => expect(candidates.filter((c) => c.leading)).toHaveLength(1));
  const leader = candidates.find((c) => c.leading)!;
  expect(holder()).toBe(leader.identity);

  const renewsBefore = renewCount();
  await eventually(() => expect(renewCount()).toBeGreaterThanOrEqual(renewsBefore + 5)); // several renew periods
  expect(candidates.filter((c) => c.leading).map((c) => c.identity)).toEqual([leader.identity]);
  expect(lease()?.spec).toMatchObject({
    holderIdentity: leader.identity,
    leaseDurationSeconds: 1,
    leaseTransitions: 0,
  });
});

it('hands over within lease duration + 2 retries when the leader stops renewing without releasing', async () => {
  const a = candidate('a', { releaseOnCancel: false });
  await eventually(() => expect(a.leading).toBe(true));
  const b = candidate('b');
  await eventually(() =>
    expect(server.requests.some((r) => r.method === 'GET' && r.path.endsWith('/quarry-operator'))).toBe(true),
  );

  // `a` dies: no more renewals and no release (releaseOnCancel false behaves like a crash for the Lease).
  running.splice(running.indexOf(a), 1);
  const diedAt = Date.now();
  a.cancel();
  await a.done;
  await eventually(() => expect(b.leading).toBe(true), LEASE_MS + 2 * RETRY_MS + SLACK_MS + 1_000);
  expect(b.startedAt! - diedAt).toBeGreaterThanOrEqual(LEASE_MS - RETRY_MS); // never before the lease ran out
  expect(b.startedAt! - diedAt).toBeLessThanOrEqual(LEASE_MS + 2 * RETRY_MS + SLACK_MS);
  expect(lease()?.spec).toMatchObject({ holderIdentity: 'b', leaseTransitions: 1 });
}, 10_000);

it('releases the Lease on cancel so a follower takes over within a retry period', async () => {
  const a = candidate('a');
  await eventually(() => expect(a.leading).toBe(true));
  const b = candidate('b');
  running.splice(running.indexOf(a), 1);
  a.cancel();
  expect(await a.done).toBe('stepped-down');
  const releasedAt = Date.now();
  await eventually(() => expect(b.leading).toBe(true));
  expect(Date.now() - releasedAt).toBeLessThan(LEASE_MS); // no waiting for expiry
});

it('gives up leadership after the renew deadline when renewals fail, before anyone else takes over', async () => {
  const a = candidate('a');
  await eventually(() => expect(a.leading).toBe(true));
  const b = candidate('b');
  server.failNext(Infinity, { code: 500, match: (r) => r.headers.authorization === 'Bearer a' });
  const cutOffAt = Date.now();

  expect(await a.done).toBe('lost');
  expect(a.stoppedAt! - cutOffAt).toBeLessThanOrEqual(TIMING.renewDeadlineMs + RETRY_MS + SLACK_MS);
  await eventually(() => expect(b.leading).toBe(true), 5_000);
  expect(a.stoppedAt!).toBeLessThan(b.startedAt!); // never two leaders at once
});

it('lets only one of two candidates that read the same free Lease win; the other gets a 409', async () => {
  server.createObject({
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name: 'quarry-operator', namespace: 'quarry-system' },
    spec: { holderIdentity: '' },
  });
  // Hold each candidate's first replace until both have sent one, so both carry the same resourceVersion.
  let arrived = 0;
  let bothArrived!: () => void;
  const barrier = new Promise<void>((resolve) => (bothArrived = resolve));
  const failures: number[] = [];
  const racing = (identity: string) => {
    const api = kubeConfigFor(server.url, identity).makeApiClient(CoordinationV1Api);
    const leases: LeaseApi = {
      readNamespacedLease: (params) => api.readNamespacedLease(params),
      createNamespacedLease: (params) => api.createNamespacedLease(params),
      replaceNamespacedLease: async (params) => {
        if (arrived < 2) {
          arrived += 1;
          if (arrived === 2) bothArrived();
          await barrier;
        }
        return api.replaceNamespacedLease(params);
      },
    };
    return candidate(identity, {
      leases,
      onError: (error) => failures.push(kubeApiFailureOf(error)?.code ?? 0),
    });
  };
  const a = racing('a');
  const b = racing('b');
  await eventually(() => expect(failures).toHaveLength(1));
  expect(failures[0]).toBe(409);
  await eventually(() => expect([a.leading, b.leading].filter(Boolean)).toHaveLength(1));
  expect(lease()?.spec).toMatchObject({ leaseTransitions: 1 });
});

it('refuses timings that break client-go invariants', () => {
  const leases = kubeConfigFor(server.url).makeApiClient(CoordinationV1Api);
  const base = { leases, namespace: 'n', name: 'l', identity: 'i', onStartedLeading: () => undefined };
  expect(() => new LeaderElector({ ...base, leaseDurationSeconds: 10, renewDeadlineMs: 10_000 })).toThrow(
    RangeError,
  );
  expect(() => new LeaderElector({ ...base, renewDeadlineMs: 2_000, retryPeriodMs: 2_000 })).toThrow(
    RangeError,
  );
  expect(() => new LeaderElector({ ...base, leaseDurationSeconds: 1.5 })).toThrow(RangeError);
});
