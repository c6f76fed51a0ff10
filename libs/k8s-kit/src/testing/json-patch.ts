import { isPlainObject } from './json-merge-patch';

/** One RFC 6902 operation, as sent with `application/json-patch+json`. */
export type JsonPatchOperation =
  | { op: 'add' | 'replace' | 'test'; path: string; value: unknown }
  | { op: 'remove'; path: string }
  | { op: 'move' | 'copy'; from: string; path: string };

/** Why a JSON patch could not be applied; the fake server answers it with a 422 like the apiserver. */
export class JsonPatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JsonPatchError';
  }
}

/**
 * Applies a JSON patch (RFC 6902) to a copy of `document`. Operations apply in order and the patch is
 * atomic: the first failing operation (a failed `test`, a missing path) throws and nothing is returned.
 */
export function applyJsonPatch(document: unknown, operations: unknown): unknown {
  if (!Array.isArray(operations)) throw new JsonPatchError('a JSON patch must be an array of operations');
  let doc = structuredClone(document);
  for (const operation of operations as JsonPatchOperation[]) {
    doc = applyOperation(doc, operation);
  }
  return doc;
}

function applyOperation(doc: unknown, operation: JsonPatchOperation): unknown {
  switch (operation.op) {
    case 'add':
      return insert(doc, parsePointer(operation.path), structuredClone(operation.value));
    case 'remove':
      return remove(doc, parsePointer(operation.path));
    case 'replace': {
      const path = parsePointer(operation.path);
      const withoutOld = remove(doc, path);
      return insert(withoutOld, path, structuredClone(operation.value));
    }
    case 'move': {
      const value = read(doc, parsePointer(operation.from));
      return insert(remove(doc, parsePointer(operation.from)), parsePointer(operation.path), value);
    }
    case 'copy':
      return insert(
        doc,
        parsePointer(operation.path),
        structuredClone(read(doc, parsePointer(operation.from))),
      );
    case 'test': {
      const actual = read(doc, parsePointer(operation.path));
      if (!deepEqual(actual, operation.value)) {
        throw new JsonPatchError(`testing value ${operation.path} failed`);
      }
      return doc;
    }
    default:
      throw new JsonPatchError(
        `unknown JSON patch operation ${JSON.stringify((operation as { op: unknown }).op)}`,
      );
  }
}

/** Splits a JSON pointer (RFC 6901) into unescaped tokens. */
function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new JsonPatchError(`invalid JSON pointer ${JSON.stringify(pointer)}`);
  return pointer
    .slice(1)
    .split('/')
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function read(doc: unknown, path: string[]): unknown {
  let node = doc;
  for (const token of path) {
    if (Array.isArray(node)) {
      node = node[arrayIndex(node, token, false)];
    } else if (isPlainObject(node) && token in node) {
      node = node[token];
    } else {
      throw new JsonPatchError(`path /${path.join('/')} does not exist`);
    }
  }
  return node;
}

function insert(doc: unknown, path: string[], value: unknown): unknown {
  if (path.length === 0) return value;
  const parent = read(doc, path.slice(0, -1));
  const last = path[path.length - 1];
  if (Array.isArray(parent)) {
    const index = last === '-' ? parent.length : arrayIndex(parent, last, true);
    parent.splice(index, 0, value);
  } else if (isPlainObject(parent)) {
    parent[last] = value;
  } else {
    throw new JsonPatchError(`cannot add below a scalar at /${path.join('/')}`);
  }
  return doc;
}

function remove(doc: unknown, path: string[]): unknown {
  if (path.length === 0) return undefined;
  const parent = read(doc, path.slice(0, -1));
  const last = path[path.length - 1];
  if (Array.isArray(parent)) {
    parent.splice(arrayIndex(parent, last, false), 1);
  } else if (isPlainObject(parent) && last in parent) {
    delete parent[last];
  } else {
    throw new JsonPatchError(`path /${path.join('/')} does not exist`);
  }
  return doc;
}

function arrayIndex(array: unknown[], token: string, allowEnd: boolean): number {
  const index = /^(0|[1-9]\d*)$/.test(token) ? Number(token) : -1;
  const limit = allowEnd ? array.length : array.length - 1;
  if (index < 0 || index > limit) throw new JsonPatchError(`array index ${token} is out of range`);
  return index;
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, i) => deepEqual(item, b[i]));
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = Object.keys(a);
    return (
      keys.length === Object.keys(b).length && keys.every((key) => key in b && deepEqual(a[key], b[key]))
    );
  }
  return false;
}
