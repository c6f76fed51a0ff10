import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import fc from 'fast-check';
import { FileSegmentLog, segmentFileName } from './file-segment-log.adapter';
import { decodeFrame, encodeFrame, frameSize, type FrameChecksum } from './frame';

function frame(payload: Uint8Array, offset: number, checksum: FrameChecksum): Uint8Array {
  const out = new Uint8Array(frameSize(payload.length));
  encodeFrame(out, 0, offset, payload, checksum);
  return out;
}

describe('log frames', () => {
  it('round-trip with either checksum, and any flipped bit is detected', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 64 }),
        fc.nat({ max: 2 ** 40 }),
        fc.constantFrom<FrameChecksum>('crc32', 'crc32c'),
        fc.nat(),
        fc.nat({ max: 7 }),
        (payload, offset, checksum, at, bit) => {
          const bytes = frame(payload, offset, checksum);
          const ok = decodeFrame(bytes, 0, bytes.length, offset);
          expect(ok).toEqual({
            ok: true,
            offset,
            payloadStart: 16,
            payloadEnd: bytes.length,
            next: bytes.length,
          });
          const corrupt = bytes.slice();
          corrupt[at % corrupt.length] ^= 1 << bit;
          expect(decodeFrame(corrupt, 0, corrupt.length, offset).ok).toBe(false);
        },
      ),
    );
  });

  it('marks new frames CRC-32 in bit 31 of the length word; old CRC-32C frames leave it clear', () => {
    const payload = new TextEncoder().encode('hello');
    const view = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, b.byteLength);
    const crc32 = frame(payload, 3, 'crc32');
    const crc32c = frame(payload, 3, 'crc32c');
    expect(view(crc32).getUint32(0, true)).toBe(0x80000005);
    expect(view(crc32c).getUint32(0, true)).toBe(5);
    expect(view(crc32).getUint32(4, true)).not.toBe(view(crc32c).getUint32(4, true));
    // The same bytes under the other algorithm's flag do not pass.
    const relabeled = crc32.slice();
    view(relabeled).setUint32(0, 5, true);
    expect(decodeFrame(relabeled, 0, relabeled.length, 3)).toEqual({
      ok: false,
      reason: 'CRC mismatch at byte 0',
    });
  });

  it('a log written with CRC-32C frames (older versions) reopens, reads, and appends CRC-32 frames after them', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'quarry-frame-'));
    try {
      const payloads = ['a', 'bb', 'ccc'].map((s) => new TextEncoder().encode(s));
      const old = new Uint8Array(payloads.reduce((n, p) => n + frameSize(p.length), 0));
      let at = 0;
      payloads.forEach((p, i) => (at = encodeFrame(old, at, i, p, 'crc32c')));
      await fs.writeFile(path.join(dir, segmentFileName(0)), old);

      const log = await FileSegmentLog.open(dir, { groupCommitMs: 1 });
      expect(log.stats().tornTailTruncations).toBe(0);
      expect(log.endOffset(0)).toBe(3);
      await log.append('k', [new TextEncoder().encode('dddd')]);
      await log.close();

      const reopened = await FileSegmentLog.open(dir, { groupCommitMs: 1 });
      const records = await reopened.read(0, 0, 10);
      expect(records.map((r) => new TextDecoder().decode(r.payload))).toEqual(['a', 'bb', 'ccc', 'dddd']);
      await reopened.close();
      const file = await fs.readFile(path.join(dir, segmentFileName(0)));
      expect(file.readUInt32LE(old.length)).toBe(0x80000004); // the new frame is CRC-32
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
