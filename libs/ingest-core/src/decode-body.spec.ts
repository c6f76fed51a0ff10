import { gzipSync, deflateSync, deflateRawSync, brotliCompressSync, createGzip } from 'node:zlib';
import { QuarryError } from '@quarry/common';
import { decodeBody } from './decode-body';
import { processedBytesFor } from './processed-bytes';

// `printf '{"a":1,"_time":"2024-05-01T00:00:00Z"}\n{"b":"x"}\n' | zstd -c | base64`
const ZSTD_NDJSON = 'KLUv/QRYiQEAeyJhIjoxLCJfdGltZSI6IjIwMjQtMDUtMDFUMDA6MDA6MDBaIn0KeyJiIjoieCJ9Cu2tgq4=';
// `head -c 1048576 /dev/zero | zstd -19 -c | base64`: one 1 MiB frame; frames concatenate.
const ZSTD_1MIB_ZEROS = 'KLUv/QRoTAAACAABAPz/ORACAgAQAAIAEAACABAAAgAQAAIAEAACABAAAwAQAPE+FuE=';
const PLAIN = '{"a":1,"_time":"2024-05-01T00:00:00Z"}\n{"b":"x"}\n';

async function rejection(p: Promise<unknown>): Promise<QuarryError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(QuarryError);
    return err as QuarryError;
  }
  throw new Error('expected a rejection');
}

/** gzip of `size` zero bytes without ever holding them in memory. */
async function gzipOfZeros(size: number): Promise<Buffer> {
  const gz = createGzip({ level: 9 });
  const out: Buffer[] = [];
  gz.on('data', (c: Buffer) => out.push(c));
  const done = new Promise((r) => gz.on('end', r));
  const chunk = Buffer.alloc(1 << 20);
  for (let written = 0; written < size; written += chunk.length) {
    if (!gz.write(chunk)) await new Promise((r) => gz.once('drain', r));
  }
  gz.end();
  await done;
  return Buffer.concat(out);
}

describe('decodeBody', () => {
  const body = Buffer.from(PLAIN);

  it('passes identity through for an absent, empty or "identity" encoding', async () => {
    expect(await decodeBody(body, undefined)).toBe(body);
    expect(await decodeBody(body, '')).toBe(body);
    expect(await decodeBody(body, ' Identity ')).toBe(body);
  });

  it('decodes gzip, deflate (zlib and raw), brotli and zstd', async () => {
    expect((await decodeBody(gzipSync(body), 'gzip')).toString()).toBe(PLAIN);
    expect((await decodeBody(gzipSync(body), 'GZIP')).toString()).toBe(PLAIN);
    expect((await decodeBody(deflateSync(body), 'deflate')).toString()).toBe(PLAIN);
    expect((await decodeBody(deflateRawSync(body), 'deflate')).toString()).toBe(PLAIN);
    expect((await decodeBody(brotliCompressSync(body), 'br')).toString()).toBe(PLAIN);
    expect((await decodeBody(Buffer.from(ZSTD_NDJSON, 'base64'), 'zstd')).toString()).toBe(PLAIN);
  });

  it('decodes multi-member gzip and multi-frame zstd', async () => {
    const twice = Buffer.concat([gzipSync(body), gzipSync(body)]);
    expect((await decodeBody(twice, 'gzip')).toString()).toBe(PLAIN + PLAIN);
    const frames = Buffer.concat([Buffer.from(ZSTD_NDJSON, 'base64'), Buffer.from(ZSTD_NDJSON, 'base64')]);
    expect((await decodeBody(frames, 'zstd')).toString()).toBe(PLAIN + PLAIN);
  });

  it('refuses unknown encodings with 415', async () => {
    const err = await rejection(decodeBody(body, 'compress'));
    expect(err.kind).toBe('unsupported_media_type');
    expect(err.message).toMatch(/unsupported Content-Encoding "compress"; supported: identity, gzip, zstd/);
  });

  it('turns corrupt data into invalid', async () => {
    const gz = gzipSync(body);
    expect((await rejection(decodeBody(gz.subarray(0, gz.length - 9), 'gzip'))).kind).toBe('invalid');
    expect((await rejection(decodeBody(Buffer.from('not gzip at all'), 'gzip'))).message).toMatch(
      /corrupt gzip body/,
    );
    expect((await rejection(decodeBody(Buffer.from('not zstd at all'), 'zstd'))).message).toMatch(
      /corrupt zstd body/,
    );
    const zs = Buffer.from(ZSTD_NDJSON, 'base64');
    expect((await rejection(decodeBody(zs.subarray(0, 20), 'zstd'))).kind).toBe('invalid');
    expect((await rejection(decodeBody(Buffer.from('xx'), 'deflate'))).kind).toBe('invalid');
  });

  it('refuses bodies over the compressed and decompressed limits with 413', async () => {
    expect((await rejection(decodeBody(Buffer.alloc(101), '', { maxCompressedBytes: 100 }))).kind).toBe(
      'too_large',
    );
    expect((await rejection(decodeBody(Buffer.alloc(101), '', { maxDecompressedBytes: 100 }))).kind).toBe(
      'too_large',
    );
    const err = await rejection(
      decodeBody(gzipSync(Buffer.alloc(5000)), 'gzip', { maxDecompressedBytes: 4096 }),
    );
    expect(err.kind).toBe('too_large');
    expect(err.message).toMatch(/exceeds the limit of 4096 bytes/);
  });

  // How fast a bomb is refused is measured outside unit tests (timings never decide one); here: refused, bounded.
  it('stops a gzip bomb (300 MB of zeros) with bounded memory', async () => {
    const bomb = await gzipOfZeros(300 * 1024 * 1024);
    expect(bomb.length).toBeLessThan(400_000);
    const before = process.memoryUsage().rss;
    const err = await rejection(decodeBody(bomb, 'gzip'));
    expect(err.kind).toBe('too_large');
    // gzip tops out near 1030:1, so this bomb is stopped by the 256 MiB absolute cap: memory stays bounded by it.
    expect(process.memoryUsage().rss - before).toBeLessThan(400 * 1024 * 1024);
  }, 30_000);

  it('stops a gzip bomb at the absolute cap when the ratio cap is off', async () => {
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024));
    const err = await rejection(
      decodeBody(bomb, 'gzip', { maxDecompressionRatio: 0, maxDecompressedBytes: 8 * 1024 * 1024 }),
    );
    expect(err.message).toMatch(/exceeds the limit of 8388608 bytes/);
  });

  it('stops a zstd bomb (300 MiB from 300 concatenated frames) at the ratio cap', async () => {
    const frame = Buffer.from(ZSTD_1MIB_ZEROS, 'base64');
    const bomb = Buffer.concat(new Array(300).fill(frame));
    const err = await rejection(decodeBody(bomb, 'zstd'));
    expect(err.kind).toBe('too_large');
    expect(err.message).toMatch(/times its compressed size/);
    // With the ratio cap off, the absolute cap applies.
    const err2 = await rejection(
      decodeBody(bomb, 'zstd', { maxDecompressionRatio: 0, maxDecompressedBytes: 20 << 20 }),
    );
    expect(err2.message).toMatch(/exceeds the limit of 20971520 bytes/);
  });

  it('lets small, very compressible bodies through (ratio cap starts after ratioFreeBytes)', async () => {
    const out = await decodeBody(gzipSync(Buffer.alloc(512 * 1024)), 'gzip');
    expect(out.length).toBe(512 * 1024);
  });
});

describe('processedBytesFor', () => {
  it('counts the decoded body plus the labels header (api.md §3.3)', () => {
    expect(processedBytesFor(Buffer.alloc(543), '{"region":"eu-west-1"}')).toBe(565);
    expect(processedBytesFor(Buffer.alloc(258), undefined)).toBe(258);
    expect(processedBytesFor(Buffer.alloc(10), '{"c":"é"}')).toBe(10 + 10);
  });
});
