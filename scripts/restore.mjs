// Restores a backup made by `npm run backup` into a data directory, for a standalone server to start on
// (docs/operations.md). Run it with the server stopped:
//
//   npm run restore -- /backups/quarry-2026-11-26 /var/lib/quarry
//
// The data directory must not exist or be empty (move the old one aside first). The copy is made in a
// temporary directory next to it and renamed into place at the end, so an interrupted restore leaves
// nothing half-restored under the target name.
import * as fs from 'node:fs';
import * as path from 'node:path';

const MANIFEST = 'quarry-backup.json';
const PARTS = ['meta', 'log', 'metrics-log', 'objects'];

const [backup, dataDir] = process.argv.slice(2);
if (!backup || !dataDir) {
  process.stderr.write('usage: npm run restore -- <backup dir> <data dir>\n');
  process.exit(2);
}
const fail = (message) => {
  process.stderr.write(`restore failed: ${message}\n`);
  process.exit(1);
};

let manifest;
try {
  manifest = JSON.parse(fs.readFileSync(path.join(backup, MANIFEST), 'utf8'));
} catch (err) {
  fail(`${backup} has no readable ${MANIFEST} (an incomplete backup, or not a backup): ${err.message}`);
}
if (manifest.kind !== 'quarry-standalone-backup' || manifest.backupVersion !== 1)
  fail(`${backup} is a backup of an unknown kind or version (${manifest.kind} v${manifest.backupVersion})`);

const target = path.resolve(dataDir);
if (fs.existsSync(target) && fs.readdirSync(target).length > 0)
  fail(`${target} is not empty: move it aside (or pick another directory) and run again`);

const staging = `${target}.restoring-${process.pid}`;
fs.rmSync(staging, { recursive: true, force: true });
fs.mkdirSync(staging, { recursive: true });
let files = 0;
for (const part of PARTS) {
  const from = path.join(backup, part);
  if (!fs.existsSync(from)) continue;
  fs.cpSync(from, path.join(staging, part), { recursive: true, preserveTimestamps: true });
}
// Durable before the rename makes it the data directory.
const syncTree = (dir) => {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) syncTree(p);
    else {
      const fd = fs.openSync(p, 'r');
      fs.fsyncSync(fd);
      fs.closeSync(fd);
      files++;
    }
  }
  const fd = fs.openSync(dir, 'r');
  fs.fsyncSync(fd);
  fs.closeSync(fd);
};
syncTree(staging);
if (fs.existsSync(target)) fs.rmdirSync(target); // empty, checked above
fs.renameSync(staging, target);
const parent = fs.openSync(path.dirname(target), 'r');
fs.fsyncSync(parent);
fs.closeSync(parent);
process.stdout.write(
  `restored ${files} files from ${path.resolve(backup)} (taken ${manifest.createdAt} from ${manifest.source}) into ${target}\n`,
);
