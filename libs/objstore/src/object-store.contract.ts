/** The contract every `ObjectStore` adapter and fake must meet; spec files call it with a factory. */
import { isQuarryError, type ErrorKind } from '@quarry/common';
import { compareKeys } from './memory-object-store.fake';
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

/** Keys with spaces, non-ASCII letters, characters URLs and shells treat specially, and one outside the BMP. */
export const AWKWARD_KEYS = [
  'uni/with space/and  two',
  'uni/ключ/значение',
  'uni/日本語/ファイル.bin',
  'uni/emoji 🙂.bin',
  'uni/a+b=c&d?e#f;g,h',
  `uni/quote'double"`,
  'uni/percent%20literal%2F',
  'uni/tilde~caret^pipe|star*',
  'uni/(paren) [bracket] {brace} @at $dollar !bang',
];

export interface ObjectStoreContractOptions {
  /**
   * Keys the pagination case writes and lists. More than 1000 (S3's page size) by default, so S3 adapters
   * page; a harness for a slow store may lower it (and the adapter's page size with it).
   */
  manyKeys?: number;
}

/** Runs `fn` over `items` with at most `limit` calls in flight. */
async function inPool<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

export function objectStoreContract(
  name: string,
  factory: () => Promise<{ store: ObjectStore; cleanup(): Promise<void> }>,
  options: ObjectStoreContractOptions = {},
): void {
  const manyKeys = options.manyKeys ?? 1100;
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

    it('round-trips every byte value, and empty objects', async () => {
      const all = Uint8Array.from({ length: 512 }, (_, i) => i & 0xff);
      const noise = Uint8Array.from({ length: 100_003 }, (_, i) => (i * 2654435761) >>> 24);
      await store.put('bin/all', all);
      await store.put('bin/noise', noise);
      await store.put('bin/empty', new Uint8Array(0));
      expect(Buffer.from(await store.get('bin/all')).equals(Buffer.from(all))).toBe(true);
      expect(Buffer.from(await store.get('bin/noise')).equals(Buffer.from(noise))).toBe(true);
      const empty = await store.get('bin/empty');
      expect(empty).toBeInstanceOf(Uint8Array);
      expect(empty.length).toBe(0);
      expect(await store.head('bin/empty')).toEqual({ size: 0 });
      expect((await store.getRange('bin/empty', 0, 0)).length).toBe(0);
      expect((await store.getRange('bin/empty', 0, 10)).length).toBe(0);
      await expectKind(store.getRange('bin/empty', 1, 1), 'invalid');
      expect(await store.list('bin/')).toEqual(['bin/all', 'bin/empty', 'bin/noise']);
    });

    it('overwrites with a longer or shorter body, and head follows', async () => {
      await store.put('ow/k', new Uint8Array(10).fill(1));
      await store.put('ow/k', new Uint8Array(1000).fill(2));
      expect(await store.head('ow/k')).toEqual({ size: 1000 });
      expect((await store.get('ow/k')).every((b) => b === 2)).toBe(true);
      await store.put('ow/k', new Uint8Array(3).fill(3));
      expect(await store.head('ow/k')).toEqual({ size: 3 });
      expect([...(await store.get('ow/k'))]).toEqual([3, 3, 3]);
      expect([...(await store.getRange('ow/k', 1, 100))]).toEqual([3, 3]);
      expect(await store.list('ow/')).toEqual(['ow/k']);
    });

    it('reads ranges at the start, middle and end, whole, clipped and empty', async () => {
      const body = Uint8Array.from({ length: 256 }, (_, i) => i);
      await store.put('rr', body);
      const range = async (offset: number, length: number) => [
        ...(await store.getRange('rr', offset, length)),
      ];
      const expected = (offset: number, length: number) => [...body.subarray(offset, offset + length)];
      for (const [offset, length] of [
        [0, 1],
        [0, 10],
        [100, 56],
        [246, 10],
        [255, 1],
        [0, 256],
        [0, 10_000],
        [200, 56],
        [200, 57],
        [128, 0],
        [256, 0],
        [256, 1],
      ]) {
        expect([offset, length, await range(offset, length)]).toEqual([
          offset,
          length,
          expected(offset, length),
        ]);
      }
      await expectKind(store.getRange('rr', 10_000, 1), 'invalid');
      await expectKind(store.getRange('rr', 1.5, 1), 'invalid');
      await expectKind(store.getRange('rr', 0, Number.NaN), 'invalid');
    });

    it('forgets deleted objects everywhere', async () => {
      await store.put('del/a', bytes('a'));
      await store.put('del/b', bytes('b'));
      await store.get('del/a');
      await store.getRange('del/a', 0, 1);
      await store.delete('del/a');
      await expectKind(store.get('del/a'), 'not_found');
      await expectKind(store.getRange('del/a', 0, 1), 'not_found');
      expect(await store.head('del/a')).toBeNull();
      expect(await store.list('del/')).toEqual(['del/b']);
      await store.put('del/a', bytes('again'));
      expect(dec.decode(await store.get('del/a'))).toBe('again');
    });

    it('lists in UTF-8 byte order, also where file-name order differs', async () => {
      // 'a' < 'a-b' and 'd+z' < 'd/w' as keys, but not as file names (`a.ext`, directory `d`).
      const keys = ['p/a', 'p/a-b', 'p/a.c', 'p/d+z', 'p/d/w', 'p/d0', 'p/e', 'p/Z', 'p/ä', 'p/~'];
      for (const k of [...keys].reverse()) await store.put(k, bytes(k));
      expect(await store.list('p/')).toEqual([...keys].sort(compareKeys));
      expect(await store.list('p/d')).toEqual(['p/d+z', 'p/d/w', 'p/d0']);
      expect(await store.list('p/d/')).toEqual(['p/d/w']);
    });

    it(`lists ${manyKeys} keys (more than a page), sorted, and narrower prefixes`, async () => {
      const keys = Array.from({ length: manyKeys }, (_, i) => `many/k${String(i).padStart(5, '0')}`);
      // Keys that sort differently as file names, at page boundaries and elsewhere.
      const extra = ['many/k00001-x', 'many/k00999+y', 'many/k01000-z', 'many/k00500.w'];
      const all = [...keys, ...extra];
      await inPool([...all].reverse(), 16, (k) => store.put(k, bytes(k.slice(-3))));
      await store.put('manz', bytes('outside'));
      const listed = await store.list('many/');
      expect(listed.length).toBe(all.length);
      expect(listed).toEqual([...all].sort(compareKeys));
      expect(await store.list('many/k0000')).toEqual(
        ['many/k00000', 'many/k00001', 'many/k00001-x', ...keys.slice(2, 10)].sort(compareKeys),
      );
      expect((await store.list('man')).length).toBe(all.length + 1);
    });

    it('handles keys with spaces, non-ASCII and URL-special characters', async () => {
      await inPool(AWKWARD_KEYS, 4, (k) => store.put(k, bytes(`body of ${k}`)));
      for (const k of AWKWARD_KEYS) {
        expect(dec.decode(await store.get(k))).toBe(`body of ${k}`);
        expect(dec.decode(await store.getRange(k, 8, 4))).toBe(k.slice(0, 4));
        expect(await store.head(k)).toEqual({ size: Buffer.byteLength(`body of ${k}`) });
      }
      expect(await store.list('uni/')).toEqual([...AWKWARD_KEYS].sort(compareKeys));
      expect(await store.list('uni/with space/')).toEqual(['uni/with space/and  two']);
      await store.delete(AWKWARD_KEYS[1]);
      expect(await store.head(AWKWARD_KEYS[1])).toBeNull();
      expect((await store.list('uni/')).length).toBe(AWKWARD_KEYS.length - 1);
    });

    it('takes concurrent puts of different keys', async () => {
      const keys = Array.from({ length: 64 }, (_, i) => `conc/${i}/obj`);
      const bodyOf = (i: number) => new Uint8Array(1000 + i * 37).fill(i + 1);
      await Promise.all(keys.map((k, i) => store.put(k, bodyOf(i))));
      const got = await Promise.all(keys.map((k) => store.get(k)));
      got.forEach((body, i) => {
        expect(body.length).toBe(1000 + i * 37);
        expect(body.every((b) => b === i + 1)).toBe(true);
      });
      expect((await store.list('conc/')).length).toBe(64);
    });
  });
}
