import * as fs from 'node:fs/promises';
import * as path from 'node:path';

/**
 * The few file-system calls the segment log makes, behind an interface so tests can swap in a
 * `CrashFileIO` (simulated power loss) or a `FaultFileIO` (EIO / ENOSPC injection) without touching
 * the real disk's behaviour. Errors are thrown as Node-style errors with a `code` (`ENOENT`, `ENOSPC`...).
 */
export interface FileIO {
  /** Creates `dir` and missing parents. */
  mkdirp(dir: string): Promise<void>;
  /** Names (not paths) of the entries in `dir`. */
  readdir(dir: string): Promise<string[]>;
  /** Opens a file for reading and writing; creates it (empty) when `create` is set and it is missing. */
  open(file: string, create: boolean): Promise<FileHandleIO>;
  unlink(file: string): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  /** fsync of a directory, so that creates, renames and unlinks in it survive a power loss. */
  fsyncDir(dir: string): Promise<void>;
}

export interface FileHandleIO {
  /** Writes all of `data` at `position`. */
  write(data: Uint8Array, position: number): Promise<void>;
  /** Reads up to `length` bytes at `position` into `into` (from index 0); returns the count read. */
  read(into: Uint8Array, length: number, position: number): Promise<number>;
  size(): Promise<number>;
  truncate(length: number): Promise<void>;
  datasync(): Promise<void>;
  close(): Promise<void>;
}

/** The real thing, on `node:fs/promises`. */
export class NodeFileIO implements FileIO {
  async mkdirp(dir: string): Promise<void> {
    await fs.mkdir(dir, { recursive: true });
  }

  readdir(dir: string): Promise<string[]> {
    return fs.readdir(dir);
  }

  async open(file: string, create: boolean): Promise<FileHandleIO> {
    // 'r+' never creates; 'a+' would force every write to the end and ignore `position` on Linux.
    const flags = create ? fs.constants.O_RDWR | fs.constants.O_CREAT : fs.constants.O_RDWR;
    return new NodeFileHandle(await fs.open(file, flags, 0o644));
  }

  unlink(file: string): Promise<void> {
    return fs.unlink(file);
  }

  rename(from: string, to: string): Promise<void> {
    return fs.rename(from, to);
  }

  async fsyncDir(dir: string): Promise<void> {
    const handle = await fs.open(path.resolve(dir), 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  }
}

class NodeFileHandle implements FileHandleIO {
  constructor(private readonly handle: fs.FileHandle) {}

  async write(data: Uint8Array, position: number): Promise<void> {
    // write(2) may write less than asked (signals, some file systems); loop until done.
    let done = 0;
    while (done < data.length) {
      const { bytesWritten } = await this.handle.write(data, done, data.length - done, position + done);
      done += bytesWritten;
    }
  }

  async read(into: Uint8Array, length: number, position: number): Promise<number> {
    let done = 0;
    while (done < length) {
      const { bytesRead } = await this.handle.read(into, done, length - done, position + done);
      if (bytesRead === 0) break;
      done += bytesRead;
    }
    return done;
  }

  async size(): Promise<number> {
    return (await this.handle.stat()).size;
  }

  truncate(length: number): Promise<void> {
    return this.handle.truncate(length);
  }

  datasync(): Promise<void> {
    return this.handle.datasync();
  }

  close(): Promise<void> {
    return this.handle.close();
  }
}

/** Error with an errno-style code, as `node:fs` throws them. */
export function fsError(code: string, message: string): NodeJS.ErrnoException {
  const err: NodeJS.ErrnoException = new Error(`${code}: ${message}`);
  err.code = code;
  return err;
}

export function errorCode(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err
    ? String((err as { code: unknown }).code)
    : undefined;
}
