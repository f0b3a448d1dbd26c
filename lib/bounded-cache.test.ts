import { describe, expect, it } from 'vitest';
import { BoundedCache } from './bounded-cache';

describe('BoundedCache', () => {
  it('drops the least recently used entry past maxEntries, not everything', () => {
    const c = new BoundedCache<string, number>({ maxEntries: 3 });
    c.set('a', 1);
    c.set('b', 2);
    c.set('c', 3);
    expect(c.get('a')).toBe(1); // a is now the newest
    c.set('d', 4);
    expect([c.has('a'), c.has('b'), c.has('c'), c.has('d')]).toEqual([true, false, true, true]);
    expect(c.size).toBe(3);
  });

  it('bounds the bytes its values hold, and keeps no value larger than the bound', () => {
    const c = new BoundedCache<string, Buffer>({ maxEntries: 100, maxBytes: 10, sizeOf: (b) => b.length });
    c.set('a', Buffer.alloc(4));
    c.set('b', Buffer.alloc(4));
    c.set('a', Buffer.alloc(5)); // replaced: its old size no longer counts
    expect(c.bytes).toBe(9);
    c.set('c', Buffer.alloc(3));
    expect([c.has('a'), c.has('b'), c.has('c')]).toEqual([true, false, true]);
    expect(c.bytes).toBe(8);
    c.set('huge', Buffer.alloc(11));
    expect(c.has('huge')).toBe(false);
    expect(c.bytes).toBe(8);
    c.deleteWhere((k) => k === 'a');
    expect(c.bytes).toBe(3);
  });
});
