/**
 * Ingest limits. Defaults follow Axiom's documented limits (api.md §3.5) and Quarry's reliability anchors
 * (reliability.md §3.1); every one is configurable so an operator can loosen or tighten them.
 */
export interface IngestLimits {
  /** Largest request body as received (before decompression). Exceeding it is `too_large` (413). */
  maxCompressedBytes: number;
  /** Largest body after decompression. Decoding stops as soon as output passes it: `too_large` (413). */
  maxDecompressedBytes: number;
  /**
   * Largest decompressed/compressed ratio once output passes `ratioFreeBytes`; 0 disables it. Deflate cannot
   * exceed ~1032:1, so the default only bites on zstd/brotli bombs, which can reach 10^5:1; it stops them
   * after a few MiB instead of at `maxDecompressedBytes`.
   */
  maxDecompressionRatio: number;
  /** Output allowed before the ratio cap applies (small bodies compress very well and are harmless). */
  ratioFreeBytes: number;
  /** Events in one request (as Axiom). More is `invalid` (400): the client must split the batch. */
  maxEvents: number;
  /** Fields of one event after flattening (labels included). More makes the event a failure. */
  maxFieldsPerEvent: number;
  /** UTF-8 bytes of a field name after flattening. Longer makes the event a failure (as Axiom). */
  maxFieldNameBytes: number;
  /** UTF-8 bytes of one string value; longer strings become `<invalid string: too long>` (as Axiom). */
  maxStringBytes: number;
  /** Nesting depth kept; a value nested deeper becomes null (as Axiom: "truncated to null"). */
  maxDepth: number;
  /** Nesting depth at which the whole request is rejected as `invalid`: a body this deep is an attack. */
  hardMaxDepth: number;
}

export const DEFAULT_INGEST_LIMITS: Readonly<IngestLimits> = Object.freeze({
  maxCompressedBytes: 64 * 1024 * 1024,
  maxDecompressedBytes: 256 * 1024 * 1024,
  maxDecompressionRatio: 1000,
  ratioFreeBytes: 1024 * 1024,
  maxEvents: 10_000,
  maxFieldsPerEvent: 1024,
  maxFieldNameBytes: 200,
  maxStringBytes: 1_000_000,
  maxDepth: 100,
  hardMaxDepth: 1000,
});

/** Fills missing limits with the defaults. */
export function resolveLimits(limits: Partial<IngestLimits> | undefined): IngestLimits {
  return { ...DEFAULT_INGEST_LIMITS, ...(limits ?? {}) };
}
