import { type Column, type DictTokens, type Utf8Dict, utf8StringColumn } from '@quarry/contracts';
import type { ByteReader } from './bytes';
import {
  CODES_IDENTITY,
  CODES_SEQUENCE,
  VALUES_HEX,
  VALUES_PLAIN,
  VALUES_TOKENS,
  VALUES_UUID,
} from './encode-strings';
import { readHexValues } from './hex-values';
import { readIndexSeq } from './int-seq';
import { readPlainUtf8, readPlainValues } from './plain-values';
import { readTokens, tokenStringColumn } from './token-values';

/**
 * `strings` chunk after its null section (layout in encode-strings.ts and docs/block-format.md). With
 * `utf8`, plain values are checked and kept as UTF-8, decoded into `dict` on first use.
 */
export function decodeStrings(r: ByteReader, n: number, nulls: Uint8Array | null, utf8 = false): Column {
  const valuesMode = r.u8();
  const size = r.varint();
  // Every value but one takes at least a byte or a token code; identity codes need one row per value.
  r.check(size <= r.buf.length + n, `claims ${size} dictionary values`);
  // The values, or the tokens that make them (decoded into values only when something reads `dict`).
  let dict: string[] | Utf8Dict | DictTokens;
  if (valuesMode === VALUES_PLAIN) dict = utf8 ? readPlainUtf8(r, size) : readPlainValues(r, size);
  else if (valuesMode === VALUES_HEX) dict = readHexValues(r, size, 'hex');
  else if (valuesMode === VALUES_UUID) dict = readHexValues(r, size, 'uuid');
  else if (valuesMode === VALUES_TOKENS) dict = readTokens(r, size);
  else r.fail(`has unknown values mode ${valuesMode}`);
  const codesMode = r.u8();
  const codes = new Int32Array(n);
  if (codesMode === CODES_IDENTITY) {
    let next = 0;
    for (let i = 0; i < n; i++) codes[i] = nulls !== null && nulls[i] !== 0 ? -1 : next++;
    r.check(next === size, `has ${next} non-null rows for ${size} identity values`);
  } else if (codesMode === CODES_SEQUENCE) {
    // Null rows hold some valid code too (the writer repeats the previous one).
    const seq = readIndexSeq(r, n, size);
    if (nulls !== null) for (let i = 0; i < n; i++) if (nulls[i] !== 0) seq[i] = -1;
    return stringColumn(seq, dict);
  } else r.fail(`has unknown codes mode ${codesMode}`);
  return stringColumn(codes, dict);
}

function stringColumn(codes: Int32Array, dict: string[] | Utf8Dict | DictTokens): Column {
  if (Array.isArray(dict)) return { kind: 'string', codes, dict };
  return 'counts' in dict ? tokenStringColumn(codes, dict) : utf8StringColumn(codes, dict);
}
