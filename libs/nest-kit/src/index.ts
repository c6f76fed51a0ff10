export * from './http-status';
export * from './error.filter';
export * from './trace-id';
export * from './raw-body';
export * from './quarry-logger';
export * from './disconnect-signal';
