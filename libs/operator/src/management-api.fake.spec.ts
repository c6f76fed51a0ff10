import { ManagementError } from './management-api.port';
import { InMemoryManagementApi } from './testing/management-api.fake';
import { managementApiContract } from './testing/management-api.contract';

managementApiContract({
  name: 'the in-memory fake',
  async open() {
    const api = new InMemoryManagementApi({ users: ['user_1'] });
    const refuse = async () => {
      throw new ManagementError('Unauthorized', 'GET /v2: failed with 401: invalid token', 401);
    };
    const badCredentials = new Proxy(api, { get: () => refuse });
    return {
      api,
      badCredentials,
      userId: 'user_1',
      secretWorks: async (secret: string) => api.isSecretValid(secret),
      close: async () => undefined,
    };
  },
});
