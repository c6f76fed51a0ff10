/** Nest injection tokens for the storage ports; adapters are chosen by the runtime from config. */
export const QUARRY_CONFIG = Symbol('QuarryConfig');
export const STORAGE_RUNTIME = Symbol('StorageRuntime');
