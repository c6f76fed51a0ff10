import * as http from 'node:http';
import * as https from 'node:https';
import type { PoolName } from './routes';

/** Failed probes in a row that take a member out; one successful probe brings it back. */
export const FAILED_PROBES_TO_MARK_OUT = 2;
/** A probe that has not answered by then counts as failed. */
const PROBE_TIMEOUT_MS = 2000;

export interface PoolMember {
  readonly origin: string;
  healthy: boolean;
  /** Forwarded requests not yet finished (the response body may still be streaming). */
  inFlight: number;
  failedProbes: number;
  /** What the last failed probe saw. */
  lastProblem?: string;
}

export interface PoolLogger {
  info(message: string): void;
  warn(message: string): void;
}

/**
 * The members of one role's pool, with their health. Requests go to the healthy member with the fewest
 * requests in flight, ties taken in turn (so sequential requests alternate). Health comes from probing
 * `GET /readyz` every interval (a 200 is healthy), and from forwarded requests: a failed connection takes a
 * member out at once, until its next successful probe.
 */
export class UpstreamPool {
  readonly members: PoolMember[];
  private next = 0;
  private timer?: NodeJS.Timeout;
  private round?: Promise<void>;
  private stopped = false;

  constructor(
    readonly name: PoolName,
    origins: readonly string[],
    private readonly intervalMs: number,
    private readonly log: PoolLogger,
  ) {
    // Members start out of service: the first probe round (awaited by `start`) brings the live ones in.
    this.members = origins.map((origin) => ({
      origin,
      healthy: false,
      inFlight: 0,
      failedProbes: FAILED_PROBES_TO_MARK_OUT,
    }));
  }

  get healthyCount(): number {
    return this.members.filter((m) => m.healthy).length;
  }

  /** The member for the next attempt: healthy, not in `exclude`, fewest requests in flight. */
  pick(exclude: ReadonlySet<PoolMember> = new Set()): PoolMember | undefined {
    const n = this.members.length;
    const start = this.next++ % n;
    let best: PoolMember | undefined;
    for (let i = 0; i < n; i++) {
      const member = this.members[(start + i) % n];
      if (!member.healthy || exclude.has(member)) continue;
      if (best === undefined || member.inFlight < best.inFlight) best = member;
    }
    return best;
  }

  /**
   * A forwarded request could not connect or lost its connection: take the member out until its next good
   * probe. The pool's last healthy member stays in: with one Service URL per pool (Kubernetes) a refused
   * connection says one pod went away, not the Service; the probes decide.
   */
  reportConnectionFailure(member: PoolMember, reason: string): void {
    if (!member.healthy || this.healthyCount <= 1) return;
    member.healthy = false;
    member.failedProbes = FAILED_PROBES_TO_MARK_OUT;
    this.log.warn(`${this.name} node ${member.origin} taken out: ${reason}`);
  }

  /** Probes every member once (so the pool starts with its live members), then every interval. */
  async start(): Promise<void> {
    await this.probeAll();
    for (const member of this.members) {
      if (!member.healthy)
        this.log.warn(`${this.name} node ${member.origin} is not in service yet: ${member.lastProblem}`);
    }
    this.schedule();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.round;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      void this.probeAll().then(() => this.schedule());
    }, this.intervalMs);
  }

  private probeAll(): Promise<void> {
    this.round = Promise.all(this.members.map((m) => this.probe(m))).then(() => undefined);
    return this.round;
  }

  private async probe(member: PoolMember): Promise<void> {
    const problem = await probeReadyz(member.origin);
    if (this.stopped) return;
    if (problem === undefined) {
      member.failedProbes = 0;
      if (!member.healthy) {
        member.healthy = true;
        this.log.info(`${this.name} node ${member.origin} is in service`);
      }
      return;
    }
    member.failedProbes++;
    member.lastProblem = problem;
    if (member.healthy && member.failedProbes >= FAILED_PROBES_TO_MARK_OUT) {
      member.healthy = false;
      this.log.warn(`${this.name} node ${member.origin} taken out: ${problem}`);
    }
  }
}

/** `GET <origin>/readyz` on a fresh connection; answers undefined for a 200, else what went wrong. */
function probeReadyz(origin: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const client = origin.startsWith('https:') ? https : http;
    const req = client.get(
      `${origin}/readyz`,
      { agent: false, timeout: PROBE_TIMEOUT_MS, headers: { connection: 'close' } },
      (res) => {
        res.resume();
        resolve(res.statusCode === 200 ? undefined : `/readyz answered ${res.statusCode}`);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${PROBE_TIMEOUT_MS} ms`)));
    req.on('error', (err) => resolve(`/readyz failed: ${err.message}`));
  });
}
