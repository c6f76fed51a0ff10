export * from './columns';
export * from './events';
export * from './log-record';
export * from './dataset-source';
export * from './query-result';
export * from './blocks';
export * from './column-builder';
export * from './lazy-columns';
