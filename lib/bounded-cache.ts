/**
 * The one in-process cache type: a Map bounded by its number of entries and, optionally, by
 * the bytes its values hold; past either bound the least recently used entries go first.
 * Every cache of the server is one (hosted replies and contents, the guest caches behind
 * lib/epoch-cache.ts, parsed headers, upload part sizes), so each has a bound and none empties
 * itself when full.
 */
export interface BoundedCacheOptions<V> {
  maxEntries: number;
  /** With sizeOf: the most the values may hold together; a value larger than this is not kept. */
  maxBytes?: number;
  sizeOf?: (value: V) => number;
}

export class BoundedCache<K, V> {
  private readonly map = new Map<K, V>();
  private held = 0;

  constructor(private readonly opts: BoundedCacheOptions<V>) {}

  get size(): number {
    return this.map.size;
  }

  /** The bytes the values hold (0 without sizeOf). */
  get bytes(): number {
    return this.held;
  }

  /** The value of `key`, which becomes the most recently used. */
  get(key: K): V | undefined {
    const value = this.map.get(key);
    if (value !== undefined) {
      // Map order is insertion order: moving the entry to the back makes it the newest.
      this.map.delete(key);
      this.map.set(key, value);
    }
    return value;
  }

  /** The value of `key`, leaving the order of use as it is. */
  peek(key: K): V | undefined {
    return this.map.get(key);
  }

  has(key: K): boolean {
    return this.map.has(key);
  }

  set(key: K, value: V): void {
    this.delete(key);
    const size = this.opts.sizeOf?.(value) ?? 0;
    if (this.opts.maxBytes !== undefined && size > this.opts.maxBytes) return;
    this.map.set(key, value);
    this.held += size;
    for (const [k, v] of this.map) {
      if (this.map.size <= this.opts.maxEntries && (this.opts.maxBytes === undefined || this.held <= this.opts.maxBytes)) break;
      this.map.delete(k);
      this.held -= this.opts.sizeOf?.(v) ?? 0;
    }
  }

  delete(key: K): boolean {
    const old = this.map.get(key);
    if (old === undefined) return false;
    this.map.delete(key);
    this.held -= this.opts.sizeOf?.(old) ?? 0;
    return true;
  }

  /** Drops the entries whose key matches. */
  deleteWhere(match: (key: K) => boolean): void {
    for (const k of [...this.map.keys()]) if (match(k)) this.delete(k);
  }

  clear(): void {
    this.map.clear();
    this.held = 0;
  }
}
