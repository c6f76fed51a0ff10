import type { ChunkEncoding } from './format';

/** A column encoded as a chunk payload (before compression), with what its footer entry records. */
export interface EncodedColumn {
  encoding: ChunkEncoding;
  payload: Uint8Array;
  nullCount: number;
  min?: number | string;
  max?: number | string;
  dictSize?: number;
  layout?: string;
  valueCounts?: [string, number][];
}
