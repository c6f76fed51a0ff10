/**
 * Writes `crds/<plural>.quarry.dev.yaml` at the repository root from the TypeBox schemas, and removes
 * stale generated files. Run by `npm run sync` after `tsc -b libs/k8s-api`:
 *   node libs/k8s-api/dist/sync-crds.js [--check]
 * `--check` writes nothing and exits 1 when a file differs (what CI and the drift test enforce).
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { GENERATED_HEADER, crdFiles } from './crd-files';

/** `libs/k8s-api/{src,dist}/` → repository root. */
export const REPOSITORY_ROOT = resolve(__dirname, '..', '..', '..');
export const CRDS_DIR = join(REPOSITORY_ROOT, 'crds');

export interface SyncReport {
  readonly written: string[];
  readonly removed: string[];
  readonly unchanged: string[];
}

/** Brings `dir` in line with the generated CRDs; with `dryRun` only reports what would change. */
export function syncCrds(dir: string, dryRun: boolean): SyncReport {
  const report: SyncReport = { written: [], removed: [], unchanged: [] };
  if (!dryRun) mkdirSync(dir, { recursive: true });
  const files = crdFiles();
  for (const file of files) {
    const path = join(dir, file.fileName);
    const current = existsSync(path) ? readFileSync(path, 'utf8') : undefined;
    if (current === file.text) {
      report.unchanged.push(file.fileName);
      continue;
    }
    if (!dryRun) writeFileSync(path, file.text);
    report.written.push(file.fileName);
  }
  // Only files this generator wrote (they carry its header) are removed, never examples or others.
  const expected = new Set(files.map((file) => file.fileName));
  const existing = existsSync(dir)
    ? readdirSync(dir).filter((name) => name.endsWith('.quarry.dev.yaml'))
    : [];
  for (const name of existing) {
    if (expected.has(name)) continue;
    if (!readFileSync(join(dir, name), 'utf8').startsWith(GENERATED_HEADER)) continue;
    if (!dryRun) rmSync(join(dir, name));
    report.removed.push(name);
  }
  return report;
}

function main(argv: string[]): number {
  const check = argv.includes('--check');
  const report = syncCrds(CRDS_DIR, check);
  const changed = [...report.written, ...report.removed];
  if (check) {
    if (changed.length === 0) return 0;
    console.error(`crds/ is out of date (${changed.join(', ')}): run \`npm run sync\``);
    return 1;
  }
  for (const name of report.written) console.log(`wrote crds/${name}`);
  for (const name of report.removed) console.log(`removed crds/${name}`);
  if (changed.length === 0) console.log(`crds/ up to date (${report.unchanged.length} files)`);
  return 0;
}

if (require.main === module) process.exitCode = main(process.argv.slice(2));
