import { BLOCK_FORMAT_VERSION } from '@quarry/block-format';

/**
 * The on-disk format versions of a data directory written by this code, recorded in backups and next to
 * the golden data directories (test/fixtures/data-dirs) that prove older ones still read back.
 */
export const FORMAT_VERSIONS = {
  /** Block objects (docs/block-format.md); v1 before commit f329b23. */
  block: BLOCK_FORMAT_VERSION,
  /** Ingest log record payload (log-codec.ts); v1 (JSON) before commit f329b23. */
  logRecord: 2,
  /** Log segment framing (libs/log/src/frame.ts): unchanged since the first segment log. */
  logFrame: 1,
} as const;
