/**
 * A small MaxMind DB (`.mmdb`) writer for tests: geo_info_from_ip_address reads real databases, and the
 * tests cannot download GeoLite2. It follows the public "MaxMind DB File Format Specification" (v2.0):
 *
 *   [binary search tree][16 zero bytes][data section]["\xAB\xCD\xEFMaxMind.com"][metadata map]
 *
 * - The tree is an IPv6 tree (ip_version 6); IPv4 networks live at `::a.b.c.d/(96 + prefix)`, which is where
 *   readers start an IPv4 lookup (they walk 96 zero bits from the root).
 * - A node is two records (left = bit 0, right = bit 1) of 24, 28 or 32 bits. A record below node_count is
 *   a node number, equal to node_count means "no data", above it points into the data section at
 *   `record - node_count - 16`.
 * - Data fields: a control byte (3 bits of type, 5 of size), an extended-type byte for types over 7, then
 *   the size extension bytes (29 + 1 byte, 285 + 2 bytes, 65821 + 3 bytes).
 *
 * Only what tests need: no pointers inside the data section (identical records are still shared), no
 * IPv4-only trees. Later networks override earlier ones where they overlap.
 */

/** An unsigned integer of an explicit MaxMind type (plain JS numbers are written as doubles). */
export class MmdbUint {
  constructor(
    readonly bits: 16 | 32 | 64,
    readonly value: number | bigint,
  ) {}
}

export const uint16 = (n: number): MmdbUint => new MmdbUint(16, n);
export const uint32 = (n: number): MmdbUint => new MmdbUint(32, n);
export const uint64 = (n: number | bigint): MmdbUint => new MmdbUint(64, n);

export type MmdbValue = string | number | boolean | MmdbUint | MmdbValue[] | { [key: string]: MmdbValue };

export interface MmdbNetwork {
  /** `a.b.c.d/n` or an IPv6 CIDR (`2a03:2880::/32`). */
  cidr: string;
  data: MmdbValue;
}

export interface MmdbWriterOptions {
  databaseType?: string;
  /** Forces a record size; by default the smallest of 24/28/32 that fits. */
  recordSize?: 24 | 28 | 32;
  buildEpoch?: number;
  description?: Record<string, string>;
  languages?: string[];
}

const TYPE_POINTER = 1;
const TYPE_UTF8 = 2;
const TYPE_DOUBLE = 3;
const TYPE_UINT16 = 5;
const TYPE_UINT32 = 6;
const TYPE_MAP = 7;
const TYPE_UINT64 = 9;
const TYPE_ARRAY = 11;
const TYPE_BOOLEAN = 14;

export const METADATA_MARKER = Buffer.concat([Buffer.from([0xab, 0xcd, 0xef]), Buffer.from('MaxMind.com')]);
const DATA_SEPARATOR = 16;

/** Encodes one value of the data section (also used for the metadata map). */
export function encodeMmdbValue(value: MmdbValue): Buffer {
  const parts: Buffer[] = [];
  write(value, parts);
  return Buffer.concat(parts);
}

function write(value: MmdbValue, out: Buffer[]): void {
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    out.push(control(TYPE_UTF8, bytes.length), bytes);
  } else if (typeof value === 'number') {
    const bytes = Buffer.alloc(8);
    bytes.writeDoubleBE(value);
    out.push(control(TYPE_DOUBLE, 8), bytes);
  } else if (typeof value === 'boolean') {
    // The size carries the value; there is no payload.
    out.push(control(TYPE_BOOLEAN, value ? 1 : 0));
  } else if (value instanceof MmdbUint) {
    const bytes = uintBytes(value);
    const type = value.bits === 16 ? TYPE_UINT16 : value.bits === 32 ? TYPE_UINT32 : TYPE_UINT64;
    out.push(control(type, bytes.length), bytes);
  } else if (Array.isArray(value)) {
    out.push(control(TYPE_ARRAY, value.length));
    for (const item of value) write(item, out);
  } else {
    const entries = Object.entries(value);
    out.push(control(TYPE_MAP, entries.length));
    for (const [key, item] of entries) {
      write(key, out);
      write(item, out);
    }
  }
}

/** Big-endian bytes of an unsigned integer, without leading zero bytes (zero is zero bytes long). */
function uintBytes(u: MmdbUint): Buffer {
  let n = BigInt(u.value);
  if (n < 0n || n >= 1n << BigInt(u.bits)) throw new Error(`uint${u.bits} out of range: ${n}`);
  const bytes: number[] = [];
  while (n > 0n) {
    bytes.unshift(Number(n & 0xffn));
    n >>= 8n;
  }
  return Buffer.from(bytes);
}

function control(type: number, size: number): Buffer {
  if (type === TYPE_POINTER) throw new Error('pointers are not written');
  const head: number[] = [];
  let sizeBits: number;
  const extra: number[] = [];
  if (size < 29) {
    sizeBits = size;
  } else if (size < 285) {
    sizeBits = 29;
    extra.push(size - 29);
  } else if (size < 65821) {
    sizeBits = 30;
    const rest = size - 285;
    extra.push(rest >> 8, rest & 0xff);
  } else {
    sizeBits = 31;
    const rest = size - 65821;
    extra.push((rest >> 16) & 0xff, (rest >> 8) & 0xff, rest & 0xff);
  }
  if (type <= 7) {
    head.push((type << 5) | sizeBits);
  } else {
    head.push(sizeBits, type - 7);
  }
  return Buffer.from([...head, ...extra]);
}

/** The 128 bits of an IPv6 address (IPv4 as `::a.b.c.d`) and the prefix length in the IPv6 tree. */
export function parseCidr(cidr: string): { bits: Uint8Array; prefix: number } {
  const slash = cidr.indexOf('/');
  if (slash < 0) throw new Error(`not a CIDR: ${cidr}`);
  const address = cidr.slice(0, slash);
  const prefix = Number(cidr.slice(slash + 1));
  const bytes = new Uint8Array(16);
  let treePrefix: number;
  if (address.includes(':')) {
    bytes.set(ipv6Bytes(address));
    treePrefix = prefix;
    if (!Number.isInteger(prefix) || prefix < 1 || prefix > 128) throw new Error(`bad prefix: ${cidr}`);
  } else {
    bytes.set(ipv4Bytes(address), 12);
    treePrefix = 96 + prefix;
    if (!Number.isInteger(prefix) || prefix < 1 || prefix > 32) throw new Error(`bad prefix: ${cidr}`);
  }
  const bits = new Uint8Array(128);
  for (let i = 0; i < 128; i++) bits[i] = (bytes[i >> 3] >> (7 - (i & 7))) & 1;
  return { bits, prefix: treePrefix };
}

function ipv4Bytes(address: string): number[] {
  const parts = address.split('.').map(Number);
  if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p < 0 || p > 255)) {
    throw new Error(`bad IPv4 address: ${address}`);
  }
  return parts;
}

function ipv6Bytes(address: string): number[] {
  const [head, tail] = address.includes('::') ? address.split('::') : [address, undefined];
  const groups = (s: string): number[] => (s === '' ? [] : s.split(':').map((g) => parseInt(g, 16)));
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const zeros = tail === undefined ? 0 : 8 - left.length - right.length;
  const all = [...left, ...new Array<number>(zeros).fill(0), ...right];
  if (all.length !== 8 || all.some((g) => !Number.isInteger(g) || g < 0 || g > 0xffff)) {
    throw new Error(`bad IPv6 address: ${address}`);
  }
  return all.flatMap((g) => [g >> 8, g & 0xff]);
}

interface TreeNode {
  children: [Child, Child];
}
/** null: no data; number: index of a record in the data list; TreeNode: deeper node. */
type Child = TreeNode | number | null;

/** Builds the bytes of an IPv6 MaxMind DB holding `networks` (later ones win where they overlap). */
export function writeMmdb(networks: readonly MmdbNetwork[], options: MmdbWriterOptions = {}): Buffer {
  // Data section: one encoding per distinct record.
  const offsets: number[] = [];
  const encodedByKey = new Map<string, number>();
  const blobs: Buffer[] = [];
  let dataSize = 0;
  const root: TreeNode = { children: [null, null] };
  for (const network of networks) {
    const encoded = encodeMmdbValue(network.data);
    const key = encoded.toString('hex');
    let index = encodedByKey.get(key);
    if (index === undefined) {
      index = offsets.length;
      offsets.push(dataSize);
      blobs.push(encoded);
      dataSize += encoded.length;
      encodedByKey.set(key, index);
    }
    const { bits, prefix } = parseCidr(network.cidr);
    insert(root, bits, prefix, index);
  }

  // Number the nodes breadth-first; the root is node 0.
  const nodes: TreeNode[] = [root];
  const numbers = new Map<TreeNode, number>([[root, 0]]);
  for (let i = 0; i < nodes.length; i++) {
    for (const child of nodes[i].children) {
      if (child !== null && typeof child === 'object') {
        numbers.set(child, nodes.length);
        nodes.push(child);
      }
    }
  }
  const nodeCount = nodes.length;
  const maxRecord = nodeCount + DATA_SEPARATOR + dataSize;
  const recordSize = options.recordSize ?? (maxRecord < 2 ** 24 ? 24 : maxRecord < 2 ** 28 ? 28 : 32);
  if (maxRecord >= 2 ** recordSize) throw new Error(`record size ${recordSize} cannot hold ${maxRecord}`);

  const record = (child: Child): number => {
    if (child === null) return nodeCount;
    if (typeof child === 'number') return nodeCount + DATA_SEPARATOR + offsets[child];
    return numbers.get(child) as number;
  };
  const nodeBytes = recordSize / 4;
  const tree = Buffer.alloc(nodeCount * nodeBytes);
  for (let i = 0; i < nodeCount; i++) {
    writeNode(tree, i * nodeBytes, recordSize, record(nodes[i].children[0]), record(nodes[i].children[1]));
  }

  const metadata = encodeMmdbValue({
    node_count: uint32(nodeCount),
    record_size: uint16(recordSize),
    ip_version: uint16(6),
    database_type: options.databaseType ?? 'GeoLite2-City',
    languages: options.languages ?? ['en'],
    binary_format_major_version: uint16(2),
    binary_format_minor_version: uint16(0),
    build_epoch: uint64(options.buildEpoch ?? 1_700_000_000),
    description: options.description ?? { en: 'Quarry test database' },
  });
  return Buffer.concat([tree, Buffer.alloc(DATA_SEPARATOR), ...blobs, METADATA_MARKER, metadata]);
}

function insert(root: TreeNode, bits: Uint8Array, prefix: number, data: number): void {
  let node = root;
  for (let depth = 0; depth < prefix - 1; depth++) {
    const bit = bits[depth];
    const child = node.children[bit];
    if (child !== null && typeof child === 'object') {
      node = child;
      continue;
    }
    // An empty or data record above the new network becomes a node whose two halves keep what it had.
    const split: TreeNode = { children: [child, child] };
    node.children[bit] = split;
    node = split;
  }
  node.children[bits[prefix - 1]] = data;
}

function writeNode(buf: Buffer, at: number, recordSize: number, left: number, right: number): void {
  if (recordSize === 24) {
    buf.writeUIntBE(left, at, 3);
    buf.writeUIntBE(right, at + 3, 3);
  } else if (recordSize === 28) {
    // The middle byte holds the top 4 bits of the left record (high nibble) and of the right (low nibble).
    buf.writeUIntBE(left & 0xffffff, at, 3);
    buf[at + 3] = (((left >>> 24) & 0x0f) << 4) | ((right >>> 24) & 0x0f);
    buf.writeUIntBE(right & 0xffffff, at + 4, 3);
  } else {
    buf.writeUInt32BE(left, at);
    buf.writeUInt32BE(right, at + 4);
  }
}
