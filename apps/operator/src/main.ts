import * as os from 'node:os';
import { KubeConfig } from '@kubernetes/client-node';
import { ConfigError, loadOperatorConfig } from './config';
import { startOperator, type Log } from './operator';

/** Kubernetes-style log lines (capitalised, past tense, key/value pairs) as JSON, one per line. */
const log: Log = (level, message, fields = {}) =>
  process.stdout.write(
    `${JSON.stringify({ time: new Date().toISOString(), level, msg: message, ...fields })}\n`,
  );

/** The Quarry operator: reconciles Dataset, Role and Token resources through the management API (/v2). */
async function main(): Promise<void> {
  const config = loadOperatorConfig(process.env, os.hostname());
  const kubeConfig = new KubeConfig();
  // KUBECONFIG when set, else ~/.kube/config, else the in-cluster service account.
  kubeConfig.loadFromDefault();
  const operator = await startOperator(config, kubeConfig, log);
  log('info', 'Started the operator', {
    health: operator.health.url,
    namespace: config.namespace,
    identity: config.identity,
  });

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log('info', 'Stopping', { signal });
    void operator.stop().then(() => process.exit(0));
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));

  if ((await operator.finished) === 'lost' && !stopping) {
    // As controller-runtime does: a leader that could not renew exits, and its pod restarts clean.
    log('error', 'Lost leadership; exiting');
    process.exit(1);
  }
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError) process.stderr.write(`${err.message}\n`);
  else process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
