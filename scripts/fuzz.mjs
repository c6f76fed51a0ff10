#!/usr/bin/env node
// The HTTP fuzzers (issue 17) at any size: `npm run fuzz -- --inputs 1000000` spreads the inputs over
// the four fuzzers (APL text 35%, ingest bodies 35%, /v2 bodies 15%, headers 15%) and runs them in band
// against a standalone server in the jest process, exactly as CI runs its 10,000.
//
// Options: --inputs N (default 10000), --only apl,ingest,v2,headers, --seed S (replays a run: the seed
// is printed at the start). Every fuzzer prints its statuses; the run fails on a 500, a crash, or a
// refused request that changed stored data.
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const SHARES = { apl: 0.35, ingest: 0.35, v2: 0.15, headers: 0.15 };

const args = process.argv.slice(2);
const opt = (name) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const inputs = Number(opt('--inputs') ?? 10_000);
if (!Number.isSafeInteger(inputs) || inputs < 4) {
  process.stderr.write('--inputs must be an integer of at least 4\n');
  process.exit(2);
}
const only = (opt('--only') ?? Object.keys(SHARES).join(',')).split(',');
for (const name of only) {
  if (!(name in SHARES)) {
    process.stderr.write(`unknown fuzzer ${name} (apl, ingest, v2, headers)\n`);
    process.exit(2);
  }
}
const seed = opt('--seed') ?? String(Math.floor(Math.random() * 2 ** 31));
const total = only.reduce((sum, name) => sum + SHARES[name], 0);
const env = { ...process.env, FC_SEED: seed };
for (const name of only) {
  env[`QUARRY_FUZZ_INPUTS_${name.toUpperCase()}`] = String(
    Math.max(1, Math.round((inputs * SHARES[name]) / total)),
  );
}
process.stdout.write(
  `fuzz: ${inputs} inputs (${only.map((n) => `${n} ${env[`QUARRY_FUZZ_INPUTS_${n.toUpperCase()}`]}`).join(', ')}), seed ${seed}\n`,
);
const started = Date.now();
const result = spawnSync(
  process.execPath,
  [
    path.join(root, 'node_modules', 'jest', 'bin', 'jest.js'),
    '--runInBand',
    '--runTestsByPath',
    ...only.map((name) => `test/e2e/fuzz-${name}.test.ts`),
  ],
  { cwd: root, env, stdio: 'inherit' },
);
process.stdout.write(`fuzz: ${((Date.now() - started) / 60_000).toFixed(1)} min, exit ${result.status}\n`);
process.exit(result.status ?? 1);
