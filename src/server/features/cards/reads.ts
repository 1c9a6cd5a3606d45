// Share cards from memory. What a card shows is kept while the member's profile and prisms stay as
// they were read; the PNG drawn for it is kept by its tag, which names exactly what it shows, so
// an edit that leaves a card as it was (a later prism, a heart) draws nothing again. Drawing is the
// costly part: one card is drawn once however many ask for it at the same time, and a draw is
// what the asker's limit is spent on (a card kept or being drawn costs them nothing).
import { LRUCache } from "lru-cache";
import { cardQuery, prismCardParams, profileCardParams } from "../../../contract/card-request.ts";
import { type CardContent, cardMessages, cardPath, cardVersion } from "../../../contract/cards.ts";
import { type Answer, type Client, defineRead, type Redirect } from "../../cache/cached-read.ts";
import { Memo } from "../../cache/memo.ts";
import { versionKeys } from "../../cache/versions.ts";
import type { AppDeps } from "../../deps.ts";
import { cacheHits, cacheMisses } from "../../metrics.ts";
import { by, Limit } from "../../plugins/rate-limit.ts";
import { renderCard } from "./render.ts";
import { readCard } from "./service.ts";

/** Rendered cards kept, in bytes: a card is 30 to 90 KB, so a few hundred of the latest. */
const IMAGES_MAX_BYTES = 24 * 1024 * 1024;

/**
 * Drawn cards, kept by their tags; one card is drawn once however many ask for it at once. The
 * tags start over after missed events; so does what was kept by them.
 */
function cardImages(bus: AppDeps["bus"]) {
  const images = new LRUCache<string, Buffer>({
    maxSize: IMAGES_MAX_BYTES,
    sizeCalculation: (png) => png.byteLength,
  });
  const drawing = new Map<string, Promise<Buffer>>();
  bus.onResync(() => images.clear());
  return {
    /** The card's PNG if it is kept, or being drawn for another request. */
    ready(etag: string): Promise<Buffer> | undefined {
      const kept = images.get(etag);
      const found = kept ? Promise.resolve(kept) : drawing.get(etag);
      if (found) cacheHits.inc("card-images");
      return found;
    },

    /** Draws the card's PNG, and keeps it. */
    draw(etag: string, card: CardContent): Promise<Buffer> {
      cacheMisses.inc("card-images");
      const drawn = renderCard(card)
        .then((png) => {
          images.set(etag, png);
          return png;
        })
        .finally(() => drawing.delete(etag));
      drawing.set(etag, drawn);
      return drawn;
    },
  };
}

export function cardReads({
  db,
  bus,
  versions,
  limitStore,
}: Pick<AppDeps, "db" | "bus" | "versions" | "limitStore">) {
  const contents = new Memo<string, CardContent>(versions, bus, {
    name: "card-contents",
    maxSize: 2_000_000,
    sizeOf: (card) => card.name.length + card.title.length + (card.excerpt?.length ?? 0),
  });
  const { ready, draw } = cardImages(bus);
  // A member's page of 50 prisms, with its own card, shared at once: one address draws them all.
  const draws = [new Limit(limitStore, "card-draws", 60, 10, by.address)];

  // Usernames ignore case, as the profile's own version key does.
  const idOf = (username: string, prismId: number | null) =>
    `${username.toLowerCase()} ${prismId ?? ""}`;
  const tagOf = (card: CardContent) =>
    versions.answerEtag(`${cardVersion(card)} ${JSON.stringify(card)}`, "card");

  /** The tag of a card, while memory knows what it shows. */
  function etag(username: string, prismId: number | null): string | undefined {
    const kept = contents.current(idOf(username, prismId));
    return kept && tagOf(kept.value);
  }

  /** What `username`'s card, or their prism `prismId`'s, shows; 404 as `readCard` says. */
  async function content(username: string, prismId: number | null): Promise<CardContent> {
    const { value } = await contents.get(idOf(username, prismId), async () => {
      const read = await readCard(db, username, prismId);
      return {
        value: read.card,
        keys: [versionKeys.profile(read.username), versionKeys.ownedPrisms(read.username)],
      };
    });
    return value;
  }

  /**
   * The card's PNG: kept, being drawn (for another request), or drawn now, once the asker's
   * address has spent a draw. An address that names another version (`v`) is sent to the
   * current one's.
   */
  async function image(
    username: string,
    prismId: number | null,
    v: string | undefined,
    client: Client,
  ): Promise<Answer<Buffer> | Redirect> {
    const card = await content(username, prismId);
    if (v !== undefined && v !== cardVersion(card)) {
      return { redirect: cardPath(card.username, prismId, card) };
    }
    const etag = tagOf(card);
    let png = ready(etag);
    if (!png) {
      await client.spend(cardMessages.tooMany, draws);
      // Another request may have begun to draw it meanwhile.
      png = ready(etag) ?? draw(etag, card);
    }
    return { value: await png, etag: () => etag };
  }

  return {
    /** The share card of a member's page. */
    profile: defineRead({
      for: "everyone",
      params: profileCardParams,
      querystring: cardQuery,
      type: "image/png",
      etag: ({ username }) => etag(username, null),
      read: ({ username, v }, client) => image(username, null, v, client),
    }),

    /** The share card of one of a member's prisms. */
    prism: defineRead({
      for: "everyone",
      params: prismCardParams,
      querystring: cardQuery,
      type: "image/png",
      etag: ({ username, prismId }) => etag(username, prismId),
      read: ({ username, prismId, v }, client) => image(username, prismId, v, client),
    }),
  };
}
