import { isQuarryError } from '@quarry/common';
import { gatewayConfigHelp, loadGatewayConfig, startGateway, type GatewayConfig } from '@quarry/gateway';

/** The gateway: the cluster's one public URL, forwarding each request to the role that serves it. */
async function main(): Promise<void> {
  if (process.argv.includes('--help')) {
    process.stdout.write(`Quarry gateway. Environment variables:\n${gatewayConfigHelp()}\n`);
    return;
  }
  let config: GatewayConfig;
  try {
    config = loadGatewayConfig(process.env);
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n\nRun with --help to list every variable.\n`);
    process.exitCode = 2;
    return;
  }
  const gateway = await startGateway(config);
  process.stdout.write(
    [
      '',
      `Quarry gateway is serving on http://localhost:${new URL(gateway.url).port}`,
      ...(['ingest', 'query', 'management'] as const).map(
        (pool) => `  ${`${pool}:`.padEnd(12)} ${config.upstreams[pool].join(', ')}`,
      ),
      '',
    ].join('\n') + '\n',
  );

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    process.stdout.write(`${signal}: shutting down\n`);
    gateway.close().then(
      () => process.exit(0),
      (err) => {
        process.stderr.write(`shutdown failed: ${(err as Error).stack ?? err}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  // Spawned by a launcher with an IPC channel (npm run cluster, tests): leave with it, however it died.
  if (process.connected) {
    process.on('disconnect', () => shutdown('launcher gone'));
    process.channel?.unref();
  }
}

main().catch((err) => {
  process.stderr.write(
    `Quarry gateway failed to start: ${isQuarryError(err) ? err.message : ((err as Error).stack ?? String(err))}\n`,
  );
  process.exit(1);
});
