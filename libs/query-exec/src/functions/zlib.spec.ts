import fc from 'fast-check';
import { deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import {
  gzipCompressToBase64,
  gzipDecompressFromBase64,
  zlibCompressToBase64,
  zlibDecompressFromBase64,
} from './zlib';

describe('zlib_compress_to_base64_string / zlib_decompress_from_base64_string', () => {
  it('round-trip any text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 500 }), (text) => {
        // Lone surrogates have no UTF-8 form; Kusto strings are UTF-8, so compare what survives encoding.
        const utf8 = Buffer.from(text, 'utf8').toString('utf8');
        expect(zlibDecompressFromBase64(zlibCompressToBase64(text))).toBe(utf8);
      }),
    );
  });

  it('compress what compresses, and keep incompressible text stored', () => {
    const repetitive = 'abc'.repeat(1000);
    expect(Buffer.from(zlibCompressToBase64(repetitive), 'base64').length).toBeLessThan(100);
    const stored = Buffer.from(zlibCompressToBase64('1234567890qwertyuiop'), 'base64');
    expect(stored.subarray(0, 2)).toEqual(Buffer.from([0x78, 0x01]));
    expect(stored.length).toBe(2 + 5 + 20 + 4);
  });

  it('read zlib streams written elsewhere (Python zlib.compress at level 6 and 9)', () => {
    const text = 'Test string 123';
    for (const level of [1, 6, 9])
      expect(zlibDecompressFromBase64(deflateSync(text, { level }).toString('base64'))).toBe(text);
  });

  it('are null for text that is not base64 zlib of UTF-8', () => {
    const bad = [
      '',
      'x0x0x0',
      'eJwLSS0uUSguKcrMS1cwNDIGACxqBQ4', // missing padding
      deflateRawSync('no header').toString('base64'),
      gzipSync('gzip, not zlib').toString('base64'),
      deflateSync(Buffer.from([0xff, 0xfe, 0x00])).toString('base64'),
      deflateSync('truncated text').subarray(0, 8).toString('base64'),
    ];
    for (const b of bad) expect(zlibDecompressFromBase64(b)).toBeNull();
  });
});

describe('gzip_compress_to_base64_string / gzip_decompress_from_base64_string', () => {
  it('round-trip any text, with the header Kusto writes (no name, no time, OS 255)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 500 }), (text) => {
        const encoded = gzipCompressToBase64(text);
        const bytes = Buffer.from(encoded, 'base64');
        expect([...bytes.subarray(0, 10)]).toEqual([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
        expect(gzipDecompressFromBase64(encoded)).toBe(Buffer.from(text, 'utf8').toString('utf8'));
      }),
    );
  });

  it('refuse optional header fields, other methods, zlib streams and broken checksums', () => {
    const withName = gzipSync('named');
    withName[3] = 0x08; // FNAME set: the page says FLG must be zero
    expect(gzipDecompressFromBase64(withName.toString('base64'))).toBeNull();
    expect(gzipDecompressFromBase64(deflateSync('zlib').toString('base64'))).toBeNull();
    const corrupt = Buffer.from(gzipCompressToBase64('checksum'), 'base64');
    corrupt[corrupt.length - 5] ^= 0xff;
    expect(gzipDecompressFromBase64(corrupt.toString('base64'))).toBeNull();
    expect(gzipDecompressFromBase64('x0x0x0')).toBeNull();
  });
});
