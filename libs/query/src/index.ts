export {
  runApl,
  validateApl,
  referencedDatasets,
  explainApl,
  orderSchema,
  type RunAplOptions,
} from './run-apl';
export {
  MemoryCatalog,
  MemoryDataset,
  flattenEvent,
  normalizeEvent,
  type MemoryCatalogOptions,
} from './testing/memory-catalog';
