/**
 * Per-slot row counts and sums over a dictionary-coded key (`summarize count(), sum(x), avg(x) by <string>`),
 * each kept in four interleaved lanes: slot s of lane j is cell `4s + j`, and row i goes to lane i mod 4.
 *
 * Why lanes: a key column has few distinct values (an HTTP method, a status), so consecutive rows mostly hit
 * the same slot, and with one cell per slot every row's `+=` waits for the previous row's store to that cell
 * (a store-to-load chain through memory). Four cells per slot give four independent chains. Measured on the
 * bench's `avg(req_duration_ms) by method` shape (131,072 rows, 5 codes): counting 2.5–3.1 → 1.3–1.5 ns per
 * row, summing 3.0 → 1.5 ns per row (V8, Node 20).
 *
 * Sums are added in another order than row by row (lane by lane, then the lanes together), which changes
 * only the rounding of a floating-point sum, as splitting a scan across blocks and threads already does.
 */

const LANES = 4;

/** Rows per slot (a null code, -1, counts in `nullSlot`); `nullSlot + 1` entries. */
export function rowsPerSlot(codes: Int32Array, nullSlot: number, n: number): Float64Array {
  const lanes = new Int32Array((nullSlot + 1) * LANES);
  let i = 0;
  for (; i + LANES <= n; i += LANES) {
    const a = codes[i];
    const b = codes[i + 1];
    const c = codes[i + 2];
    const d = codes[i + 3];
    lanes[(a < 0 ? nullSlot : a) << 2]++;
    lanes[((b < 0 ? nullSlot : b) << 2) + 1]++;
    lanes[((c < 0 ? nullSlot : c) << 2) + 2]++;
    lanes[((d < 0 ? nullSlot : d) << 2) + 3]++;
  }
  for (; i < n; i++) {
    const a = codes[i];
    lanes[(a < 0 ? nullSlot : a) << 2]++;
  }
  const rows = new Float64Array(nullSlot + 1);
  for (let s = 0, k = 0; s <= nullSlot; s++, k += LANES)
    rows[s] = lanes[k] + lanes[k + 1] + lanes[k + 2] + lanes[k + 3];
  return rows;
}

/** The sum of `values` per slot, for a column without nulls; `nullSlot + 1` entries. */
export function sumsPerSlot(
  codes: Int32Array,
  nullSlot: number,
  n: number,
  values: Float64Array,
): Float64Array {
  const lanes = new Float64Array((nullSlot + 1) * LANES);
  let i = 0;
  for (; i + LANES <= n; i += LANES) {
    const a = codes[i];
    const b = codes[i + 1];
    const c = codes[i + 2];
    const d = codes[i + 3];
    lanes[(a < 0 ? nullSlot : a) << 2] += values[i];
    lanes[((b < 0 ? nullSlot : b) << 2) + 1] += values[i + 1];
    lanes[((c < 0 ? nullSlot : c) << 2) + 2] += values[i + 2];
    lanes[((d < 0 ? nullSlot : d) << 2) + 3] += values[i + 3];
  }
  for (; i < n; i++) {
    const a = codes[i];
    lanes[(a < 0 ? nullSlot : a) << 2] += values[i];
  }
  const sums = new Float64Array(nullSlot + 1);
  for (let s = 0, k = 0; s <= nullSlot; s++, k += LANES)
    sums[s] = lanes[k] + lanes[k + 1] + (lanes[k + 2] + lanes[k + 3]);
  return sums;
}

/**
 * The slots that have rows, in the order of their first row (groups are created in order of first
 * appearance). Stops as soon as every such slot is seen: with a few keys, after the first rows.
 */
export function slotsByFirstRow(
  codes: Int32Array,
  nullSlot: number,
  n: number,
  rows: Float64Array,
): number[] {
  let distinct = 0;
  for (let s = 0; s <= nullSlot; s++) if (rows[s] > 0) distinct++;
  const seen = new Uint8Array(nullSlot + 1);
  const order: number[] = [];
  for (let i = 0; i < n && order.length < distinct; i++) {
    const code = codes[i];
    const slot = code < 0 ? nullSlot : code;
    if (seen[slot] === 0) {
      seen[slot] = 1;
      order.push(slot);
    }
  }
  return order;
}
