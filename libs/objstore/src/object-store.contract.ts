/** The contract every `ObjectStore` adapter and fake must meet; spec files call it with a factory. */
import { isQuarryError, type ErrorKind } from '@quarry/common';
import type { ObjectStore } from './object-store.port';

const enc = new TextEncoder();
const dec = new TextDecoder();
const bytes = (s: string) => enc.encode(s);

async function expectKind(promise: Promise<unknown>, kind: ErrorKind): Promise<void> {
  try {
    await promise;
  } catch (err) {
    expect(isQuarryError(err) ? err.kind : err).toBe(kind);
    return;
  }
  throw new Error(`expected a QuarryError of kind ${kind}, but the call succeeded`);
}

export const INVALID_KEYS = [
  '',
  '/abs',
  'a//b',
  'a/',
  '../x',
  'a/../b',
  'a/./b',
  '.',
  '..',
  'a\\b',
  'nul\0',
  'x'.repeat(1025),
];

export function objectStoreContract(
  name: string,
  factory: () => Promise<{ store: ObjectStore; cleanup(): Promise<void> }>,
): void {
  describe(`ObjectStore contract: ${name}`, () => {
    let store: ObjectStore;
    let cleanup: () => Promise<void>;
    beforeEach(async () => {
      ({ store, cleanup } = await factory());
    });
    afterEach(() => cleanup());

    it('puts and gets whole objects, and overwrites', async () => {
      await store.put('blocks/ds1/b1', bytes('hello'));
      expect(dec.decode(await store.get('blocks/ds1/b1'))).toBe('hello');
      await store.put('blocks/ds1/b1', bytes('second version'));
      expect(dec.decode(await store.get('blocks/ds1/b1'))).toBe('second version');
      await store.put('empty', new Uint8Array(0));
      expect((await store.get('empty')).length).toBe(0);
    });

    it('reports a missing object as not_found, or null from head', async () => {
      await expectKind(store.get('nope'), 'not_found');
      await expectKind(store.getRange('nope', 0, 1), 'not_found');
      expect(await store.head('nope')).toBeNull();
      await store.put('dir/obj', bytes('x'));
      await expectKind(store.get('dir'), 'not_found');
      await expectKind(store.get('dir/obj/deeper'), 'not_found');
      expect(await store.head('dir')).toBeNull();
    });

    it('heads with the size', async () => {
      await store.put('a/b', new Uint8Array(1234));
      expect(await store.head('a/b')).toEqual({ size: 1234 });
    });

    it('reads ranges, clipped at the end like an S3 range read', async () => {
      const body = Uint8Array.from({ length: 256 }, (_, i) => i);
      await store.put('r', body);
      expect([...(await store.getRange('r', 10, 5))]).toEqual([10, 11, 12, 13, 14]);
      expect([...(await store.getRange('r', 250, 100))]).toEqual([250, 251, 252, 253, 254, 255]);
      expect((await store.getRange('r', 256, 10)).length).toBe(0);
      expect((await store.getRange('r', 0, 0)).length).toBe(0);
      await expectKind(store.getRange('r', 257, 1), 'invalid');
      await expectKind(store.getRange('r', -1, 1), 'invalid');
      await expectKind(store.getRange('r', 0, -1), 'invalid');
    });

    it('deletes idempotently', async () => {
      await store.put('d/x', bytes('x'));
      await store.delete('d/x');
      await store.delete('d/x');
      await store.delete('never/existed');
      expect(await store.head('d/x')).toBeNull();
      expect(await store.list('d/')).toEqual([]);
    });

    it('lists keys under a prefix, sorted, including partial-segment prefixes', async () => {
      for (const k of ['b/2', 'b/10', 'a/x/1', 'b/1', 'ba/1', 'c', 'b/sub/deep/k'])
        await store.put(k, bytes(k));
      expect(await store.list('b/')).toEqual(['b/1', 'b/10', 'b/2', 'b/sub/deep/k']);
      expect(await store.list('b')).toEqual(['b/1', 'b/10', 'b/2', 'b/sub/deep/k', 'ba/1']);
      expect(await store.list('b/1')).toEqual(['b/1', 'b/10']);
      expect(await store.list('')).toEqual(['a/x/1', 'b/1', 'b/10', 'b/2', 'b/sub/deep/k', 'ba/1', 'c']);
      expect(await store.list('zzz/')).toEqual([]);
      expect(await store.list('c/')).toEqual([]);
    });

    it('rejects invalid keys everywhere with invalid', async () => {
      for (const key of INVALID_KEYS) {
        await expectKind(store.put(key, bytes('x')), 'invalid');
        await expectKind(store.get(key), 'invalid');
        await expectKind(store.getRange(key, 0, 1), 'invalid');
        await expectKind(store.head(key), 'invalid');
        await expectKind(store.delete(key), 'invalid');
      }
      await expectKind(store.list('../'), 'invalid');
      await expectKind(store.list('/a'), 'invalid');
      await expectKind(store.list('a//'), 'invalid');
    });

    it('stores a copy: mutating buffers after put or get changes nothing', async () => {
      const body = bytes('abc');
      await store.put('k', body);
      body[0] = 0x7a;
      const got = await store.get('k');
      got[1] = 0x7a;
      expect(dec.decode(await store.get('k'))).toBe('abc');
    });

    it('never shows a mix of concurrent overwrites', async () => {
      const versions = Array.from({ length: 8 }, (_, v) => new Uint8Array(64 * 1024).fill(v + 1));
      await store.put('hot', versions[0]);
      const readers: Promise<Uint8Array>[] = [];
      await Promise.all(
        versions.map(async (body) => {
          readers.push(store.get('hot'));
          await store.put('hot', body);
        }),
      );
      for (const got of [...(await Promise.all(readers)), await store.get('hot')]) {
        expect(got.length).toBe(64 * 1024);
        expect(got.every((b) => b === got[0])).toBe(true);
      }
    });

    it('keeps large objects intact', async () => {
      const big = Uint8Array.from({ length: 3 * 1024 * 1024 + 7 }, (_, i) => (i * 31) & 0xff);
      await store.put('big/object', big);
      expect(Buffer.from(await store.get('big/object')).equals(Buffer.from(big))).toBe(true);
      expect(
        Buffer.from(await store.getRange('big/object', 1_000_000, 10)).equals(
          Buffer.from(big.subarray(1_000_000, 1_000_010)),
        ),
      ).toBe(true);
    });
  });
}
