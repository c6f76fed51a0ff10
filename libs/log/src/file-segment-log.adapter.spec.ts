import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { isQuarryError } from '@quarry/common';
import { CrashFileIO } from './crash-file-io.fake';
import { FaultFileIO } from './fault-file-io.fake';
import { FileSegmentLog, segmentFileName } from './file-segment-log.adapter';
import { NodeFileIO, type FileIO } from './file-io';
import { ingestLogContract, type IngestLogHarness, type IngestLogTraits } from './ingest-log.contract';

const SEGMENT_BYTES = 4096;
const FILE_LOG_TRAITS: IngestLogTraits = {
  diskFaults: true,
  persistent: true,
  tornTails: true,
  truncationDeletes: true,
  localStorageStats: true,
};
const bytes = (s: string) => new TextEncoder().encode(s);

async function harness(
  dir: string,
  base: FileIO,
  appendToFile: (file: string, data: Uint8Array) => Promise<void>,
) {
  const io = new FaultFileIO(base);
  const open = () => FileSegmentLog.open(dir, { fs: io, segmentBytes: SEGMENT_BYTES, groupCommitMs: 1 });
  const h: IngestLogHarness = {
    log: await open(),
    failNextSync: () => io.failNextSync(),
    setDiskFull: (full) => io.setDiskFull(full),
    reopen: async () => {
      await h.log.close();
      return open();
    },
    tearTail: async (garbage) => {
      await h.log.close();
      const names = (await base.readdir(dir)).filter((n) => n.endsWith('.seg')).sort();
      await appendToFile(path.join(dir, names[names.length - 1]), garbage);
      return open();
    },
    cleanup: async () => undefined,
  };
  return h;
}

ingestLogContract(
  'FileSegmentLog on node:fs',
  async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'quarry-log-'));
    const h = await harness(dir, new NodeFileIO(), (file, data) => fs.appendFile(file, data));
    // Mutate rather than spread: reopen/tearTail close whatever `h.log` the contract last stored.
    h.cleanup = () => fs.rm(dir, { recursive: true, force: true });
    return h;
  },
  FILE_LOG_TRAITS,
);

ingestLogContract(
  'FileSegmentLog on CrashFileIO',
  async () => {
    const crashFs = new CrashFileIO();
    return harness('/log', crashFs, async (file, data) => {
      const handle = await crashFs.open(file, false);
      await handle.write(data, await handle.size());
      await handle.close();
    });
  },
  FILE_LOG_TRAITS,
);

describe('FileSegmentLog', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'quarry-log-'));
  });
  afterEach(() => fs.rm(dir, { recursive: true, force: true }));

  it('names segments by base offset and rolls them at segmentBytes', async () => {
    const log = await FileSegmentLog.open(dir, { segmentBytes: 1000 });
    for (let i = 0; i < 30; i++) await log.append('k', [new Uint8Array(84)]); // 100-byte frames
    expect((await fs.readdir(dir)).sort()).toEqual([
      segmentFileName(0),
      segmentFileName(10),
      segmentFileName(20),
    ]);
    expect(log.stats()).toMatchObject({ segments: 3, bytes: 3000 });
    await log.truncateBefore(0, 19);
    expect((await fs.readdir(dir)).sort()).toEqual([segmentFileName(10), segmentFileName(20)]);
    await log.truncateBefore(0, 1_000_000); // never deletes the active segment
    expect(await fs.readdir(dir)).toEqual([segmentFileName(20)]);
    await log.close();
    const reopened = await FileSegmentLog.open(dir, { segmentBytes: 1000 });
    expect(reopened.endOffset(0)).toBe(30);
    expect((await reopened.read(0, 20, 100)).length).toBe(10);
    await reopened.close();
  });

  it('shares one fsync among concurrent appenders (group commit)', async () => {
    const io = new FaultFileIO(new NodeFileIO());
    const log = await FileSegmentLog.open(dir, { fs: io, groupCommitMs: 5 });
    const before = io.syncCalls;
    await Promise.all(Array.from({ length: 16 }, (_, i) => log.append('k', [bytes(`r${i}`)])));
    expect(io.syncCalls - before).toBe(1);
    expect(log.stats().appendedRecords).toBe(16);
    await log.close();
  });

  it('refuses to open when a segment other than the last is corrupt', async () => {
    const log = await FileSegmentLog.open(dir, { segmentBytes: 1000 });
    for (let i = 0; i < 25; i++) await log.append('k', [new Uint8Array(84).fill(i)]);
    await log.close();
    const first = path.join(dir, segmentFileName(0));
    const data = await fs.readFile(first);
    data[250] ^= 0xff;
    await fs.writeFile(first, data);
    const err = await FileSegmentLog.open(dir, { segmentBytes: 1000 }).catch((e: unknown) => e);
    expect(isQuarryError(err) && err.kind).toBe('internal');
    expect(String((err as Error).message)).toMatch(/00000000000000000000\.seg is corrupt/);
  });

  it('refuses to open when segments leave a gap', async () => {
    const log = await FileSegmentLog.open(dir, { segmentBytes: 1000 });
    for (let i = 0; i < 25; i++) await log.append('k', [new Uint8Array(84)]);
    await log.close();
    await fs.rm(path.join(dir, segmentFileName(10)));
    await expect(FileSegmentLog.open(dir)).rejects.toThrow(/starts at offset 20/);
  });

  it('a failed fsync in the middle of a batch that rolls a segment fails the log and acks nothing of it', async () => {
    const io = new FaultFileIO(new NodeFileIO());
    const log = await FileSegmentLog.open(dir, { fs: io, segmentBytes: 1000, groupCommitMs: 1 });
    await log.append('k', [new Uint8Array(84)]);
    io.failNextSync();
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, () => log.append('k', [new Uint8Array(84)])),
    );
    expect(results.every((r) => r.status === 'rejected')).toBe(true);
    expect(log.stats().failed).toBe(true);
    expect(log.endOffset(0)).toBe(1);
    await log.close();
  });

  it('rolls back a full-disk batch that spanned a new segment', async () => {
    const io = new FaultFileIO(new NodeFileIO());
    const log = await FileSegmentLog.open(dir, { fs: io, segmentBytes: 1000, groupCommitMs: 1 });
    for (let i = 0; i < 9; i++) await log.append('k', [new Uint8Array(84)]);
    // Let the first chunk (to the old segment) succeed and fail in the new one.
    const inner = io.open.bind(io);
    io.open = async (file, create) => {
      if (create) io.setDiskFull(true);
      return inner(file, create);
    };
    await expect(
      log.append('k', [new Uint8Array(84), new Uint8Array(84), new Uint8Array(84)]),
    ).rejects.toMatchObject({
      kind: 'insufficient_storage',
    });
    io.open = inner;
    io.setDiskFull(false);
    expect(await fs.readdir(dir)).toEqual([segmentFileName(0)]);
    expect((await fs.stat(path.join(dir, segmentFileName(0)))).size).toBe(900);
    expect(await log.append('k', [new Uint8Array(84)])).toEqual([{ partition: 0, offset: 9 }]);
    await log.close();
  });
});
