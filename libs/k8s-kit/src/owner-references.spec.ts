import { collectionPath } from './custom-resource-ref';
import { objectKey, parseObjectKey } from './object-key';
import { controllerKey, controllerOf, controllerReference, isControlledBy } from './owner-references';

const token = {
  apiVersion: 'quarry.dev/v1alpha1',
  kind: 'Token',
  metadata: { name: 'ingest', namespace: 'shop', uid: 'u-1' },
};

describe('owner references', () => {
  it('builds a controller reference that blocks owner deletion', () => {
    expect(controllerReference(token)).toEqual({
      apiVersion: 'quarry.dev/v1alpha1',
      kind: 'Token',
      name: 'ingest',
      uid: 'u-1',
      controller: true,
      blockOwnerDeletion: true,
    });
    expect(() => controllerReference({ kind: 'Token', metadata: { name: 'x' } })).toThrow(TypeError);
  });

  it('maps an owned Secret to its Token key, and ignores other owners', () => {
    const secret = {
      metadata: {
        namespace: 'shop',
        ownerReferences: [
          { apiVersion: 'v1', kind: 'ConfigMap', name: 'cm', uid: 'u-0' },
          controllerReference(token),
        ],
      },
    };
    expect(controllerOf(secret)?.name).toBe('ingest');
    expect(isControlledBy(secret, token)).toBe(true);
    expect(isControlledBy(secret, { metadata: { uid: 'other' } })).toBe(false);
    expect(controllerKey(secret, { group: 'quarry.dev', kind: 'Token' })).toBe('shop/ingest');
    expect(controllerKey(secret, { group: 'quarry.dev', kind: 'Role' })).toBeUndefined();
    expect(controllerKey(secret, { group: 'other.dev', kind: 'Token' })).toBeUndefined();
    expect(controllerKey({ metadata: {} }, { group: 'quarry.dev', kind: 'Token' })).toBeUndefined();
  });
});

describe('object keys and paths', () => {
  it.each([
    [{ metadata: { name: 'logs', namespace: 'shop' } }, 'shop/logs', { namespace: 'shop', name: 'logs' }],
    [{ metadata: { name: 'default' } }, 'default', { name: 'default' }],
  ])('keys %j as %s and back', (object, key, parsed) => {
    expect(objectKey(object)).toBe(key);
    expect(parseObjectKey(key)).toEqual(parsed);
  });

  it.each([
    [
      { group: 'quarry.dev', version: 'v1alpha1', plural: 'datasets' },
      undefined,
      '/apis/quarry.dev/v1alpha1/datasets',
    ],
    [
      { group: 'quarry.dev', version: 'v1alpha1', plural: 'tokens' },
      'shop',
      '/apis/quarry.dev/v1alpha1/namespaces/shop/tokens',
    ],
    [{ group: '', version: 'v1', plural: 'secrets' }, 'shop', '/api/v1/namespaces/shop/secrets'],
  ])('collection path of %j in %s', (type, namespace, path) => {
    expect(collectionPath(type, namespace)).toBe(path);
  });
});
