import { KubeConfig } from '@kubernetes/client-node';

/** A client-node KubeConfig for a plain-HTTP server on loopback (the fake API server), token auth. */
export function kubeConfigFor(server: string, token = 'fake-token'): KubeConfig {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromOptions({
    clusters: [{ name: 'fake', server, skipTLSVerify: true }],
    users: [{ name: 'fake-user', token }],
    contexts: [{ name: 'fake', cluster: 'fake', user: 'fake-user' }],
    currentContext: 'fake',
  });
  return kubeConfig;
}
