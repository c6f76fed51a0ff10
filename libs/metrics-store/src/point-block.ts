import { internal } from '@quarry/common';
import type { HistogramPoint, MetricTags } from '@quarry/contracts';

/**
 * Columnar point blocks (format "QMB1"). One block holds the points of several series of one metric:
 *
 *   "QMB1" | u32 header length | header JSON {v, metric, series: [{id, kind, n, tags}]} | series bodies
 *
 * A series body is its `n` times as zigzag varint deltas (first delta from 0), then either `n` float64
 * values (scalar) or, per histogram point: count, sum, min, max (float64, NaN = absent), a varint bucket
 * bound count `b`, `b` float64 bounds and `b + 1` float64 counts. Times are sorted and unique per series.
 */
export type BlockSeries =
  | { id: string; tags: MetricTags; kind: 'scalar'; times: number[]; values: number[] }
  | { id: string; tags: MetricTags; kind: 'histogram'; times: number[]; points: HistogramPoint[] };

export interface DecodedBlock {
  metric: string;
  series: BlockSeries[];
  /** Approximate decoded size, for the block cache. */
  byteLength: number;
}

const MAGIC = [0x51, 0x4d, 0x42, 0x31]; // QMB1

class ByteWriter {
  private buf = new Uint8Array(1024);
  private view = new DataView(this.buf.buffer);
  length = 0;

  private ensure(extra: number): void {
    if (this.length + extra <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.length + extra) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }
  bytes(b: Uint8Array): void {
    this.ensure(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
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
  /** Unsigned varint for values up to 2^53. */
  varint(v: number): void {
    this.ensure(10);
    while (v >= 0x80) {
      this.buf[this.length++] = (v % 0x80) | 0x80;
      v = Math.floor(v / 0x80);
    }
    this.buf[this.length++] = v;
  }
  finish(): Uint8Array {
    return this.buf.slice(0, this.length);
  }
}

class ByteReader {
  private readonly view: DataView;
  pos = 0;
  constructor(private readonly buf: Uint8Array) {
    this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  }
  u32(): number {
    const v = this.view.getUint32(this.pos, true);
    this.pos += 4;
    return v;
  }
  f64(): number {
    const v = this.view.getFloat64(this.pos, true);
    this.pos += 8;
    return v;
  }
  varint(): number {
    let result = 0;
    let scale = 1;
    for (;;) {
      if (this.pos >= this.buf.length) throw internal('metrics block is truncated');
      const byte = this.buf[this.pos++];
      result += (byte & 0x7f) * scale;
      if (byte < 0x80) return result;
      scale *= 0x80;
    }
  }
  slice(n: number): Uint8Array {
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }
}

const zigzag = (n: number): number => (n >= 0 ? n * 2 : -n * 2 - 1);
const unzigzag = (n: number): number => (n % 2 === 0 ? n / 2 : -(n + 1) / 2);
const orNaN = (v: number | null): number => (v === null ? NaN : v);
const orNull = (v: number): number | null => (Number.isNaN(v) ? null : v);

export function encodePointBlock(metric: string, series: readonly BlockSeries[]): Uint8Array {
  const header = JSON.stringify({
    v: 1,
    metric,
    series: series.map((s) => ({ id: s.id, kind: s.kind, n: s.times.length, tags: s.tags })),
  });
  const w = new ByteWriter();
  w.bytes(Uint8Array.from(MAGIC));
  const headerBytes = new TextEncoder().encode(header);
  w.u32(headerBytes.length);
  w.bytes(headerBytes);
  for (const s of series) {
    let previous = 0;
    for (const t of s.times) {
      w.varint(zigzag(t - previous));
      previous = t;
    }
    if (s.kind === 'scalar') for (const v of s.values) w.f64(v);
    else
      for (const p of s.points) {
        w.f64(p.count);
        w.f64(p.sum);
        w.f64(orNaN(p.min));
        w.f64(orNaN(p.max));
        w.varint(p.bounds.length);
        for (const b of p.bounds) w.f64(b);
        for (let i = 0; i <= p.bounds.length; i++) w.f64(p.counts[i] ?? 0);
      }
  }
  return w.finish();
}

/** One series of a block: its header entry and where its body lies in the block bytes. */
export interface BlockEntry {
  id: string;
  kind: 'scalar' | 'histogram';
  n: number;
  tags: MetricTags;
  /** Byte offset of the series body. */
  offset: number;
}

/** A block's header with body offsets: lets a read decode only the series it selected. */
export interface BlockIndex {
  metric: string;
  series: BlockEntry[];
  /** Approximate in-memory size, for the block cache. */
  byteLength: number;
}

/** Parses the header and finds every series body (skipping bodies reads only their varint bytes). */
export function indexPointBlock(bytes: Uint8Array): BlockIndex {
  const r = new ByteReader(bytes);
  const magic = r.slice(4);
  if (MAGIC.some((b, i) => magic[i] !== b)) throw internal('not a metrics point block (bad magic)');
  const headerLength = r.u32();
  const header = JSON.parse(new TextDecoder().decode(r.slice(headerLength))) as {
    v: number;
    metric: string;
    series: { id: string; kind: 'scalar' | 'histogram'; n: number; tags: MetricTags }[];
  };
  if (header.v !== 1) throw internal(`unsupported metrics block version ${header.v}`);
  const series: BlockEntry[] = [];
  for (const h of header.series) {
    series.push({ id: h.id, kind: h.kind, n: h.n, tags: h.tags, offset: r.pos });
    for (let i = 0; i < h.n; i++) r.varint();
    if (h.kind === 'scalar') r.pos += 8 * h.n;
    else
      for (let i = 0; i < h.n; i++) {
        r.pos += 32; // count, sum, min, max
        const nb = r.varint();
        r.pos += 8 * (2 * nb + 1);
      }
  }
  if (r.pos > bytes.length) throw internal('metrics block is truncated');
  return { metric: header.metric, series, byteLength: 2 * headerLength + 64 * series.length };
}

/** Decodes the body of one series of a block. */
export function decodeBlockSeries(bytes: Uint8Array, entry: BlockEntry): BlockSeries {
  const r = new ByteReader(bytes);
  r.pos = entry.offset;
  const { id, tags, n } = entry;
  const times = new Array<number>(n);
  let t = 0;
  for (let i = 0; i < n; i++) {
    t += unzigzag(r.varint());
    times[i] = t;
  }
  if (entry.kind === 'scalar') {
    const values = new Array<number>(n);
    for (let i = 0; i < n; i++) values[i] = r.f64();
    return { id, tags, kind: 'scalar', times, values };
  }
  const points: HistogramPoint[] = [];
  for (let i = 0; i < n; i++) {
    const count = r.f64();
    const sum = r.f64();
    const min = orNull(r.f64());
    const max = orNull(r.f64());
    const nb = r.varint();
    const bounds: number[] = [];
    for (let b = 0; b < nb; b++) bounds.push(r.f64());
    const counts: number[] = [];
    for (let b = 0; b <= nb; b++) counts.push(r.f64());
    points.push({ time: times[i], count, sum, min, max, bounds, counts });
  }
  return { id, tags, kind: 'histogram', times, points };
}

/** Approximate in-memory size of a decoded series, for the block cache. */
export function decodedByteLength(series: BlockSeries): number {
  if (series.kind === 'scalar') return 64 + 16 * series.times.length;
  let bytes = 64 + 8 * series.times.length;
  for (const p of series.points) bytes += 96 + 16 * p.bounds.length;
  return bytes;
}

export function decodePointBlock(bytes: Uint8Array): DecodedBlock {
  const index = indexPointBlock(bytes);
  return {
    metric: index.metric,
    series: index.series.map((entry) => decodeBlockSeries(bytes, entry)),
    byteLength: bytes.byteLength * 2,
  };
}
