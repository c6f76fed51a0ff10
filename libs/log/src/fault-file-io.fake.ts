import { fsError, type FileHandleIO, type FileIO } from './file-io';

/**
 * Wraps a `FileIO` to inject the two disk faults the ack contract cares about (reliability.md T4, T5):
 * an fsync that fails with EIO, and a full disk (writes store half their bytes, then fail with ENOSPC,
 * as a real file system does when it runs out mid-write).
 */
export class FaultFileIO implements FileIO {
  private failSyncs = 0;
  private diskFull = false;
  syncCalls = 0;

  constructor(private readonly inner: FileIO) {}

  /** The next `count` datasync/fsyncDir calls fail with `code` (default EIO). */
  failNextSync(count = 1): void {
    this.failSyncs = count;
  }

  setDiskFull(full: boolean): void {
    this.diskFull = full;
  }

  mkdirp(dir: string): Promise<void> {
    return this.inner.mkdirp(dir);
  }

  readdir(dir: string): Promise<string[]> {
    return this.inner.readdir(dir);
  }

  async open(file: string, create: boolean): Promise<FileHandleIO> {
    return new FaultFileHandle(this, await this.inner.open(file, create));
  }

  unlink(file: string): Promise<void> {
    return this.inner.unlink(file);
  }

  rename(from: string, to: string): Promise<void> {
    return this.inner.rename(from, to);
  }

  async fsyncDir(dir: string): Promise<void> {
    this.beforeSync();
    return this.inner.fsyncDir(dir);
  }

  /** @internal */
  beforeSync(): void {
    this.syncCalls++;
    if (this.failSyncs > 0) {
      this.failSyncs--;
      throw fsError('EIO', 'injected fsync failure');
    }
  }

  /** @internal */
  isDiskFull(): boolean {
    return this.diskFull;
  }
}

class FaultFileHandle implements FileHandleIO {
  constructor(
    private readonly fs: FaultFileIO,
    private readonly inner: FileHandleIO,
  ) {}

  async write(data: Uint8Array, position: number): Promise<void> {
    if (this.fs.isDiskFull()) {
      const half = Math.floor(data.length / 2);
      if (half > 0) await this.inner.write(data.subarray(0, half), position);
      throw fsError('ENOSPC', 'no space left on device (injected)');
    }
    return this.inner.write(data, position);
  }

  read(into: Uint8Array, length: number, position: number): Promise<number> {
    return this.inner.read(into, length, position);
  }

  size(): Promise<number> {
    return this.inner.size();
  }

  truncate(length: number): Promise<void> {
    return this.inner.truncate(length);
  }

  async datasync(): Promise<void> {
    this.fs.beforeSync();
    return this.inner.datasync();
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
