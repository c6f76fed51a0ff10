import { Registry, Counter } from 'prom-client';
import { startHealthServer } from './health-server';

describe('health server', () => {
  it('answers /healthz, /readyz by the readiness check, and /metrics from the registry', async () => {
    const registry = new Registry();
    new Counter({ name: 'quarry_operator_test_total', help: 'test', registers: [registry] }).inc(3);
    let ready = false;
    const server = await startHealthServer({ host: '127.0.0.1', port: 0, ready: () => ready, registry });
    try {
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      expect((await fetch(`${server.url}/readyz`)).status).toBe(503);
      ready = true;
      expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
      const metrics = await fetch(`${server.url}/metrics`);
      expect(await metrics.text()).toContain('quarry_operator_test_total 3');
      expect((await fetch(`${server.url}/nope`)).status).toBe(404);
    } finally {
      await server.close();
    }
  });
});
