/**
 * A bounded least-recently-used cache. A Map keeps insertion order, so re-inserting on a hit moves the key to
 * the back and the first key is always the eldest.
 */
export class LruCache<K, V> {
  readonly #map = new Map<K, V>();
  readonly #capacity: number;

  constructor(capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError("capacity must be a positive integer");
    this.#capacity = capacity;
  }

  get size(): number {
    return this.#map.size;
  }

  get(key: K): V | undefined {
    const value = this.#map.get(key);
    if (value === undefined) return undefined;
    this.#map.delete(key);
    this.#map.set(key, value);
    return value;
  }

  set(key: K, value: V): void {
    if (this.#map.has(key)) this.#map.delete(key);
    else if (this.#map.size >= this.#capacity) {
      const eldest = this.#map.keys().next();
      if (!eldest.done) this.#map.delete(eldest.value);
    }
    this.#map.set(key, value);
  }

  clear(): void {
    this.#map.clear();
  }
}
