/**
 * Where immutable blocks live: S3 (or an S3-compatible store) in the distributed shape, a local directory
 * in the standalone one. Keys are `/`-separated relative paths (see `object-key.ts`).
 * Adapters: `FsObjectStore`; an S3 adapter lives elsewhere. Fake: `MemoryObjectStore`.
 * Contract suite: `object-store.contract.ts`.
 */
export interface ObjectStore {
  /** Atomic: readers see the whole object or nothing. Overwrites are allowed. */
  put(key: string, body: Uint8Array): Promise<void>;
  /** QuarryError not_found when missing. */
  get(key: string): Promise<Uint8Array>;
  /**
   * `length` bytes from `offset`, clipped at the end of the object (as an S3 range read is).
   * QuarryError not_found when missing, invalid when `offset` is past the end or either number is negative.
   */
  getRange(key: string, offset: number, length: number): Promise<Uint8Array>;
  head(key: string): Promise<{ size: number } | null>;
  /** Idempotent. */
  delete(key: string): Promise<void>;
  /** Keys under a prefix, sorted. The prefix is a plain string prefix (`blocks/ds1/` or `blocks/ds`), as in S3. */
  list(prefix: string): Promise<string[]>;
}
