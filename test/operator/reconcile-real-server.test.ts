/**
 * The reconcile suite of the operator (the same cases `libs/operator/src/reconcile.spec.ts` runs on the
 * in-memory fake) against the real management app over HTTP (k8s.md §9.2). Kubernetes stays in memory;
 * the management side is the standalone server started in this process.
 */
import { HttpManagementApi } from '@quarry/operator';
import { reconcileSuite } from '@quarry/operator/testing';
import { startTestServer } from '../support/test-server';

reconcileSuite({
  name: 'the real management server over HTTP',
  async open() {
    const server = await startTestServer();
    return {
      api: new HttpManagementApi({ baseUrl: server.url, token: server.token, timeoutMs: 10_000 }),
      url: server.url,
      token: server.token,
      userId: server.userId,
      async secretWorks(secret: string) {
        const response = await fetch(`${server.url}/v2/datasets`, {
          headers: { Authorization: `Bearer ${secret}` },
        });
        await response.arrayBuffer();
        return response.status !== 401;
      },
      close: () => server.close(),
    };
  },
});
