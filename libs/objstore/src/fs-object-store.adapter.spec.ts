import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { FsObjectStore } from './fs-object-store.adapter';
import { objectStoreContract } from './object-store.contract';

objectStoreContract('FsObjectStore', async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'quarry-objstore-'));
  return {
    store: await FsObjectStore.open(dir),
    cleanup: () => fs.rm(dir, { recursive: true, force: true }),
  };
});

describe('FsObjectStore', () => {
  let root: string;
  let store: FsObjectStore;
  beforeEach(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'quarry-objstore-'));
    store = await FsObjectStore.open(path.join(root, 'store'));
  });
  afterEach(() => fs.rm(root, { recursive: true, force: true }));

  it('maps keys to files under the root and leaves no temporary files', async () => {
    await store.put('blocks/ds1/0001', new Uint8Array([1, 2, 3]));
    expect(await fs.readFile(path.join(root, 'store/blocks/ds1/0001'))).toEqual(Buffer.from([1, 2, 3]));
    expect(await fs.readdir(path.join(root, 'store/blocks/ds1'))).toEqual(['0001']);
  });

  it('never lists the temporary file of an unfinished put', async () => {
    await store.put('a/done', new Uint8Array([1]));
    await fs.writeFile(path.join(root, 'store/a/next.quarry-tmp-0123456789abcdef'), 'partial');
    expect(await store.list('a/')).toEqual(['a/done']);
    await expect(store.put('a/x.quarry-tmp-1', new Uint8Array())).rejects.toMatchObject({ kind: 'invalid' });
  });

  it('cannot be steered outside its root', async () => {
    await fs.writeFile(path.join(root, 'secret'), 'secret');
    await expect(store.get('../secret')).rejects.toMatchObject({ kind: 'invalid' });
    await expect(store.list('../')).rejects.toMatchObject({ kind: 'invalid' });
  });

  it('reports a key that is also a prefix of other keys as a conflict', async () => {
    await store.put('a/b', new Uint8Array([1]));
    await expect(store.put('a', new Uint8Array([2]))).rejects.toMatchObject({ kind: 'conflict' });
    await expect(store.put('a/b/c', new Uint8Array([2]))).rejects.toMatchObject({ kind: 'conflict' });
    expect(await store.list('')).toEqual(['a/b']);
  });
});
