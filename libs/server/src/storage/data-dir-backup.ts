import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { conflict, invalid } from '@quarry/common';
import type { Metastore } from '@quarry/metastore';
import { FORMAT_VERSIONS } from './data-dir-format';

/** The file that marks a finished backup (written last) and describes it. */
export const BACKUP_MANIFEST = 'quarry-backup.json';

/** What a backup copies, relative to the data directory (the `LOCK` file and temporary files are not). */
export const BACKUP_PARTS = ['meta', 'log', 'metrics-log', 'objects'] as const;

export interface BackupManifest {
  kind: 'quarry-standalone-backup';
  /** Layout of the backup directory itself. */
  backupVersion: 1;
  createdAt: string;
  /** The data directory it was taken from. */
  source: string;
  formats: typeof FORMAT_VERSIONS;
  files: number;
  bytes: number;
  /** Milliseconds the metastore was held still (management and compaction waited, ingest did not). */
  heldMs: number;
}

/**
 * A consistent copy of a running standalone server's data directory into `dest` (which must not exist
 * or be empty).
 *
 * Consistency: everything is copied while the metastore is held still (one PGlite connection, taken by
 * an empty transaction), so no block is registered, no log offset committed and no block row removed
 * meanwhile. Then:
 * - the metastore files are an idle database's files: a crash image PostgreSQL recovers from (after a
 *   CHECKPOINT first, so recovery is short);
 * - every object the copied metastore references was written before it was registered, and is deleted
 *   only after its row is removed, so it is in the copy;
 * - the logs are append-only: the copy holds every record acknowledged before the backup started (an
 *   acknowledgement means the record is on disk), a record being written may be cut short and is then
 *   cut off as a torn tail when the restored log opens; a log truncation in flight only removes records
 *   the copied metastore says are compacted already.
 * Ingest keeps running throughout: appends never wait for the metastore.
 */
export async function backupDataDir(
  dataDir: string,
  metastore: Metastore,
  dest: string,
): Promise<BackupManifest> {
  if (!path.isAbsolute(dest)) throw invalid(`backup directory must be an absolute path, not ${dest}`);
  const source = path.resolve(dataDir);
  const target = path.resolve(dest);
  if (target === source || target.startsWith(source + path.sep) || source.startsWith(target + path.sep))
    throw invalid(`backup directory ${target} must be outside the data directory ${source}`);
  await fs.mkdir(target, { recursive: true });
  if ((await fs.readdir(target)).length > 0)
    throw conflict(`backup directory ${target} is not empty`, { code: 'backup_dir_not_empty' });

  await metastore.db.exec('CHECKPOINT');
  const counts = { files: 0, bytes: 0 };
  const started = Date.now();
  await metastore.db.transaction(async () => {
    for (const part of BACKUP_PARTS) await copyTree(path.join(source, part), path.join(target, part), counts);
  });
  const manifest: BackupManifest = {
    kind: 'quarry-standalone-backup',
    backupVersion: 1,
    createdAt: new Date().toISOString(),
    source,
    formats: FORMAT_VERSIONS,
    files: counts.files,
    bytes: counts.bytes,
    heldMs: Date.now() - started,
  };
  // Written last and made durable with the rest: a backup without its manifest is incomplete.
  await syncTree(target);
  const manifestFile = path.join(target, BACKUP_MANIFEST);
  await fs.writeFile(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
  await fsyncPath(manifestFile);
  await fsyncPath(target);
  return manifest;
}

/** Copies a directory tree; files that vanish while copying (a truncated segment, a swept object) are skipped. */
async function copyTree(from: string, to: string, counts: { files: number; bytes: number }): Promise<void> {
  let entries: import('node:fs').Dirent[];
  try {
    entries = await fs.readdir(from, { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  await fs.mkdir(to, { recursive: true });
  for (const entry of entries) {
    const a = path.join(from, entry.name);
    const b = path.join(to, entry.name);
    if (entry.isDirectory()) {
      await copyTree(a, b, counts);
      continue;
    }
    // The object store's in-flight uploads are not objects yet.
    if (!entry.isFile() || entry.name.includes('.quarry-tmp-')) continue;
    try {
      await fs.copyFile(a, b, fs.constants.COPYFILE_FICLONE);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw err;
    }
    counts.files++;
    counts.bytes += (await fs.stat(b)).size;
  }
}

async function syncTree(dir: string): Promise<void> {
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) await syncTree(p);
    else await fsyncPath(p);
  }
  await fsyncPath(dir);
}

async function fsyncPath(p: string): Promise<void> {
  const handle = await fs.open(p, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
