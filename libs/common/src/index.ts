export * from './errors';
export * from './time';
export * from './ids';
