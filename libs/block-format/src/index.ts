export {
  MAGIC,
  HEADER_BYTES,
  FOOTER_TRAILER_BYTES,
  BLOCK_FORMAT_VERSION,
  SUPPORTED_VERSIONS,
  type BlockFooter,
  type ColumnMeta,
  type ChunkEncoding,
  type ChunkCompression,
} from './format';
export { encodeBlock, DEFAULT_ZSTD_LEVEL, type EncodeOptions } from './encode-block';
export { readFooter, footerFetchLength } from './footer';
export { tokenDictBytes } from './token-values';
export { decodeBlock, decodeColumns, openBlock, type OpenedBlock } from './decode-block';
export type { DecodeOptions } from './decode-column';
export {
  readTokenFilter,
  fetchTokenFilter,
  tokenFilterRange,
  NO_TOKEN_FILTER,
  type TokenFilter,
} from './token-filter';
