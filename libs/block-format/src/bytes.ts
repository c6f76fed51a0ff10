import { internal } from '@quarry/common';

const textEncoder = new TextEncoder();

/** Growable little-endian byte buffer for encoding. */
export class ByteWriter {
  private buf: Uint8Array;
  private view: DataView;
  length = 0;

  constructor(initial = 1024) {
    this.buf = new Uint8Array(initial);
    this.view = new DataView(this.buf.buffer);
  }

  ensure(extra: number): void {
    const need = this.length + extra;
    if (need <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < need) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  u8(v: number): void {
    this.ensure(1);
    this.buf[this.length++] = v;
  }

  u32(v: number): void {
    this.ensure(4);
    this.view.setUint32(this.length, v, true);
    this.length += 4;
  }

  f64(v: number): void {
    this.ensure(8);
    this.view.setFloat64(this.length, v, true);
    this.length += 8;
  }

  /** The next `n` bytes of the buffer, to be filled by the caller (valid until the next write). */
  reserve(n: number): Uint8Array {
    this.ensure(n);
    const view = this.buf.subarray(this.length, this.length + n);
    this.length += n;
    return view;
  }

  bytes(b: Uint8Array): void {
    this.ensure(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
  }

  /** Unsigned LEB128 of a non-negative integer below 2^53 (float arithmetic, no BigInt). */
  varint(v: number): void {
    this.ensure(10); // 2^53 needs at most 8 groups of 7 bits
    let n = v;
    while (n >= 0x80) {
      this.buf[this.length++] = (n % 0x80) | 0x80;
      n = Math.floor(n / 0x80);
    }
    this.buf[this.length++] = n;
  }

  /**
   * Varint UTF-8 byte length, then the bytes (lone surrogates become U+FFFD, as with TextEncoder). Short
   * ASCII strings, most dictionary entries, are copied char by char without allocating: this runs once per
   * distinct string of every column at ingest and in the compactor.
   */
  lengthPrefixedUtf8(s: string): void {
    const n = s.length;
    if (n < 0x80) {
      this.ensure(1 + n);
      const buf = this.buf;
      const start = this.length + 1;
      let i = 0;
      for (; i < n; i++) {
        const c = s.charCodeAt(i);
        if (c >= 0x80) break;
        buf[start + i] = c;
      }
      if (i === n) {
        buf[this.length] = n;
        this.length = start + n;
        return;
      }
    }
    const bytes = textEncoder.encode(s);
    this.varint(bytes.length);
    this.bytes(bytes);
  }

  finish(): Uint8Array {
    return this.buf.subarray(0, this.length);
  }
}

/** Bounds-checked little-endian reader: running off the end is a `QuarryError('internal')`, never a RangeError. */
export class ByteReader {
  pos = 0;
  private readonly view: DataView;

  constructor(
    readonly buf: Uint8Array,
    private readonly what: string,
  ) {
    this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  }

  need(n: number): void {
    if (n < 0 || this.pos + n > this.buf.length) {
      throw internal(
        `corrupt block: ${this.what} ends early (need ${n} bytes at ${this.pos} of ${this.buf.length})`,
        {
          code: 'block_corrupt',
        },
      );
    }
  }

  u8(): number {
    this.need(1);
    return this.buf[this.pos++];
  }

  u32(): number {
    this.need(4);
    const v = this.view.getUint32(this.pos, true);
    this.pos += 4;
    return v;
  }

  f64(): number {
    this.need(8);
    const v = this.view.getFloat64(this.pos, true);
    this.pos += 8;
    return v;
  }

  /** Throws `block_corrupt` with this reader's context when `ok` is false. */
  check(ok: boolean, problem: string): void {
    if (!ok) this.fail(problem);
  }

  fail(problem: string): never {
    throw internal(`corrupt block: ${this.what} ${problem}`, { code: 'block_corrupt' });
  }

  bytes(n: number): Uint8Array {
    this.need(n);
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  varint(): number {
    let result = 0;
    let scale = 1;
    for (let i = 0; i < 8; i++) {
      const b = this.u8();
      result += (b & 0x7f) * scale;
      if ((b & 0x80) === 0) return result;
      scale *= 0x80;
    }
    throw internal(`corrupt block: ${this.what} has an over-long varint at ${this.pos}`, {
      code: 'block_corrupt',
    });
  }
}

/** Packs `flags[i] !== 0` into a bitmap, LSB first. */
export function packBits(flags: Uint8Array, n: number): Uint8Array {
  const out = new Uint8Array((n + 7) >>> 3);
  for (let i = 0; i < n; i++) if (flags[i] !== 0) out[i >>> 3] |= 1 << (i & 7);
  return out;
}

export function unpackBits(bits: Uint8Array, n: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = (bits[i >>> 3] >>> (i & 7)) & 1;
  return out;
}

/** Float64 values of a byte range, copied so the result is aligned (blocks are little-endian; so are hosts we run on). */
export function readF64(bytes: Uint8Array, n: number): Float64Array {
  // `new Uint8Array(view)` copies (Buffer#slice would not), giving a fresh buffer at offset 0.
  const copy = new Uint8Array(bytes.subarray(0, n * 8));
  return new Float64Array(copy.buffer, 0, n);
}

export function f64Bytes(values: Float64Array, n: number): Uint8Array {
  return new Uint8Array(values.buffer, values.byteOffset, n * 8);
}
