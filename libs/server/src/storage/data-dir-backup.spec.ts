import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Metastore } from '@quarry/metastore';
import { BACKUP_MANIFEST, backupDataDir } from './data-dir-backup';
import { FORMAT_VERSIONS } from './data-dir-format';

describe('backupDataDir', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-backup-spec-'));
  const dataDir = path.join(root, 'data');
  let metastore: Metastore;

  beforeAll(async () => {
    metastore = await Metastore.open(null);
    const files: Record<string, string> = {
      LOCK: '{"pid":1}',
      'LOCK.123.abc': 'temporary',
      'log/00000000000000000000.seg': 'segment',
      'metrics-log/00000000000000000000.seg': 'metrics segment',
      'objects/blocks/ds/a.qblk': 'block a',
      'objects/blocks/ds/b.qblk.quarry-tmp-0123': 'an upload in flight',
      'meta/PG_VERSION': '17',
      'object-cache/x': 'not part of a standalone backup',
    };
    for (const [name, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dataDir, name)), { recursive: true });
      fs.writeFileSync(path.join(dataDir, name), text);
    }
  });
  afterAll(async () => {
    await metastore.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('copies the log, metrics log, objects and metastore, and nothing else, then writes the manifest', async () => {
    const dest = path.join(root, 'backup-1');
    const manifest = await backupDataDir(dataDir, metastore, dest);
    const copied = fs
      .readdirSync(dest, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => path.relative(dest, path.join(e.parentPath, e.name)))
      .sort();
    expect(copied).toEqual([
      'log/00000000000000000000.seg',
      'meta/PG_VERSION',
      'metrics-log/00000000000000000000.seg',
      'objects/blocks/ds/a.qblk',
      BACKUP_MANIFEST,
    ]);
    expect(fs.readFileSync(path.join(dest, 'objects/blocks/ds/a.qblk'), 'utf8')).toBe('block a');
    expect(manifest).toMatchObject({ kind: 'quarry-standalone-backup', backupVersion: 1, files: 4 });
    expect(manifest.formats).toEqual(FORMAT_VERSIONS);
    expect(JSON.parse(fs.readFileSync(path.join(dest, BACKUP_MANIFEST), 'utf8'))).toEqual(manifest);
  });

  it('refuses a relative path, a path inside the data directory and a directory that is not empty', async () => {
    await expect(backupDataDir(dataDir, metastore, 'relative/dir')).rejects.toThrow(/absolute path/);
    await expect(backupDataDir(dataDir, metastore, path.join(dataDir, 'backup'))).rejects.toThrow(
      /outside the data directory/,
    );
    await expect(backupDataDir(dataDir, metastore, root)).rejects.toThrow(/outside the data directory/);
    const full = path.join(root, 'full');
    fs.mkdirSync(full);
    fs.writeFileSync(path.join(full, 'something'), 'x');
    await expect(backupDataDir(dataDir, metastore, full)).rejects.toThrow(/not empty/);
  });
});
