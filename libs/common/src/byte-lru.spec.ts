import { ByteLru } from './byte-lru';

const sized = (byteLength: number) => ({ byteLength });

describe('ByteLru', () => {
  it('evicts least recently used entries until the total fits, and skips entries larger than the bound', () => {
    const lru = new ByteLru<{ byteLength: number }>(10);
    lru.set('a', sized(4));
    lru.set('b', sized(4));
    expect(lru.get('a')).toBeDefined(); // a is now the most recent
    lru.set('c', sized(4)); // 12 > 10: b goes
    expect(lru.get('b')).toBeUndefined();
    expect(lru.get('a')).toBeDefined();
    expect(lru.get('c')).toBeDefined();
    lru.set('huge', sized(11));
    expect(lru.get('huge')).toBeUndefined();
    lru.delete('a');
    lru.set('d', sized(6)); // c (4) + d (6) fit exactly
    expect(lru.get('c')).toBeDefined();
    expect(lru.get('d')).toBeDefined();
  });
});
