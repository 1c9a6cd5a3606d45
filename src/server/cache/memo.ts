// Data read from the database, kept in memory for as long as the versions it was read under stand
// (see versions.ts), so that answers built from it per viewer need no query.
import { LRUCache } from "lru-cache";
import type { EventBus } from "../live/bus.ts";
import { cacheHits, cacheMisses } from "../metrics.ts";
import type { Versions } from "./versions.ts";

/** A value with the version keys of everything it was read from. */
export interface Loaded<T> {
  value: T;
  keys: readonly string[];
}

export interface Kept<T> extends Loaded<T> {
  /** Where `keys` stood when the value was read. */
  tag: string;
}

/**
 * Values by id, each kept with the versions of what it was read from: once an event moves one of
 * them the value is read afresh, so it is never stale. Bounded by `maxSize`, in the units of
 * `sizeOf`. Its hits and misses are counted under `name`.
 */
export class Memo<Id extends string | number, T> {
  private readonly kept: LRUCache<Id, Kept<T>>;
  private readonly name: string;

  constructor(
    private readonly versions: Versions,
    bus: Pick<EventBus, "onResync">,
    options: { name: string; maxSize: number; sizeOf: (value: T) => number },
  ) {
    this.name = options.name;
    this.kept = new LRUCache({
      maxSize: options.maxSize,
      sizeCalculation: (kept) => Math.max(1, options.sizeOf(kept.value)),
    });
    // Versions start over after missed events; what was read under the old ones is dead weight.
    bus.onResync(() => this.kept.clear());
  }

  /** The kept value of `id`, while its versions stand. */
  current(id: Id): Kept<T> | undefined {
    const kept = this.kept.get(id);
    if (!kept) return undefined;
    if (this.versions.tag(kept.keys) === kept.tag) return kept;
    this.kept.delete(id);
    return undefined;
  }

  /**
   * The value of `id`: kept, or read now by `load`, with where its keys stood when it was read. A
   * value read while any change was announced is answered but not kept (its keys come with it,
   * too late to tell whether that change was one of them); without keys, then.
   */
  async get(id: Id, load: () => Promise<Loaded<T>>): Promise<Partial<Kept<T>> & { value: T }> {
    const current = this.current(id);
    if (current) {
      cacheHits.inc(this.name);
      return current;
    }
    cacheMisses.inc(this.name);
    const before = this.versions.stamp();
    const loaded = await load();
    if (this.versions.stamp() !== before) return { value: loaded.value };
    const kept = { ...loaded, tag: this.versions.tag(loaded.keys) };
    this.kept.set(id, kept);
    return kept;
  }
}
