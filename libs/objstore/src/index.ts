export * from './object-store.port';
export * from './memory-object-store.fake';
export * from './fs-object-store.adapter';
export { validateKey, MAX_KEY_BYTES } from './object-key';
export * from './s3-object-store.adapter';
export * from './caching-object-store';
