/**
 * The `ManagementApi` contract against the real management app (standalone server in this process) through
 * the HTTP adapter: the same cases the in-memory fake passes (k8s.md §9.2), so the fake cannot lie.
 */
import { HttpManagementApi } from '@quarry/operator';
import { managementApiContract } from '@quarry/operator/testing';
import { startTestServer } from '../support/test-server';

managementApiContract({
  name: 'the real management server over HTTP',
  async open() {
    const server = await startTestServer();
    return {
      api: new HttpManagementApi({ baseUrl: server.url, token: server.token, timeoutMs: 10_000 }),
      badCredentials: new HttpManagementApi({ baseUrl: server.url, token: 'xaat-not-a-real-token' }),
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
