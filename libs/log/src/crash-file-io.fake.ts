import * as path from 'node:path';
import { fsError, type FileHandleIO, type FileIO } from './file-io';

/**
 * An in-memory `FileIO` that can simulate a power loss (reliability.md T3).
 *
 * It keeps, per file, the bytes the OS has (`current`) and the bytes on the platter (`durable`, updated by
 * `datasync`), and per directory the names the OS has and the names made durable by `fsyncDir`. `crash()`
 * throws the OS state away: only durable names survive, each with its durable bytes plus, when the file
 * only grew since its last sync, a random prefix of the unsynced tail, optionally with a flipped byte or
 * zeroed (the torn writes a real disk produces). Handles opened before the crash stop working, so a log
 * instance still running against the old "machine" cannot touch the new one.
 */
export type TearMode = 'none' | 'prefix' | 'flip' | 'zeros';

interface FileNode {
  current: Uint8Array;
  durable: Uint8Array;
  /** False once a write or truncate touched bytes that were already durable. */
  appendOnly: boolean;
}

export class CrashFileIO implements FileIO {
  private current = new Map<string, FileNode>();
  private durable = new Map<string, FileNode>();
  private dirs = new Set<string>();
  private generation = 0;
  private opsUntilCrash: number | undefined;
  crashes = 0;

  /** `random` decides how much of each unsynced tail survives a crash; pass a seeded one in property tests. */
  constructor(private readonly random: () => number = Math.random) {}

  /** Crash just before the `n`-th next mutating call (write, datasync, truncate, create, unlink, fsyncDir). */
  crashAfter(n: number): void {
    this.opsUntilCrash = n;
  }

  crash(mode: TearMode = 'prefix'): void {
    this.crashes++;
    this.generation++;
    this.opsUntilCrash = undefined;
    const survivors = new Map<string, FileNode>();
    for (const [name, node] of this.durable) {
      const bytes = this.afterCrash(node, mode);
      survivors.set(name, { current: bytes, durable: bytes, appendOnly: true });
    }
    this.current = survivors;
    this.durable = new Map(survivors);
  }

  /** Bytes of a file as the OS sees them (for assertions and for tearing a tail by hand). */
  peek(file: string): Uint8Array | undefined {
    return this.current.get(file)?.current;
  }

  async mkdirp(dir: string): Promise<void> {
    this.dirs.add(dir);
  }

  async readdir(dir: string): Promise<string[]> {
    const names: string[] = [];
    for (const file of this.current.keys()) if (path.dirname(file) === dir) names.push(path.basename(file));
    return names;
  }

  async open(file: string, create: boolean): Promise<FileHandleIO> {
    let node = this.current.get(file);
    if (!node) {
      if (!create) throw fsError('ENOENT', `no such file ${file}`);
      this.tick();
      node = { current: new Uint8Array(0), durable: new Uint8Array(0), appendOnly: true };
      this.current.set(file, node);
    }
    return new CrashFileHandle(this, node, this.generation);
  }

  async unlink(file: string): Promise<void> {
    this.tick();
    if (!this.current.delete(file)) throw fsError('ENOENT', `no such file ${file}`);
  }

  async rename(from: string, to: string): Promise<void> {
    this.tick();
    const node = this.current.get(from);
    if (!node) throw fsError('ENOENT', `no such file ${from}`);
    this.current.delete(from);
    this.current.set(to, node);
  }

  async fsyncDir(dir: string): Promise<void> {
    this.tick();
    for (const name of [...this.durable.keys()]) {
      if (path.dirname(name) === dir && !this.current.has(name)) this.durable.delete(name);
    }
    for (const [name, node] of this.current) if (path.dirname(name) === dir) this.durable.set(name, node);
  }

  /** @internal Counts a mutating call and crashes when the countdown runs out. */
  tick(generation = this.generation): void {
    if (generation !== this.generation) throw fsError('EIO', 'the machine this handle belonged to crashed');
    if (this.opsUntilCrash === undefined) return;
    if (this.opsUntilCrash-- <= 0) {
      this.crash(this.pickMode());
      throw fsError('EIO', 'simulated power loss');
    }
  }

  /** @internal */
  isLive(generation: number): boolean {
    return generation === this.generation;
  }

  private pickMode(): TearMode {
    const modes: TearMode[] = ['none', 'prefix', 'flip', 'zeros'];
    return modes[Math.floor(this.random() * modes.length)];
  }

  private afterCrash(node: FileNode, mode: TearMode): Uint8Array {
    const durable = node.durable;
    const unsynced = node.current.length - durable.length;
    if (!node.appendOnly || unsynced <= 0 || mode === 'none') return durable.slice();
    const keep = Math.floor(this.random() * (unsynced + 1));
    const out = new Uint8Array(durable.length + keep);
    out.set(durable, 0);
    out.set(node.current.subarray(durable.length, durable.length + keep), durable.length);
    if (keep > 0 && mode === 'flip') out[durable.length + Math.floor(this.random() * keep)] ^= 0x5a;
    if (mode === 'zeros') out.fill(0, durable.length);
    return out;
  }
}

class CrashFileHandle implements FileHandleIO {
  private closed = false;

  constructor(
    private readonly fs: CrashFileIO,
    private readonly node: FileNode,
    private readonly generation: number,
  ) {}

  async write(data: Uint8Array, position: number): Promise<void> {
    this.check();
    this.fs.tick(this.generation);
    const end = position + data.length;
    if (position < this.node.durable.length) this.node.appendOnly = false;
    if (end > this.node.current.length) {
      const grown = new Uint8Array(end);
      grown.set(this.node.current, 0);
      this.node.current = grown;
    }
    this.node.current.set(data, position);
  }

  async read(into: Uint8Array, length: number, position: number): Promise<number> {
    this.check();
    const n = Math.max(0, Math.min(length, this.node.current.length - position));
    into.set(this.node.current.subarray(position, position + n), 0);
    return n;
  }

  async size(): Promise<number> {
    this.check();
    return this.node.current.length;
  }

  async truncate(length: number): Promise<void> {
    this.check();
    this.fs.tick(this.generation);
    if (length < this.node.durable.length) this.node.appendOnly = false;
    const next = new Uint8Array(length);
    next.set(this.node.current.subarray(0, Math.min(length, this.node.current.length)), 0);
    this.node.current = next;
  }

  async datasync(): Promise<void> {
    this.check();
    this.fs.tick(this.generation);
    this.node.durable = this.node.current.slice();
    this.node.appendOnly = true;
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  private check(): void {
    if (this.closed) throw fsError('EBADF', 'file handle is closed');
    if (!this.fs.isLive(this.generation)) throw fsError('EIO', 'the machine this handle belonged to crashed');
  }
}
