import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { PoolName } from './routes';
import type { UpstreamPool } from './upstream-pool';

/** Prometheus metrics of one gateway, in a registry of its own (tests run several gateways in a process). */
export class GatewayMetrics {
  readonly registry = new Registry();

  readonly requests = new Counter({
    name: 'quarry_gateway_requests_total',
    help: 'Forwarded requests by pool and the status class answered (the upstream answer, or the gateway error).',
    labelNames: ['pool', 'status'],
    registers: [this.registry],
  });
  readonly upstreamDuration = new Histogram({
    name: 'quarry_gateway_upstream_duration_seconds',
    help: 'Time from sending a request to an upstream to its response headers, by pool.',
    labelNames: ['pool'],
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
    registers: [this.registry],
  });
  readonly retries = new Counter({
    name: 'quarry_gateway_retries_total',
    help: 'Attempts sent again to another member, by pool and the failure that caused it (connect or lost).',
    labelNames: ['pool', 'reason'],
    registers: [this.registry],
  });
  readonly upstreamFailures = new Counter({
    name: 'quarry_gateway_upstream_failures_total',
    help: 'Forwarded attempts that got no answer, by pool and kind (connect, lost, timeout, client, other).',
    labelNames: ['pool', 'kind'],
    registers: [this.registry],
  });

  constructor(pools: Record<PoolName, UpstreamPool>) {
    collectDefaultMetrics({ register: this.registry, prefix: 'quarry_gateway_' });
    const perPool = (name: string, help: string, read: (pool: UpstreamPool) => number) =>
      new Gauge({
        name,
        help,
        labelNames: ['pool'],
        registers: [this.registry],
        collect() {
          for (const pool of Object.values(pools)) this.set({ pool: pool.name }, read(pool));
        },
      });
    perPool(
      'quarry_gateway_healthy_members',
      'Members of the pool currently in service.',
      (p) => p.healthyCount,
    );
    perPool('quarry_gateway_members', 'Configured members of the pool.', (p) => p.members.length);
    perPool(
      'quarry_gateway_in_flight_requests',
      'Requests forwarded to the pool and not yet finished.',
      (p) => p.members.reduce((sum, m) => sum + m.inFlight, 0),
    );
  }
}

/** `2xx`, `4xx`, ... */
export function statusClass(status: number): string {
  return `${Math.floor(status / 100)}xx`;
}
