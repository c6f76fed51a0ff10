export * from './errors';
export * from './time';
export * from './kusto-datetime';
export * from './ids';
export { ByteLru } from './byte-lru';
