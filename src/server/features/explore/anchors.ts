// Rows whose place in an explore list is known, so that a deep page starts from the nearest one
// before it instead of skipping every row from the top: the skip then costs the distance from
// that row, not the page's offset.
import type { Anchor } from "./service.ts";

/** At most this many rows are remembered per list; a new one past it starts the list over. */
const MAX_ANCHORS = 1000;

/**
 * The known rows of one list, for one version of it (`tag`): a new version forgets them all,
 * since rows may have moved. Sorted by position.
 */
export class Anchors<Key> {
  private tag = "";
  private known: Anchor<Key>[] = [];

  /** The known row nearest before `offset` (or at it) in the list at `tag`. */
  before(tag: string, offset: number): Anchor<Key> | undefined {
    if (tag !== this.tag) return undefined;
    let low = 0;
    let high = this.known.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((this.known[middle] as Anchor<Key>).position <= offset) low = middle + 1;
      else high = middle;
    }
    return this.known[low - 1];
  }

  /** Remembers that `anchor`'s row is at its position in the list at `tag`. */
  learn(tag: string, anchor: Anchor<Key>) {
    if (tag !== this.tag || this.known.length >= MAX_ANCHORS) {
      this.tag = tag;
      this.known = [];
    }
    const at = this.known.findIndex((each) => each.position >= anchor.position);
    if (at === -1) this.known.push(anchor);
    else if (this.known[at]?.position !== anchor.position) this.known.splice(at, 0, anchor);
  }
}
