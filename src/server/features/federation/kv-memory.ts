// What this process last read from or wrote to Fedify's key–value store, kept in memory, so that
// the reads Fedify repeats (a remote actor's public key at each of its activities, the signature
// spec a server answered to) do not go to the database every time. Every write of the process
// goes through it (kept on set, forgotten on delete and compare-and-swap), so within the process
// nothing it holds is staler than the database; a value is kept no longer than its own time to
// live, nor than the memory's age, after which another process's write is seen. A key that holds
// nothing is never kept as such: an activity another process handled is never taken for new.
import { LRUCache } from "lru-cache";

/** A value as the store holds it (its JSON), and when it expires (milliseconds; null: never). */
export interface Remembered {
  json: string;
  expiresAt: number | null;
}

/** A key's reads and writes under way: how many, how many writes, when the last write began. */
interface Busy {
  ops: number;
  writes: number;
  lastWrite: number;
}

export class KvMemory {
  private readonly recent: LRUCache<string, Remembered>;
  private readonly busy = new Map<string, Busy>();
  private sequence = 0;

  constructor(
    size: number,
    private readonly maxAgeMs: number,
  ) {
    this.recent = new LRUCache({ max: size });
  }

  /** What `key` holds, as this process last read or wrote it, while that holds. */
  recall(key: string): Remembered | undefined {
    return this.recent.get(key);
  }

  /**
   * Runs a read, or (`writes`) a write, of `key`; then keeps what `kept` says the key holds now
   * (null: forgets it), unless a write of the same key overlapped it: which of them the database
   * holds last is not known then, and the key is left to the next read.
   */
  async run<T>(
    key: string,
    writes: boolean,
    work: () => Promise<T>,
    kept: (result: T) => Remembered | null,
  ): Promise<T> {
    const busy = this.busy.get(key) ?? { ops: 0, writes: 0, lastWrite: 0 };
    this.busy.set(key, busy);
    const started = ++this.sequence;
    const alone = busy.writes === 0;
    busy.ops += 1;
    if (writes) {
      busy.writes += 1;
      busy.lastWrite = started;
      this.recent.delete(key);
    }
    try {
      const result = await work();
      if (alone && busy.lastWrite <= started) this.keep(key, kept(result));
      return result;
    } finally {
      busy.ops -= 1;
      if (writes) busy.writes -= 1;
      if (busy.ops === 0) this.busy.delete(key);
    }
  }

  private keep(key: string, value: Remembered | null) {
    if (!value) {
      this.recent.delete(key);
      return;
    }
    const now = Date.now();
    const ttl = Math.min(value.expiresAt ?? Number.POSITIVE_INFINITY, now + this.maxAgeMs) - now;
    if (ttl > 0) this.recent.set(key, value, { ttl });
    else this.recent.delete(key);
  }
}
