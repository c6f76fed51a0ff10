export * from './errors';
export * from './time';
export * from './ids';
export { ByteLru } from './byte-lru';
