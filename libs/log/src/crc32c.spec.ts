import { crc32c } from './crc32c';
import { decodeFrame, encodeFrame, frameSize } from './frame';

describe('crc32c', () => {
  it('matches the standard check value and RFC 3720 vectors', () => {
    expect(crc32c(new TextEncoder().encode('123456789'))).toBe(0xe3069283);
    expect(crc32c(new Uint8Array(32))).toBe(0x8a9136aa);
    expect(crc32c(new Uint8Array(32).fill(0xff))).toBe(0x62a8ab43);
    expect(crc32c(Uint8Array.from({ length: 32 }, (_, i) => i))).toBe(0x46dd794e);
  });

  it('continues across ranges as if over one buffer', () => {
    const data = Uint8Array.from({ length: 1000 }, (_, i) => (i * 7) & 0xff);
    for (const cut of [0, 1, 7, 8, 9, 500, 999, 1000]) {
      expect(crc32c(data, cut, 1000, crc32c(data, 0, cut))).toBe(crc32c(data));
    }
  });
});

describe('frame', () => {
  const payload = new TextEncoder().encode('hello, log');
  const encode = (offset: number) => {
    const buf = new Uint8Array(frameSize(payload.length));
    encodeFrame(buf, 0, offset, payload);
    return buf;
  };

  it('round-trips', () => {
    const buf = encode(42);
    const frame = decodeFrame(buf, 0, buf.length, 42);
    expect(frame.ok && new TextDecoder().decode(buf.subarray(frame.payloadStart, frame.payloadEnd))).toBe(
      'hello, log',
    );
  });

  it('detects every single-bit flip, every truncation and a wrong offset', () => {
    const buf = encode(7);
    for (let i = 0; i < buf.length * 8; i++) {
      const copy = buf.slice();
      copy[i >> 3] ^= 1 << (i & 7);
      expect(decodeFrame(copy, 0, copy.length, 7).ok).toBe(false);
    }
    for (let n = 0; n < buf.length; n++) expect(decodeFrame(buf, 0, n, 7).ok).toBe(false);
    expect(decodeFrame(buf, 0, buf.length, 8)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/offset/),
    });
  });
});
