import { InMemoryManagementApi } from './testing/management-api.fake';
import { reconcileSuite } from './testing/reconcile.suite';

const URL = 'http://quarry.test';
const ADMIN = 'xaat-admin';

reconcileSuite({
  name: 'the in-memory management API',
  async open(clock) {
    const api = new InMemoryManagementApi({ clock, users: ['user_1'] });
    return {
      api,
      url: URL,
      token: ADMIN,
      userId: 'user_1',
      secretWorks: async (secret) => api.isSecretValid(secret),
      close: async () => undefined,
    };
  },
});
