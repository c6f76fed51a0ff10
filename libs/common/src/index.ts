export * from './errors';
export * from './time';
export * from './kusto-datetime';
export * from './ids';
export { formatTimespan } from './timespan-text';
export { ByteLru } from './byte-lru';
export { isLongArray, markJsonLongArrays, markLongArray } from './long-arrays';
