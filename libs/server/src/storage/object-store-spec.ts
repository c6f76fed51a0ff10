import { CachingObjectStore, FsObjectStore, S3ObjectStore, type ObjectStore } from '@quarry/objstore';
import type { S3Config } from '../config/config';

/**
 * Which object store to open, as plain data: the event loop opens it from config, and each query worker
 * thread opens its own from the same description (a store holds sockets and caches, so it does not
 * cross threads).
 */
export type ObjectStoreSpec =
  | { kind: 'fs'; dir: string }
  | {
      kind: 's3';
      s3: S3Config;
      /** A local disk cache of fetched bytes (query nodes); each opener needs a directory of its own. */
      cache?: { dir: string; maxBytes: number };
    };

export async function openObjectStore(spec: ObjectStoreSpec): Promise<ObjectStore> {
  if (spec.kind === 'fs') return FsObjectStore.open(spec.dir);
  const { s3 } = spec;
  const store = await S3ObjectStore.open(
    {
      endpoint: s3.endpoint,
      bucket: s3.bucket,
      prefix: s3.prefix,
      region: s3.region,
      forcePathStyle: s3.forcePathStyle,
      maxSockets: s3.maxSockets,
    },
    { createBucket: s3.createBucket },
  );
  if (spec.cache === undefined || spec.cache.maxBytes <= 0) return store;
  return CachingObjectStore.open({ inner: store, dir: spec.cache.dir, maxBytes: spec.cache.maxBytes });
}
