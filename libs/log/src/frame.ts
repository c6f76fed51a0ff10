import { crc32c } from './crc32c';

/**
 * On-disk record frame of the segment log (all integers little-endian):
 *
 * ```
 *   0  u32  payload length (bytes)
 *   4  u32  CRC-32C over bytes [0,4) ++ [8, 16 + length)  (length, offset and payload; not itself)
 *   8  u64  record offset (absolute, so a misplaced or stale frame is detected, not just a torn one)
 *  16  ...  payload
 * ```
 *
 * The offset is stored although it is implied by position: a frame that passes its CRC but carries the
 * wrong offset (a stale tail left by a truncate that did not persist, a segment copied by hand) is a
 * corruption we want to see, not silently renumber.
 */
export const FRAME_HEADER_BYTES = 16;

/** Hard cap on one payload. A length field above it is treated as corruption when scanning. */
export const MAX_PAYLOAD_BYTES = 256 * 1024 * 1024;

export function frameSize(payloadLength: number): number {
  return FRAME_HEADER_BYTES + payloadLength;
}

/** Writes one frame at `at` in `out` (which must have room) and returns the position after it. */
export function encodeFrame(out: Uint8Array, at: number, offset: number, payload: Uint8Array): number {
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  view.setUint32(at, payload.length, true);
  view.setBigUint64(at + 8, BigInt(offset), true);
  out.set(payload, at + FRAME_HEADER_BYTES);
  const end = at + FRAME_HEADER_BYTES + payload.length;
  view.setUint32(at + 4, frameCrc(out, at, end), true);
  return end;
}

function frameCrc(buf: Uint8Array, frameStart: number, frameEnd: number): number {
  const c = crc32c(buf, frameStart, frameStart + 4);
  return crc32c(buf, frameStart + 8, frameEnd, c);
}

export type DecodeResult =
  | { ok: true; offset: number; payloadStart: number; payloadEnd: number; next: number }
  /** `reason` is for the error message / log line. */
  | { ok: false; reason: string };

/**
 * Decodes the frame at `at`. A frame that is incomplete, over-long, has a bad CRC or an offset other than
 * `expectedOffset` is reported as not ok; the caller decides whether that is a torn tail or corruption.
 */
export function decodeFrame(buf: Uint8Array, at: number, end: number, expectedOffset: number): DecodeResult {
  if (end - at < FRAME_HEADER_BYTES) return { ok: false, reason: `incomplete header at byte ${at}` };
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const length = view.getUint32(at, true);
  if (length > MAX_PAYLOAD_BYTES) return { ok: false, reason: `implausible length ${length} at byte ${at}` };
  const frameEnd = at + FRAME_HEADER_BYTES + length;
  if (frameEnd > end) return { ok: false, reason: `incomplete payload at byte ${at}` };
  const stored = view.getUint32(at + 4, true);
  if (stored !== frameCrc(buf, at, frameEnd)) return { ok: false, reason: `CRC mismatch at byte ${at}` };
  const offset = Number(view.getBigUint64(at + 8, true));
  if (offset !== expectedOffset) {
    return { ok: false, reason: `offset ${offset} where ${expectedOffset} was expected at byte ${at}` };
  }
  return { ok: true, offset, payloadStart: at + FRAME_HEADER_BYTES, payloadEnd: frameEnd, next: frameEnd };
}
