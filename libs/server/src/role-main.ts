import { Logger } from '@nestjs/common';
import { isQuarryError } from '@quarry/common';
import { admissionConfigHelp, loadAdmissionLimits } from '@quarry/nest-kit';
import { configHelp, loadConfig, type QuarryConfig, type Role } from './config/config';
import { startQuarry, type RoleModules } from './quarry-app';

/**
 * The whole of a cluster role's `main`: configuration from the environment with this role forced, a
 * clear refusal when the cluster's storage is not configured, start, one line that says where it
 * serves, and a clean shutdown on SIGINT/SIGTERM. `apps/<role>/src/main.ts` only names its role.
 */
export async function runClusterRole(role: Role, modules: RoleModules): Promise<void> {
  if (process.argv.includes('--help')) {
    process.stdout.write(
      `Quarry ${role} node. Environment variables:\n${configHelp()}\n${admissionConfigHelp()}\n`,
    );
    return;
  }
  let config: QuarryConfig;
  try {
    config = loadConfig({ ...process.env, QUARRY_ROLES: role });
    loadAdmissionLimits(process.env); // overload limits: checked here so a bad one exits 2 like the rest
    if (config.shape !== 'cluster') {
      throw new Error(
        `the ${role} node is a role of the cluster shape: set QUARRY_KAFKA_BROKERS, QUARRY_S3_BUCKET and ` +
          'QUARRY_METASTORE_URL (or run the standalone server, apps/standalone, for everything in one process)',
      );
    }
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n\nRun with --help to list every variable.\n`);
    process.exitCode = 2;
    return;
  }
  const quarry = await startQuarry(config, modules);
  const lines = [`Quarry ${role} node ${config.nodeId} is serving on ${quarry.url}`];
  if (quarry.identity.createdApiToken)
    lines.push(`  admin API token:       ${quarry.identity.createdApiToken}`);
  if (quarry.identity.createdPersonalToken)
    lines.push(
      `  personal access token: ${quarry.identity.createdPersonalToken}  (send X-Axiom-Org-Id: ${quarry.identity.orgId})`,
    );
  process.stdout.write(`${lines.join('\n')}\n`);
  closeOnSignals(new Logger(role), () => quarry.close());
}

/**
 * Closes the process's server on SIGINT or SIGTERM (once), then exits 0, or 1 when closing failed. A
 * process spawned by a launcher with an IPC channel (npm run cluster, tests) also closes when the
 * channel does, which the OS does when the launcher dies however it died: no node outlives it.
 */
export function closeOnSignals(logger: Logger, close: () => Promise<void>): void {
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    logger.log(`${signal}: shutting down`);
    close().then(
      () => process.exit(0),
      (err) => {
        logger.error(`shutdown failed: ${(err as Error).stack ?? err}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  if (process.connected) {
    process.on('disconnect', () => shutdown('launcher gone'));
    process.channel?.unref();
  }
}

/** For `main.ts`: runs the role and turns a failed start into one line on stderr and exit code 1. */
export function mainForRole(role: Role, modules: RoleModules): void {
  runClusterRole(role, modules).catch((err) => {
    process.stderr.write(
      `Quarry ${role} node failed to start: ${isQuarryError(err) ? err.message : ((err as Error).stack ?? String(err))}\n`,
    );
    process.exit(1);
  });
}
