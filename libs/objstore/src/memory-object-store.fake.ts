import { checkRange, notFound, validateKey, validatePrefix } from './object-key';
import type { ObjectStore } from './object-store.port';

/** In-memory `ObjectStore`. Copies on the way in and out, so callers cannot mutate stored objects. */
export class MemoryObjectStore implements ObjectStore {
  private readonly objects = new Map<string, Uint8Array>();

  async put(key: string, body: Uint8Array): Promise<void> {
    validateKey(key);
    this.objects.set(key, Uint8Array.from(body));
  }

  async get(key: string): Promise<Uint8Array> {
    validateKey(key);
    const body = this.objects.get(key);
    if (!body) throw notFound(key);
    return body.slice();
  }

  async getRange(key: string, offset: number, length: number): Promise<Uint8Array> {
    validateKey(key);
    const body = this.objects.get(key);
    if (!body) throw notFound(key);
    checkRange(key, offset, length, body.length);
    return body.slice(offset, Math.min(body.length, offset + length));
  }

  async head(key: string): Promise<{ size: number } | null> {
    validateKey(key);
    const body = this.objects.get(key);
    return body ? { size: body.length } : null;
  }

  async delete(key: string): Promise<void> {
    validateKey(key);
    this.objects.delete(key);
  }

  async list(prefix: string): Promise<string[]> {
    validatePrefix(prefix);
    return [...this.objects.keys()].filter((k) => k.startsWith(prefix)).sort(compareKeys);
  }
}

/** Byte order of the UTF-8 encoding, as S3 lists keys (differs from `sort()` only outside the BMP). */
export function compareKeys(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}
