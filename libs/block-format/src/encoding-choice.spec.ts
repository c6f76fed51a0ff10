import { crc32 } from 'node:zlib';
import { QuarryError } from '@quarry/common';
import { type Column, type ColumnBatch, columnFromValues, valueAt } from '@quarry/contracts';
import { ByteWriter } from './bytes';
import { decodeBlock } from './decode-block';
import { encodeBlock, type EncodeOptions } from './encode-block';
import { readFooter } from './footer';
import { FOOTER_TRAILER_BYTES, MAGIC } from './format';

/** Targeted columns, each of which should get one particular layout, and must come back the same. */
const N = 5000;
const T0 = Date.UTC(2024, 4, 1);
const hex = (i: number, len: number) =>
  Array.from({ length: len }, (_, j) =>
    ((Math.imul(i + 1, 2654435761) >>> ((j % 8) * 4)) & 15).toString(16),
  ).join('');
const words = ['request', 'served', 'user', 'cache', 'miss', 'hit', 'upstream', 'latency', 'retry', 'ok'];

function columns(n: number): Record<string, Column> {
  return {
    sysTime: columnFromValues(Array(n).fill(T0 + 123.456), 'datetime'),
    time: columnFromValues(
      Array.from({ length: n }, (_, i) => T0 + i * 17 + (i % 5)),
      'datetime',
    ),
    duration: columnFromValues(Array.from({ length: n }, (_, i) => ((i * 7919) % 2_000_000) / 1000)),
    bytes: columnFromValues(Array.from({ length: n }, (_, i) => (i * 7919) % 50_000)),
    wide: columnFromValues(Array.from({ length: n }, (_, i) => (i % 2 ? 1 : -1) * (2 ** 52 - i))),
    float: columnFromValues(Array.from({ length: n }, (_, i) => Math.sqrt(i + 2))),
    runs: columnFromValues(Array.from({ length: n }, (_, i) => Math.floor(i / 1000) * 1e9)),
    flag: columnFromValues(Array.from({ length: n }, (_, i) => (i * 7) % 10 < 8)),
    sortedFlag: columnFromValues(Array.from({ length: n }, (_, i) => i > n / 3)),
    method: columnFromValues(Array.from({ length: n }, (_, i) => ['GET', 'POST', 'PUT'][(i * 7) % 3])),
    sortedCity: columnFromValues(
      Array.from({ length: n }, (_, i) => ['Berlin', 'Paris', 'Tokyo'][Math.floor((i * 3) / n)]),
    ),
    id: columnFromValues(Array.from({ length: n }, (_, i) => hex(i, 16) + hex(i * 3, 16))),
    traceUpper: columnFromValues(
      Array.from({ length: n }, (_, i) => (i % 9 === 0 ? null : hex(i, 16).toUpperCase())),
    ),
    uuid: columnFromValues(
      Array.from({ length: n }, (_, i) => {
        const h = hex(i, 8) + hex(i + 7, 8) + hex(i + 99, 8) + hex(i * 5, 8);
        return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
      }),
    ),
    message: columnFromValues(
      Array.from({ length: n }, (_, i) =>
        Array.from(
          { length: 6 + (i % 9) },
          (_, j) => words[(i * 31 + j * 7 + ((i * j) % 3)) % words.length],
        ).join(' '),
      ),
    ),
    uri: columnFromValues(Array.from({ length: n }, (_, i) => `/api/v1/items/${(i * 7) % 300}`)),
    json: columnFromValues(Array.from({ length: n }, (_, i) => (i % 3 ? { a: i } : [i]))),
  };
}

const EXPECTED: Record<string, [string, string | undefined]> = {
  sysTime: ['ints', 'for/e3'], // constant: width 0
  time: ['ints', 'delta'],
  duration: ['ints', 'for/e3'],
  bytes: ['ints', 'for'],
  wide: ['ints', 'for'], // 53 bits
  float: ['plain-f64', undefined],
  runs: ['ints', 'rle'],
  flag: ['ints', 'for'], // a bitmap
  sortedFlag: ['ints', 'rle'],
  method: ['strings', 'plain/for'],
  sortedCity: ['strings', 'plain/rle'],
  id: ['strings', 'hex/identity'],
  traceUpper: ['strings', 'hex/identity'],
  uuid: ['strings', 'uuid/identity'],
  message: ['strings', 'tokens/for'],
  uri: ['strings', 'plain/for'],
  json: ['json', undefined],
};

function batch(n: number): ColumnBatch {
  return { length: n, columns: new Map(Object.entries(columns(n))) };
}

function rows(col: Column): unknown[] {
  const n = col.kind === 'string' ? col.codes.length : col.values.length;
  return Array.from({ length: n }, (_, i) => valueAt(col, i));
}

describe('layout choice', () => {
  const n = N;
  const input = batch(n);
  const bytes = encodeBlock(input);
  const footer = readFooter(bytes);

  it.each(Object.entries(EXPECTED))('%s gets %s %s and round-trips', (name, [encoding, layout]) => {
    const meta = footer.columns.find((c) => c.name === name)!;
    expect([meta.encoding, meta.layout]).toEqual([encoding, layout]);
    expect(rows(decodeBlock(bytes, [name]).columns.get(name)!)).toEqual(rows(input.columns.get(name)!));
  });

  it('is small where the layout pays', () => {
    const bytesPerRow = (name: string) => {
      const meta = footer.columns.find((c) => c.name === name)!;
      return meta.length / n;
    };
    expect(bytesPerRow('sysTime')).toBeLessThan(0.01);
    expect(bytesPerRow('sortedFlag')).toBeLessThan(0.01);
    expect(bytesPerRow('runs')).toBeLessThan(0.01);
    expect(bytesPerRow('id')).toBeLessThan(16.5); // 16 random bytes
    expect(bytesPerRow('uuid')).toBeLessThan(16.5);
    expect(bytesPerRow('duration')).toBeLessThan(2.7); // 21 bits
    expect(bytesPerRow('wide')).toBeLessThan(6.7); // 53 bits
  });

  it('the fast preset writes plain strings and frame-of-reference integers, uncompressed, without filters', () => {
    const fast = readFooter(encodeBlock(input, { preset: 'fast' }));
    for (const meta of fast.columns) {
      expect(meta.compression).toBe('none');
      expect(meta.filterLength).toBeUndefined();
      if (meta.encoding === 'ints') expect(meta.layout).toMatch(/^for/);
      if (meta.encoding === 'strings') expect(meta.layout).toMatch(/^plain\/(for|identity)$/);
    }
  });

  it('options override the preset', () => {
    const options: EncodeOptions = { preset: 'fast', compression: 'zstd', tokenFilters: true };
    const custom = readFooter(encodeBlock(input, options));
    expect(custom.columns.some((c) => c.compression === 'zstd')).toBe(true);
    expect(custom.columns.find((c) => c.name === 'message')!.filterLength).toBeGreaterThan(0);
    const off = readFooter(encodeBlock(input, { tokenFilters: false, compression: 'none' }));
    expect(off.columns.every((c) => c.filterLength === undefined && c.compression === 'none')).toBe(true);
  });
});

/** The block with one column's raw (uncompressed) chunk changed, its CRC and the footer made consistent. */
function withChunk(bytes: Uint8Array, name: string, change: (payload: Uint8Array) => Uint8Array): Uint8Array {
  const footer = readFooter(bytes);
  const meta = footer.columns.find((c) => c.name === name)!;
  const chunk = change(bytes.slice(meta.offset, meta.offset + meta.length));
  const delta = chunk.length - meta.length;
  const out = new ByteWriter(bytes.length + 64);
  out.bytes(bytes.subarray(0, meta.offset));
  out.bytes(chunk);
  const footerStart =
    bytes.length - FOOTER_TRAILER_BYTES - new DataView(bytes.buffer).getUint32(bytes.length - 12, true);
  out.bytes(bytes.subarray(meta.offset + meta.length, footerStart));
  for (const c of footer.columns) {
    if (c.offset > meta.offset) c.offset += delta;
    if (c.filterOffset !== undefined && c.filterOffset > meta.offset) c.filterOffset += delta;
  }
  Object.assign(meta, { length: chunk.length, rawLength: chunk.length, crc32: crc32(chunk) });
  const json = new TextEncoder().encode(JSON.stringify(footer));
  out.bytes(json);
  out.u32(json.length);
  out.u32(crc32(json));
  out.bytes(MAGIC);
  return out.finish();
}

describe('corrupt v2 chunks behind a valid checksum', () => {
  const input = batch(400);
  const bytes = encodeBlock(input, { compression: 'none', tokenFilters: false });

  it.each(Object.keys(EXPECTED))(
    '%s: any changed byte decodes the same or fails as block_corrupt naming it',
    (name) => {
      const meta = readFooter(bytes).columns.find((c) => c.name === name)!;
      const original = rows(input.columns.get(name)!);
      // Every byte of small chunks; a spread of bytes (headers first) of large ones.
      const step = Math.max(1, Math.floor(meta.length / 300));
      for (let at = 0; at < meta.length; at += at < 64 ? 1 : step) {
        for (const flip of [0x01, 0x80, 0xff]) {
          const damaged = withChunk(bytes, name, (p) => {
            p[at] ^= flip;
            return p;
          });
          try {
            const col = decodeBlock(damaged, [name]).columns.get(name)!;
            // Some bytes do not matter (values of null rows, padding bits): then the data is the same.
            if (JSON.stringify(rows(col)) !== JSON.stringify(original)) {
              // ...or a changed value is still a valid one: fine for a checksum-protected format, as long as
              // nothing crashed. Only the shape must hold.
              expect(col.kind).toBe(input.columns.get(name)!.kind);
            }
          } catch (err) {
            expect(err).toBeInstanceOf(QuarryError);
            expect((err as QuarryError).code).toBe('block_corrupt');
            expect((err as QuarryError).message).toContain(`"${name}"`);
          }
        }
      }
      // Truncated and extended payloads.
      for (const cut of [0, 1, 2, meta.length >> 1, meta.length - 1]) {
        const damaged = withChunk(bytes, name, (p) => p.subarray(0, cut));
        expect(() => decodeBlock(damaged, [name])).toThrow(
          expect.objectContaining({ code: 'block_corrupt' }),
        );
      }
    },
  );

  it('a zstd chunk that does not decompress to its raw length is block_corrupt naming the column', () => {
    const zbytes = encodeBlock(batch(N));
    const meta = readFooter(zbytes).columns.find((c) => c.name === 'message')!;
    expect(meta.compression).toBe('zstd');
    const damaged = withChunk(zbytes, 'message', (p) => {
      p[p.length >> 1] ^= 0x55;
      return p;
    });
    // withChunk also set rawLength to the stored length: both damages at once.
    expect(() => decodeBlock(damaged, ['message'])).toThrow(/corrupt block: chunk of column "message"/);
  });
});
