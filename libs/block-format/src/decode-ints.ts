import type { Column, ColumnKind } from '@quarry/contracts';
import type { ByteReader } from './bytes';
import { POW10 } from './encode-numeric';
import { readIntSeq } from './int-seq';

/**
 * `ints` chunk after its null section: u8 decimal exponent e, then an integer sequence of n values k;
 * row i is k_i / 10^e (k_i when e = 0), 0 in null rows. Booleans have e = 0 and k in {0, 1}.
 */
export function decodeInts(r: ByteReader, kind: ColumnKind, n: number, nulls: Uint8Array | null): Column {
  const exponent = r.u8();
  r.check(exponent < POW10.length, `has decimal exponent ${exponent}`);
  const values = readIntSeq(r, n);
  if (kind === 'bool') {
    r.check(exponent === 0, 'has a decimal exponent on booleans');
    const bits = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      const v = values[i];
      if (v !== 0 && v !== 1) r.fail(`has boolean value ${v}`);
      bits[i] = nulls !== null && nulls[i] !== 0 ? 0 : v;
    }
    return { kind: 'bool', values: bits, nulls };
  }
  if (exponent > 0) {
    // One correctly rounded division, exactly what the writer checked each value against.
    const p = POW10[exponent];
    for (let i = 0; i < n; i++) values[i] = values[i] / p;
  }
  if (nulls !== null) for (let i = 0; i < n; i++) if (nulls[i] !== 0) values[i] = 0;
  return { kind: kind as 'long', values, nulls };
}
