// A bounded memory of recent values, each until its own time: when it is full, the value used
// least recently goes first.

export class Recent<K, V> {
  private readonly entries = new Map<K, { value: V; until: number }>();

  constructor(private readonly size: number) {}

  /** The value under `key` while it holds (it becomes the most recently used); else undefined. */
  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.until <= Date.now()) return undefined;
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Keeps `value` under `key` until the time `until` (milliseconds since the epoch). */
  set(key: K, value: V, until = Number.POSITIVE_INFINITY) {
    this.entries.delete(key);
    this.entries.set(key, { value, until });
    if (this.entries.size > this.size) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
  }

  delete(key: K) {
    this.entries.delete(key);
  }
}
