/**
 * Byte buffers one thread reuses from one block build to the next: the compactor's concatenated string
 * dictionaries. A flush of 1.2M bench events (the 10M run's) concatenates about 145 MB of them. Written
 * into fresh memory, every 4 KiB page faults in on its first write, about 17 µs a page in the VM the bench
 * ran in: 36k faults, 0.6 s a flush, a fifth of building its blocks (`bench/ingest-replay.mjs` counts
 * them). A reused buffer's pages are mapped already.
 *
 * A lease: `take` lends buffers while one build runs, and `returnAll` takes them back once the build's
 * blocks are encoded (`encodeBlock` copies every byte a block keeps, so nothing refers to them then).
 * Buffers the next build does not ask for are let go, and all of them after `idleMs` without a build, so
 * an idle server does not hold a flush's worth of memory.
 */
export class ReusedBuffers {
  private spare: Buffer[] = [];
  private lent: Buffer[] = [];
  private idle: NodeJS.Timeout | undefined;

  constructor(private readonly idleMs = 60_000) {}

  /** A buffer of at least `bytes` bytes (contents undefined), lent until `returnAll`. */
  take(bytes: number): Buffer {
    let best = -1;
    for (let i = 0; i < this.spare.length; i++) {
      const size = this.spare[i].length;
      if (size >= bytes && (best < 0 || size < this.spare[best].length)) best = i;
    }
    // A new buffer has a quarter to spare, so a slightly larger next flush still fits it.
    const buffer =
      best >= 0 ? this.spare.splice(best, 1)[0] : Buffer.allocUnsafeSlow(Math.ceil(bytes * 1.25));
    this.lent.push(buffer);
    return buffer;
  }

  /** Ends the lease: the buffers lent since the last call are the spares now, and no others. */
  returnAll(): void {
    this.spare = this.lent;
    this.lent = [];
    clearTimeout(this.idle);
    this.idle = undefined;
    if (this.spare.length === 0) return;
    this.idle = setTimeout(() => {
      this.spare = [];
    }, this.idleMs);
    this.idle.unref();
  }

  /** Bytes held between builds (for tests). */
  get spareBytes(): number {
    return this.spare.reduce((sum, b) => sum + b.length, 0);
  }
}
