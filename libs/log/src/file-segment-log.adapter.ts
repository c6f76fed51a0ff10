/**
 * The embedded ingest log: a directory of append-only segment files on local disk, one partition (0).
 *
 * Layout: `<dir>/<base offset, 20 digits>.seg`, e.g. `00000000000000000000.seg`. Each segment holds the
 * records with offsets `[base, next segment's base)`, framed as described in `frame.ts`:
 * `[u32 length][u32 CRC-32C][u64 offset][payload]`, little-endian, CRC over length+offset+payload.
 *
 * Durability (DESIGN.md §5b): an append resolves only after its frames were written and fdatasync'd, and
 * after the directory was fsync'd when a segment was created. Appends that arrive while a write+fdatasync
 * is in flight are batched into the next one (group commit), so N concurrent callers cost one fsync.
 *
 * Failure semantics:
 * - The first write/fsync error other than "disk full" marks the log failed. That batch and every later
 *   append reject with QuarryError `unavailable`; we never retry an fsync, because after a failed fsync
 *   Linux may have dropped the dirty pages and a retry can "succeed" over lost data (fsyncgate).
 * - ENOSPC/EDQUOT: the batch is rolled back (segment truncated to its previous length, segments created by
 *   the batch removed, then fdatasync'd) and rejected with `insufficient_storage` (Retry-After 5 s). The log
 *   stays usable once space is freed. If the rollback itself fails, the log is marked failed.
 * - On open, every frame's CRC is checked. A torn/corrupt tail of the last segment is cut off (counted in
 *   `tornTailTruncations`): it can only hold records that were never acknowledged. Corruption anywhere
 *   else means acknowledged data is damaged, so opening fails with QuarryError `internal`.
 */
import * as path from 'node:path';
import { QuarryError } from '@quarry/common';
import type { LogPosition } from '@quarry/contracts';
import { errorCode, NodeFileIO, type FileHandleIO, type FileIO } from './file-io';
import { decodeFrame, encodeFrame, frameSize, MAX_PAYLOAD_BYTES } from './frame';
import type { IngestLog, IngestLogStats, LogRecord } from './ingest-log.port';

export interface FileSegmentLogOptions {
  /** A segment is rolled once the next frame would take it past this size. Default 64 MiB. */
  segmentBytes?: number;
  /** How long the first append of an idle log waits for company before the write+fsync. Default 2 ms. */
  groupCommitMs?: number;
  /** Pending bytes that start a group commit at once, without waiting `groupCommitMs`. Default 1 MiB. */
  groupCommitBytes?: number;
  fs?: FileIO;
}

interface Segment {
  base: number;
  file: string;
  /** Durable (synced) size in bytes. */
  size: number;
  /** File position of the frame of record `base + i`. */
  positions: number[];
}

interface PendingAppend {
  payloads: Uint8Array[];
  resolve: (positions: LogPosition[]) => void;
  reject: (err: unknown) => void;
}

/** Records of one batch that go to one segment: a single write, then one fdatasync. */
interface Chunk {
  /** Existing segment (the active one) or undefined for a segment this batch creates at `base`. */
  segment?: Segment;
  base: number;
  startPos: number;
  bytes: number;
  offsets: number[];
  payloads: Uint8Array[];
}

const SEGMENT_NAME = /^(\d{20})\.seg$/;
const DEFAULT_SEGMENT_BYTES = 64 * 1024 * 1024;
/** Upper bound on bytes one `read` call loads, so a large maxRecords cannot load a whole segment. */
const READ_BYTES_CAP = 8 * 1024 * 1024;
const NO_SPACE_RETRY_AFTER_SECONDS = 5;

export function segmentFileName(base: number): string {
  return `${String(base).padStart(20, '0')}.seg`;
}

export class FileSegmentLog implements IngestLog {
  private readonly segments: Segment[];
  private activeHandle: FileHandleIO;
  /** Durable end: offset of the next record; records below it are synced and readable. */
  private nextOffset: number;
  private totalBytes: number;

  private pending: PendingAppend[] = [];
  private pendingBytes = 0;
  private timer: NodeJS.Timeout | undefined; // or an Immediate when groupCommitMs is 0
  private flushing: Promise<void> | undefined;
  private truncation: Promise<void> = Promise.resolve();
  private failure: string | undefined;
  private closed = false;

  private tornTailTruncations: number;
  private appendedRecords = 0;
  private appendedBytes = 0;
  private fsyncs = 0;
  private noSpaceRejections = 0;

  private readonly segmentBytes: number;
  private readonly groupCommitMs: number;
  private readonly groupCommitBytes: number;

  private constructor(
    private readonly dir: string,
    private readonly io: FileIO,
    options: FileSegmentLogOptions,
    state: { segments: Segment[]; activeHandle: FileHandleIO; tornTailTruncations: number },
  ) {
    this.segmentBytes = options.segmentBytes ?? DEFAULT_SEGMENT_BYTES;
    this.groupCommitMs = options.groupCommitMs ?? 2;
    this.groupCommitBytes = options.groupCommitBytes ?? 1024 * 1024;
    this.segments = state.segments;
    this.activeHandle = state.activeHandle;
    this.tornTailTruncations = state.tornTailTruncations;
    const last = this.segments[this.segments.length - 1];
    this.nextOffset = last.base + last.positions.length;
    this.totalBytes = this.segments.reduce((sum, s) => sum + s.size, 0);
  }

  /**
   * Opens (or creates) the log in `dir`, validating every frame. Replay cost is one sequential read of
   * all segments; the caller keeps `/readyz` not-ready until this resolves (reliability.md T23).
   */
  static async open(dir: string, options: FileSegmentLogOptions = {}): Promise<FileSegmentLog> {
    const io = options.fs ?? new NodeFileIO();
    await io.mkdirp(dir);
    const names = (await io.readdir(dir)).filter((n) => SEGMENT_NAME.test(n)).sort();
    const segments: Segment[] = [];
    let tornTailTruncations = 0;
    let activeHandle: FileHandleIO | undefined;

    for (let i = 0; i < names.length; i++) {
      const isLast = i === names.length - 1;
      const file = path.join(dir, names[i]);
      const base = Number(names[i].slice(0, 20));
      if (!Number.isSafeInteger(base)) throw corrupt(`segment ${file} has an out-of-range base offset`);
      const prev = segments[segments.length - 1];
      if (prev && prev.base + prev.positions.length !== base) {
        throw corrupt(
          `segment ${file} starts at offset ${base} but the previous segment ends at ${prev.base + prev.positions.length}`,
        );
      }
      const handle = await io.open(file, false);
      const size = await handle.size();
      const bytes = new Uint8Array(size);
      const read = await handle.read(bytes, size, 0);
      const positions: number[] = [];
      let pos = 0;
      let problem: string | undefined;
      while (pos < read) {
        const frame = decodeFrame(bytes, pos, read, base + positions.length);
        if (!frame.ok) {
          problem = frame.reason;
          break;
        }
        positions.push(pos);
        pos = frame.next;
      }
      if (read < size && problem === undefined) problem = `short read (${read} of ${size} bytes)`;
      if (problem !== undefined) {
        if (!isLast) {
          await handle.close();
          throw corrupt(
            `segment ${file} is corrupt before its end (${problem}); acknowledged records may be damaged`,
          );
        }
        // A torn tail holds only records whose append never resolved: cut it off and make the cut durable
        // before anything new is appended behind it.
        await handle.truncate(pos);
        await handle.datasync();
        tornTailTruncations++;
      }
      segments.push({ base, file, size: pos, positions });
      if (isLast) activeHandle = handle;
      else await handle.close();
    }

    if (segments.length === 0) {
      const file = path.join(dir, segmentFileName(0));
      activeHandle = await io.open(file, true);
      await io.fsyncDir(dir);
      segments.push({ base: 0, file, size: 0, positions: [] });
    }
    return new FileSegmentLog(dir, io, options, {
      segments,
      activeHandle: activeHandle!,
      tornTailTruncations,
    });
  }

  append(_key: string, payloads: Uint8Array[]): Promise<LogPosition[]> {
    const refusal = this.refusal();
    if (refusal) return Promise.reject(refusal);
    if (payloads.length === 0) return Promise.resolve([]);
    let bytes = 0;
    for (const p of payloads) {
      if (p.length > MAX_PAYLOAD_BYTES) {
        return Promise.reject(
          new QuarryError('too_large', `log record of ${p.length} bytes exceeds ${MAX_PAYLOAD_BYTES}`, {
            code: 'log_record_too_large',
          }),
        );
      }
      bytes += frameSize(p.length);
    }
    return new Promise<LogPosition[]>((resolve, reject) => {
      this.pending.push({ payloads, resolve, reject });
      this.pendingBytes += bytes;
      this.schedule();
    });
  }

  async read(partition: number, fromOffset: number, maxRecords: number): Promise<LogRecord[]> {
    this.checkPartition(partition);
    if (!Number.isSafeInteger(fromOffset) || fromOffset < 0)
      throw new QuarryError('invalid', `bad offset ${fromOffset}`);
    // Snapshot of the durable end: records at or above it may still be in flight.
    const end = this.nextOffset;
    const out: LogRecord[] = [];
    let offset = fromOffset;
    let loaded = 0;
    while (out.length < maxRecords && offset < end && loaded < READ_BYTES_CAP) {
      const segment = this.segmentFor(offset);
      const i = offset - segment.base;
      let count = Math.min(maxRecords - out.length, end - offset, segment.positions.length - i);
      const startPos = segment.positions[i];
      const endPosOf = (n: number) =>
        i + n < segment.positions.length ? segment.positions[i + n] : segment.size;
      // Shrink to the byte cap (always at least one record, however large).
      while (count > 1 && endPosOf(count) - startPos > READ_BYTES_CAP - loaded) count = Math.ceil(count / 2);
      const length = endPosOf(count) - startPos;
      const buf = new Uint8Array(length);
      await this.readAt(segment, buf, startPos);
      let pos = 0;
      for (let n = 0; n < count; n++) {
        const frame = decodeFrame(buf, pos, length, offset);
        if (!frame.ok) throw corrupt(`segment ${segment.file}: ${frame.reason} (record ${offset})`);
        out.push({ partition: 0, offset, payload: buf.subarray(frame.payloadStart, frame.payloadEnd) });
        pos = frame.next;
        offset++;
      }
      loaded += length;
    }
    return out;
  }

  endOffset(partition: number): number {
    this.checkPartition(partition);
    return this.nextOffset;
  }

  partitions(): number[] {
    return [0];
  }

  truncateBefore(partition: number, offset: number): Promise<void> {
    this.checkPartition(partition);
    // Serialized so two compactor commits cannot race over the same segment list.
    const run = this.truncation.then(() => this.deleteSegmentsBefore(offset));
    this.truncation = run.catch(() => undefined);
    return run;
  }

  stats(): IngestLogStats {
    return {
      failed: this.failure !== undefined,
      failure: this.failure,
      segments: this.segments.length,
      bytes: this.totalBytes,
      tornTailTruncations: this.tornTailTruncations,
      appendedRecords: this.appendedRecords,
      appendedBytes: this.appendedBytes,
      fsyncs: this.fsyncs,
      noSpaceRejections: this.noSpaceRejections,
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // Answer everyone who is waiting before letting go of the file.
    this.clearTimer();
    if (!this.flushing && this.pending.length > 0) this.startFlush();
    while (this.flushing) await this.flushing;
    await this.truncation;
    await this.activeHandle.close().catch(() => undefined);
  }

  // ---- group commit -------------------------------------------------------------------------------

  private schedule(): void {
    if (this.flushing) return; // the running flush loop picks the new append up when its fsync is done
    if (this.pendingBytes >= this.groupCommitBytes || this.closed) {
      this.clearTimer();
      this.startFlush();
      return;
    }
    if (this.timer) return;
    const fire = () => {
      this.timer = undefined;
      if (!this.flushing) this.startFlush();
    };
    // groupCommitMs 0 still gathers callers of the same event-loop turn; setTimeout(0) would cost ~1 ms.
    this.timer =
      this.groupCommitMs > 0
        ? setTimeout(fire, this.groupCommitMs)
        : (setImmediate(fire) as unknown as NodeJS.Timeout);
  }

  private clearTimer(): void {
    if (this.timer === undefined) return;
    if (this.groupCommitMs > 0) clearTimeout(this.timer);
    else clearImmediate(this.timer as unknown as NodeJS.Immediate);
    this.timer = undefined;
  }

  private startFlush(): void {
    const loop = this.flushLoop().catch((err: unknown) => {
      // flushBatch handles I/O errors itself; anything reaching here is a bug, and must not ack anything.
      this.fail(`internal error in the flush loop: ${describe(err)}`, []);
    });
    this.flushing = loop.finally(() => {
      this.flushing = undefined;
      // An append that arrived between the loop's last check and this callback would otherwise wait forever.
      if (this.pending.length > 0) this.schedule();
    });
  }

  private async flushLoop(): Promise<void> {
    while (this.pending.length > 0) {
      // Everything that arrived while the previous write+fsync ran goes into this one.
      const batch = this.pending;
      this.pending = [];
      this.pendingBytes = 0;
      await this.flushBatch(batch);
    }
  }

  private async flushBatch(batch: PendingAppend[]): Promise<void> {
    if (this.failure !== undefined) {
      const err = this.failedError();
      for (const p of batch) p.reject(err);
      return;
    }
    const chunks = this.plan(batch);
    const active = this.segments[this.segments.length - 1];
    const created: { segment: Segment; handle: FileHandleIO }[] = [];
    let handle = this.activeHandle;
    try {
      for (const chunk of chunks) {
        if (!chunk.segment) {
          const file = path.join(this.dir, segmentFileName(chunk.base));
          handle = await this.io.open(file, true);
          created.push({ segment: { base: chunk.base, file, size: 0, positions: [] }, handle });
          // The new name must be durable before acknowledged records live only in it.
          await this.io.fsyncDir(this.dir);
        }
        const buf = new Uint8Array(chunk.bytes);
        let at = 0;
        for (let n = 0; n < chunk.offsets.length; n++)
          at = encodeFrame(buf, at, chunk.offsets[n], chunk.payloads[n]);
        await handle.write(buf, chunk.startPos);
        await handle.datasync();
        this.fsyncs++;
      }
    } catch (err) {
      await this.handleWriteError(err, batch, active, created);
      return;
    }

    // Commit: from here on the records are durable and visible to readers.
    for (const chunk of chunks) {
      const segment = chunk.segment ?? created.find((c) => c.segment.base === chunk.base)!.segment;
      let pos = chunk.startPos;
      for (const payload of chunk.payloads) {
        segment.positions.push(pos);
        pos += frameSize(payload.length);
      }
      segment.size = pos;
      this.totalBytes += chunk.bytes;
    }
    if (created.length > 0) {
      const oldHandle = this.activeHandle;
      for (const c of created) this.segments.push(c.segment);
      this.activeHandle = created[created.length - 1].handle;
      for (const c of created.slice(0, -1)) await c.handle.close().catch(() => undefined);
      await oldHandle.close().catch(() => undefined);
    }
    let offset = this.nextOffset;
    for (const p of batch) {
      const positions: LogPosition[] = [];
      for (const payload of p.payloads) {
        positions.push({ partition: 0, offset: offset++ });
        this.appendedBytes += payload.length;
      }
      this.appendedRecords += p.payloads.length;
      p.resolve(positions);
    }
    this.nextOffset = offset;
  }

  /** Assigns offsets and splits the batch into per-segment chunks, rolling at `segmentBytes`. */
  private plan(batch: PendingAppend[]): Chunk[] {
    const active = this.segments[this.segments.length - 1];
    let chunk: Chunk = {
      segment: active,
      base: active.base,
      startPos: active.size,
      bytes: 0,
      offsets: [],
      payloads: [],
    };
    const chunks: Chunk[] = [chunk];
    let offset = this.nextOffset;
    for (const p of batch) {
      for (const payload of p.payloads) {
        const size = frameSize(payload.length);
        const segmentSize = chunk.startPos + chunk.bytes;
        // Never roll an empty segment: a record bigger than segmentBytes gets a segment of its own.
        if (segmentSize > 0 && segmentSize + size > this.segmentBytes) {
          chunk = { base: offset, startPos: 0, bytes: 0, offsets: [], payloads: [] };
          chunks.push(chunk);
        }
        chunk.offsets.push(offset++);
        chunk.payloads.push(payload);
        chunk.bytes += size;
      }
    }
    return chunks.filter((c) => c.offsets.length > 0);
  }

  private async handleWriteError(
    err: unknown,
    batch: PendingAppend[],
    active: Segment,
    created: { segment: Segment; handle: FileHandleIO }[],
  ): Promise<void> {
    const code = errorCode(err);
    if (code === 'ENOSPC' || code === 'EDQUOT') {
      try {
        // Undo the partial batch so the offsets can be reused: nothing of it was acknowledged.
        for (const c of created) {
          await c.handle.close().catch(() => undefined);
          await this.io.unlink(c.segment.file);
        }
        if (created.length > 0) await this.io.fsyncDir(this.dir);
        await this.activeHandle.truncate(active.size);
        await this.activeHandle.datasync();
        this.fsyncs++;
      } catch (rollbackErr) {
        this.fail(`disk full, and rolling back the partial write failed: ${describe(rollbackErr)}`, batch);
        return;
      }
      this.noSpaceRejections++;
      const rejection = new QuarryError('insufficient_storage', 'the ingest log volume is full', {
        code: 'log_disk_full',
        retryAfterSeconds: NO_SPACE_RETRY_AFTER_SECONDS,
        cause: err,
      });
      for (const p of batch) p.reject(rejection);
      return;
    }
    for (const c of created) await c.handle.close().catch(() => undefined);
    this.fail(`write or fsync failed: ${describe(err)}`, batch);
  }

  /** Marks the log failed for good and rejects `batch` and everything still pending. */
  private fail(message: string, batch: PendingAppend[]): void {
    if (this.failure === undefined) this.failure = message;
    const err = this.failedError();
    for (const p of batch) p.reject(err);
    const rest = this.pending;
    this.pending = [];
    this.pendingBytes = 0;
    for (const p of rest) p.reject(err);
  }

  private failedError(): QuarryError {
    return new QuarryError(
      'unavailable',
      `the ingest log has failed and accepts no writes until restarted: ${this.failure}`,
      {
        code: 'log_failed',
      },
    );
  }

  private refusal(): QuarryError | undefined {
    if (this.failure !== undefined) return this.failedError();
    if (this.closed)
      return new QuarryError('unavailable', 'the ingest log is closed', { code: 'log_closed' });
    return undefined;
  }

  // ---- reading and retention ----------------------------------------------------------------------

  private segmentFor(offset: number): Segment {
    const segments = this.segments;
    if (offset < segments[0].base) {
      throw new QuarryError(
        'not_found',
        `log offset ${offset} was truncated (log starts at ${segments[0].base})`,
        {
          code: 'log_offset_truncated',
        },
      );
    }
    let lo = 0;
    let hi = segments.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (segments[mid].base <= offset) lo = mid;
      else hi = mid - 1;
    }
    return segments[lo];
  }

  private async readAt(segment: Segment, into: Uint8Array, position: number): Promise<void> {
    let handle: FileHandleIO;
    try {
      // A handle per call: cheap next to the read, and a concurrent truncateBefore cannot close it under us.
      handle = await this.io.open(segment.file, false);
    } catch (err) {
      if (errorCode(err) === 'ENOENT') {
        throw new QuarryError('not_found', `log segment ${segment.base} was truncated while reading`, {
          code: 'log_offset_truncated',
        });
      }
      throw err;
    }
    try {
      const n = await handle.read(into, into.length, position);
      if (n !== into.length)
        throw corrupt(
          `segment ${segment.file} is shorter than its index (read ${n} of ${into.length} bytes)`,
        );
    } finally {
      await handle.close();
    }
  }

  private async deleteSegmentsBefore(offset: number): Promise<void> {
    let deleted = 0;
    // The active (last) segment is never deleted; a segment goes once the next one starts at or below `offset`.
    while (this.segments.length > 1 && this.segments[1].base <= offset) {
      const segment = this.segments.shift()!;
      this.totalBytes -= segment.size;
      try {
        await this.io.unlink(segment.file);
      } catch (err) {
        if (errorCode(err) !== 'ENOENT') {
          throw new QuarryError(
            'internal',
            `could not delete log segment ${segment.file}: ${describe(err)}`,
            { cause: err },
          );
        }
      }
      deleted++;
    }
    if (deleted > 0) await this.io.fsyncDir(this.dir);
  }

  private checkPartition(partition: number): void {
    if (partition !== 0) {
      throw new QuarryError('invalid', `the embedded log has one partition (0), not ${partition}`, {
        code: 'log_bad_partition',
      });
    }
  }
}

function corrupt(message: string): QuarryError {
  return new QuarryError('internal', `ingest log corrupt: ${message}`, { code: 'log_corrupt' });
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
