#!/usr/bin/env node
// Copies the canonical CRDs (crds/*.yaml at the repository root, generated from libs/k8s-api) into the
// operator chart's crds/, which Helm installs on first install. Files the root no longer has are removed.
//   node charts/sync-crds.mjs          copy
//   node charts/sync-crds.mjs --check  exit 1 and list the differences instead (test/charts checks the same)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const source = path.join(root, 'crds');
const target = path.join(root, 'charts', 'quarry-operator', 'crds');
const check = process.argv.includes('--check');

const yamlFiles = (dir) =>
  fs.existsSync(dir)
    ? fs
        .readdirSync(dir, { withFileTypes: true })
        .filter((e) => e.isFile() && e.name.endsWith('.yaml'))
        .map((e) => e.name)
        .sort()
    : [];

const wanted = yamlFiles(source);
if (wanted.length === 0) {
  console.error(`no CRDs in ${path.relative(root, source)}/: nothing to copy`);
  process.exit(1);
}
const problems = [];
fs.mkdirSync(target, { recursive: true });
for (const name of wanted) {
  const text = fs.readFileSync(path.join(source, name));
  const copy = path.join(target, name);
  if (fs.existsSync(copy) && fs.readFileSync(copy).equals(text)) continue;
  problems.push(`${name}: ${fs.existsSync(copy) ? 'differs' : 'missing'} in the chart`);
  if (!check) fs.writeFileSync(copy, text);
}
for (const name of yamlFiles(target)) {
  if (wanted.includes(name)) continue;
  problems.push(`${name}: in the chart but not in crds/`);
  if (!check) fs.rmSync(path.join(target, name));
}
if (check && problems.length > 0) {
  console.error(
    `charts/quarry-operator/crds/ is out of date (run node charts/sync-crds.mjs):\n  ${problems.join('\n  ')}`,
  );
  process.exit(1);
}
if (!check)
  console.log(problems.length === 0 ? 'CRDs already in sync' : `synced:\n  ${problems.join('\n  ')}`);
