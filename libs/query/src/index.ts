export {
  runApl,
  validateApl,
  referencedDatasets,
  explainApl,
  orderSchema,
  type RunAplOptions,
  type ValidateAplOptions,
} from './run-apl';
export { ParseCache, parseCache } from './parse-cache';
export { DEFAULT_QUERY_LIMITS, type QueryLimits } from '@quarry/query-exec';
export { validateVirtualField, type VirtualField, type VirtualFieldLookup } from './virtual-fields';
export {
  MemoryCatalog,
  MemoryDataset,
  flattenEvent,
  normalizeEvent,
  type MemoryCatalogOptions,
} from './testing/memory-catalog';
export * from './legacy-query';
