/**
 * `ObjectStore` on a local directory, for the standalone shape and for tests.
 *
 * A key `a/b/c` is the file `<root>/a/b/c`. `put` is atomic and durable the way S3's is: the body goes to
 * a temporary file next to the target (`c.quarry-tmp-<random>`), which is fdatasync'd, renamed over the
 * target, and the directory is fsync'd, so a reader or a crash sees the old object or the new one, never
 * a prefix. Directories a put creates are fsync'd into their parents too.
 *
 * Known differences from S3: a key cannot also be a "directory" of other keys (`a` and `a/b` cannot both
 * exist; the second put fails with `conflict`), empty directories are left behind by `delete`, and
 * temporary files of a put interrupted by a crash stay until removed by hand (they are never listed).
 */
import { randomBytes } from 'node:crypto';
import type { Dirent } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { QuarryError } from '@quarry/common';
import { compareKeys } from './memory-object-store.fake';
import { checkRange, notFound, TEMP_MARKER, validateKey, validatePrefix } from './object-key';
import type { ObjectStore } from './object-store.port';

export class FsObjectStore implements ObjectStore {
  private constructor(private readonly root: string) {}

  static async open(rootDir: string): Promise<FsObjectStore> {
    const root = path.resolve(rootDir);
    await fs.mkdir(root, { recursive: true });
    return new FsObjectStore(root);
  }

  async put(key: string, body: Uint8Array): Promise<void> {
    const file = this.pathOf(key);
    const dir = path.dirname(file);
    const tmp = `${file}${TEMP_MARKER}${randomBytes(8).toString('hex')}`;
    try {
      await this.ensureDir(dir);
      const handle = await fs.open(tmp, 'wx', 0o644);
      try {
        await handle.writeFile(body);
        await handle.datasync();
      } finally {
        await handle.close();
      }
      await fs.rename(tmp, file);
      await fsyncDir(dir);
    } catch (err) {
      await fs.unlink(tmp).catch(() => undefined);
      throw storageError(err, key, 'put');
    }
  }

  async get(key: string): Promise<Uint8Array> {
    const file = this.pathOf(key);
    const handle = await this.openForRead(file, key);
    try {
      const size = await this.regularFileSize(handle, key);
      const out = new Uint8Array(size);
      await readFully(handle, out, 0);
      return out;
    } catch (err) {
      throw storageError(err, key, 'get');
    } finally {
      await handle.close();
    }
  }

  async getRange(key: string, offset: number, length: number): Promise<Uint8Array> {
    const file = this.pathOf(key);
    const handle = await this.openForRead(file, key);
    try {
      const size = await this.regularFileSize(handle, key);
      checkRange(key, offset, length, size);
      const out = new Uint8Array(Math.min(length, size - offset));
      await readFully(handle, out, offset);
      return out;
    } catch (err) {
      throw storageError(err, key, 'get');
    } finally {
      await handle.close();
    }
  }

  async head(key: string): Promise<{ size: number } | null> {
    const file = this.pathOf(key);
    try {
      const stat = await fs.stat(file);
      return stat.isFile() ? { size: stat.size } : null;
    } catch (err) {
      const code = errorCode(err);
      if (code === 'ENOENT' || code === 'ENOTDIR') return null;
      throw storageError(err, key, 'head');
    }
  }

  async delete(key: string): Promise<void> {
    const file = this.pathOf(key);
    try {
      await fs.unlink(file);
    } catch (err) {
      const code = errorCode(err);
      // Nothing there (or only a "directory" of other keys): already deleted as far as this key goes.
      if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') return;
      throw storageError(err, key, 'delete');
    }
    await fsyncDir(path.dirname(file)).catch((err: unknown) => {
      throw storageError(err, key, 'delete');
    });
  }

  async list(prefix: string): Promise<string[]> {
    validatePrefix(prefix);
    const slash = prefix.lastIndexOf('/');
    const dirKey = slash < 0 ? '' : prefix.slice(0, slash); // complete segments of the prefix
    const keys: string[] = [];
    await this.walk(dirKey, prefix, keys);
    return keys.sort(compareKeys);
  }

  private async walk(dirKey: string, prefix: string, out: string[]): Promise<void> {
    let entries: Dirent[];
    try {
      entries = await fs.readdir(dirKey === '' ? this.root : path.join(this.root, ...dirKey.split('/')), {
        withFileTypes: true,
      });
    } catch (err) {
      const code = errorCode(err);
      if (code === 'ENOENT' || code === 'ENOTDIR') return;
      throw storageError(err, prefix, 'list');
    }
    for (const entry of entries) {
      const key = dirKey === '' ? entry.name : `${dirKey}/${entry.name}`;
      if (entry.isDirectory()) {
        // Descend only where keys under the prefix can be.
        const asDir = `${key}/`;
        if (asDir.startsWith(prefix) || prefix.startsWith(asDir)) await this.walk(key, prefix, out);
      } else if (entry.isFile() && !entry.name.includes(TEMP_MARKER) && key.startsWith(prefix)) {
        out.push(key);
      }
    }
  }

  private pathOf(key: string): string {
    return path.join(this.root, ...validateKey(key));
  }

  /** mkdir -p, then fsync the parent of every directory it created so the new names are durable. */
  private async ensureDir(dir: string): Promise<void> {
    const first = await fs.mkdir(dir, { recursive: true });
    if (first === undefined) return;
    for (let created = dir; ; created = path.dirname(created)) {
      await fsyncDir(path.dirname(created));
      if (created === first || created === this.root) return;
    }
  }

  private async openForRead(file: string, key: string): Promise<fs.FileHandle> {
    try {
      return await fs.open(file, 'r');
    } catch (err) {
      const code = errorCode(err);
      if (code === 'ENOENT' || code === 'ENOTDIR') throw notFound(key, err);
      throw storageError(err, key, 'get');
    }
  }

  private async regularFileSize(handle: fs.FileHandle, key: string): Promise<number> {
    const stat = await handle.stat();
    if (!stat.isFile()) throw notFound(key);
    return stat.size;
  }
}

async function readFully(handle: fs.FileHandle, into: Uint8Array, position: number): Promise<void> {
  let done = 0;
  while (done < into.length) {
    const { bytesRead } = await handle.read(into, done, into.length - done, position + done);
    if (bytesRead === 0)
      throw new QuarryError('internal', 'object shrank while being read', { code: 'objstore_short_read' });
    done += bytesRead;
  }
}

async function fsyncDir(dir: string): Promise<void> {
  const handle = await fs.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

function errorCode(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err
    ? String((err as { code: unknown }).code)
    : undefined;
}

/** Maps a file-system error to a QuarryError; QuarryErrors pass through. */
function storageError(err: unknown, key: string, op: string): QuarryError {
  if (err instanceof QuarryError) return err;
  const code = errorCode(err);
  const why = err instanceof Error ? err.message : String(err);
  switch (code) {
    case 'ENOSPC':
    case 'EDQUOT':
      return new QuarryError('insufficient_storage', `object store volume is full (${op} ${key})`, {
        code: 'objstore_disk_full',
        retryAfterSeconds: 5,
        cause: err,
      });
    case 'EISDIR':
    case 'ENOTDIR':
    case 'EEXIST':
      return new QuarryError(
        'conflict',
        `${op} ${key}: a key cannot be both an object and a prefix of others here`,
        {
          code: 'objstore_key_conflict',
          cause: err,
        },
      );
    default:
      return new QuarryError('unavailable', `object store ${op} ${key} failed: ${why}`, {
        code: 'objstore_io_error',
        cause: err,
      });
  }
}
