import { Logger } from '@nestjs/common';
import { isQuarryError } from '@quarry/common';
import { admissionConfigHelp, loadAdmissionLimits } from '@quarry/nest-kit';
import { INGEST_ROLE } from '@quarry/ingest-node';
import { MANAGEMENT_ROLE } from '@quarry/management-node';
import { QUERY_ROLE } from '@quarry/query-node';
import { closeOnSignals, configHelp, loadConfig, startQuarry, type QuarryConfig } from '@quarry/server';

/** The standalone server: one process, every role, embedded storage under QUARRY_DATA_DIR. */
async function main(): Promise<void> {
  if (process.argv.includes('--help')) {
    process.stdout.write(
      `Quarry standalone server. Environment variables:\n${configHelp()}\n${admissionConfigHelp()}\n`,
    );
    return;
  }
  let config: QuarryConfig;
  try {
    config = loadConfig(process.env);
    loadAdmissionLimits(process.env); // overload limits: checked here so a bad one exits 2 like the rest
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n\nRun with --help to list every variable.\n`);
    process.exitCode = 2;
    return;
  }
  const quarry = await startQuarry(config, {
    ingest: INGEST_ROLE,
    query: QUERY_ROLE,
    management: MANAGEMENT_ROLE,
  });
  const { identity } = quarry;
  const lines = [
    '',
    `Quarry is serving on http://localhost:${new URL(quarry.url).port} (data in ${config.dataDir})`,
    `  organization id:       ${identity.orgId}`,
    `  web console:           http://localhost:${new URL(quarry.url).port}/  (sign in with a token below)`,
  ];
  if (identity.createdApiToken) lines.push(`  admin API token:       ${identity.createdApiToken}`);
  if (identity.createdPersonalToken)
    lines.push(
      `  personal access token: ${identity.createdPersonalToken}  (send X-Axiom-Org-Id: ${identity.orgId})`,
    );
  if (!identity.createdApiToken && !config.bootstrapToken) {
    lines.push(
      '  tokens were printed at first start; set QUARRY_BOOTSTRAP_TOKEN=xaat-... to register a known one',
    );
  } else if (config.bootstrapToken) {
    lines.push('  admin API token:       the value of QUARRY_BOOTSTRAP_TOKEN');
  }
  lines.push(
    '',
    `  try: curl -X POST http://localhost:${new URL(quarry.url).port}/v2/datasets -H "Authorization: Bearer <token>" -H "Content-Type: application/json" -d '{"name":"logs"}'`,
    '',
  );
  process.stdout.write(lines.join('\n') + '\n');

  closeOnSignals(new Logger('standalone'), () => quarry.close());
}

main().catch((err) => {
  process.stderr.write(
    `Quarry failed to start: ${isQuarryError(err) ? err.message : ((err as Error).stack ?? String(err))}\n`,
  );
  process.exit(1);
});
