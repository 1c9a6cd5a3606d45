// Versions of what pages poll, bumped by change events, so an unchanged poll is answered 304, and
// an unchanged full answer comes from the response cache, without touching the database.
import { createHmac, randomBytes } from "node:crypto";
import { LRUCache } from "lru-cache";
import type { PrismEvent } from "../../contract/events.ts";
import type { EventBus } from "../live/bus.ts";

export const versionKeys = {
  prismList: (username: string) => `prisms:${username.toLowerCase()}`,
  /** A member's prisms themselves, not their hearts: added, edited, moved or deleted. */
  ownedPrisms: (username: string) => `owned:${username.toLowerCase()}`,
  /** A member's public prisms: what every way out of Prism (feeds, embeds) shows of them. */
  publicPrisms: (username: string) => `public:${username.toLowerCase()}`,
  profile: (username: string) => `profile:${username.toLowerCase()}`,
  /**
   * One prism itself (its text, audience, responders, or its deletion): what a read of that prism
   * alone stands on, so that a change to its owner's other prisms (which a reader of this one may
   * not see) leaves it as it is.
   */
  prism: (prismId: number) => `prism:${prismId}`,
  /** The explore members list: members' prisms (the first one shown) or public profiles. */
  exploreMembers: () => "explore:members",
  /** The explore prisms list: prisms, their authors' profiles, and their heart counts. */
  explorePrisms: () => "explore:prisms",
  /** Who is an admin: answers that show admins more than others stand on it. */
  roles: () => "roles",
  heart: (prismId: number) => `heart:${prismId}`,
  annotations: (prismId: number) => `annotations:${prismId}`,
  notifications: (userId: number) => `notifications:${userId}`,
};

/**
 * Explore, feeds and embeds show public prisms alone: a change only some members may see (a team
 * prism's, a draft's) leaves them, and their tags, as they are.
 */
const explore = (event: { audience?: number[] | null }, ...keys: string[]) =>
  Array.isArray(event.audience) ? [] : keys;

function keysOf(event: PrismEvent): string[] {
  switch (event.type) {
    case "prisms.changed":
      return [
        versionKeys.prismList(event.username),
        versionKeys.ownedPrisms(event.username),
        ...explore(
          event,
          versionKeys.publicPrisms(event.username),
          versionKeys.exploreMembers(),
          versionKeys.explorePrisms(),
        ),
        ...(event.prismIds ?? []).map(versionKeys.prism),
      ];
    case "profile.changed":
      return [
        versionKeys.profile(event.username),
        versionKeys.exploreMembers(),
        versionKeys.explorePrisms(),
      ];
    // The members list shows no hearts and is not ordered by them.
    case "heart.changed":
      return [
        versionKeys.heart(event.prismId),
        versionKeys.prismList(event.username),
        ...explore(event, versionKeys.explorePrisms()),
      ];
    case "roles.changed":
      return [versionKeys.roles()];
    case "annotation.changed":
      return [versionKeys.annotations(event.prismId)];
    // Whatever changes a member's notifications (a prism or an annotation deleted with its
    // notifications, a decision that marks them read) also announces this for each member.
    case "notification.created":
    case "notifications.changed":
      return [versionKeys.notifications(event.userId)];
    // Every unread count is tagged after the session is checked; a mail changes no answer.
    case "sessions.ended":
    case "response.mail":
      return [];
  }
}

/**
 * How far back a stamp can be answered with the events after it (`since`): the last 1,000 events
 * heard, and none older than 2 minutes. A rendered page opens its stream once its scripts have
 * loaded, seconds after the render; 2 minutes covers a slow phone many times over, and a page
 * older than that refetches what it shows. 1,000 events hold a few hundred kilobytes at most,
 * and bound what one stream's replay costs (at most 1,000 classifications, and one write); a
 * site busier than that between a render and its stream has likely changed most of what the
 * page shows anyway.
 */
const REPLAY_EVENTS = 1000;
const REPLAY_MS = 2 * 60_000;

interface Heard {
  event: PrismEvent;
  at: number;
}

export interface VersionsOptions {
  /** How many of the last events `since` can answer with; 1,000 unless a test says otherwise. */
  replayEvents?: number;
}

export class Versions {
  // A fresh prefix per process: tags from another instance or an earlier run never match. A new
  // one, too, when the bus may have missed events: every tag then moves on.
  private boot = randomBytes(4).toString("hex");
  private readonly counters = new Map<string, number>();
  private seen = 0;
  /** The last events heard, the one numbered `seen` at `seen % length`: a ring, written in O(1). */
  private readonly recent: Heard[];
  /**
   * Tags signed lately, by what they sign: an unchanged poll asks for the same tag again and
   * again, and its HMAC was the largest share of a 304's own work. Bounded by the text it holds.
   */
  private readonly signed = new LRUCache<string, string>({
    maxSize: 4 * 1024 * 1024,
    sizeCalculation: (_tag, what) => what.length + 32,
  });

  /** `secret` keys every entity tag: nobody can make one, nor compare one viewer's with another's. */
  constructor(
    bus: Pick<EventBus, "subscribe" | "onResync">,
    private readonly secret: string,
    options: VersionsOptions = {},
  ) {
    this.recent = new Array<Heard>(options.replayEvents ?? REPLAY_EVENTS);
    bus.subscribe((event) => {
      this.seen += 1;
      this.recent[this.seen % this.recent.length] = { event, at: Date.now() };
      for (const key of keysOf(event)) this.counters.set(key, (this.counters.get(key) ?? 0) + 1);
    });
    bus.onResync(() => {
      this.boot = randomBytes(4).toString("hex");
    });
  }

  /**
   * Where this process stands in the stream of changes: equal stamps mean nothing changed in
   * between (a server-rendered page and the live stream it then opens compare theirs).
   */
  stamp(): string {
    return `${this.boot}-${this.seen}`;
  }

  /**
   * The events heard after `stamp`, in the order they came, or null when they are not all known:
   * a stamp of another process or boot (after a resync, events may have been missed), or older
   * than the last events kept.
   */
  since(stamp: string): PrismEvent[] | null {
    const dash = stamp.lastIndexOf("-");
    const from = Number(stamp.slice(dash + 1));
    if (stamp.slice(0, dash) !== this.boot || !Number.isSafeInteger(from)) return null;
    if (from < 0 || from > this.seen || this.seen - from > this.recent.length) return null;
    const events: PrismEvent[] = [];
    for (let n = from + 1; n <= this.seen; n++) {
      const heard = this.recent[n % this.recent.length] as Heard;
      if (n === from + 1 && heard.at < Date.now() - REPLAY_MS) return null;
      events.push(heard.event);
    }
    return events;
  }

  /** Where the versions of `keys` stand: equal tags mean none of them moved in between. */
  tag(keys: readonly string[]): string {
    return `${this.boot}-${keys.map((key) => this.counters.get(key) ?? 0).join(".")}`;
  }

  /**
   * An entity tag for `keys`; `viewer` names whatever else the answer depends on (the viewer, for
   * responses that differ per viewer). `at` is where the keys stood when the answer was read (a
   * `tag`), when that may be before now.
   */
  etag(keys: string | readonly string[], viewer = "", at?: string): string {
    const all = typeof keys === "string" ? [keys] : keys;
    return this.sign(`${all.join(" ")} ${at ?? this.tag(all)} ${viewer}`);
  }

  /**
   * The entity tag of an exact answer, as `viewer` receives it: it moves only when the answer
   * does, whatever else changed beside it.
   */
  answerEtag(answer: string, viewer: string): string {
    return this.sign(`answer ${answer} ${viewer}`);
  }

  private sign(what: string): string {
    let tag = this.signed.get(what);
    if (tag === undefined) {
      tag = `"${createHmac("sha256", this.secret).update(what).digest("base64url").slice(0, 22)}"`;
      this.signed.set(what, tag);
    }
    return tag;
  }
}
