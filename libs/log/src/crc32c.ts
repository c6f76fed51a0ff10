/**
 * CRC-32C (Castagnoli), the checksum of iSCSI, ext4 metadata and Kafka record batches.
 *
 * Node 20 has no built-in CRC (zlib.crc32 arrived in Node 22 and is plain CRC-32 anyway), so this is a
 * slicing-by-8 table implementation: eight 256-entry tables let the hot loop consume 8 bytes per
 * iteration, which is several times faster than the byte-at-a-time loop on 1 KiB records.
 */

const POLY = 0x82f63b78; // reflected Castagnoli polynomial

const TABLES: Uint32Array[] = (() => {
  const tables: Uint32Array[] = [];
  const t0 = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ POLY : c >>> 1;
    t0[n] = c >>> 0;
  }
  tables.push(t0);
  for (let t = 1; t < 8; t++) {
    const prev = tables[t - 1];
    const cur = new Uint32Array(256);
    for (let n = 0; n < 256; n++) cur[n] = (prev[n] >>> 8) ^ t0[prev[n] & 0xff];
    tables.push(cur);
  }
  return tables;
})();

/**
 * Updates a running CRC-32C with `bytes[start, end)`. Start with `crc = 0`; pass the previous result to
 * continue over a second range (so a frame's header and payload can be checksummed without copying).
 */
export function crc32c(bytes: Uint8Array, start = 0, end = bytes.length, crc = 0): number {
  const [t0, t1, t2, t3, t4, t5, t6, t7] = TABLES;
  let c = ~crc >>> 0;
  let i = start;
  // Hot loop: 8 bytes per iteration over the slicing tables.
  const end8 = end - ((end - start) & 7);
  for (; i < end8; i += 8) {
    const lo = (c ^ (bytes[i] | (bytes[i + 1] << 8) | (bytes[i + 2] << 16) | (bytes[i + 3] << 24))) >>> 0;
    c =
      t7[lo & 0xff] ^
      t6[(lo >>> 8) & 0xff] ^
      t5[(lo >>> 16) & 0xff] ^
      t4[lo >>> 24] ^
      t3[bytes[i + 4]] ^
      t2[bytes[i + 5]] ^
      t1[bytes[i + 6]] ^
      t0[bytes[i + 7]];
  }
  for (; i < end; i++) c = t0[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return ~c >>> 0;
}
