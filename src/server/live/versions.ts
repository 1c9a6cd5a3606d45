// Versions of what pages poll, bumped by change events, so an unchanged poll is answered 304, and
// an unchanged full answer comes from the response cache, without touching the database.
import { createHmac, randomBytes } from "node:crypto";
import type { PrismEvent } from "../../contract/events.ts";
import type { EventBus } from "./bus.ts";

export const versionKeys = {
  prismList: (username: string) => `prisms:${username.toLowerCase()}`,
  /** A member's prisms themselves, not their hearts: added, edited, moved or deleted. */
  ownedPrisms: (username: string) => `owned:${username.toLowerCase()}`,
  profile: (username: string) => `profile:${username.toLowerCase()}`,
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

function keysOf(event: PrismEvent): string[] {
  switch (event.type) {
    case "prisms.changed":
      return [
        versionKeys.prismList(event.username),
        versionKeys.ownedPrisms(event.username),
        versionKeys.exploreMembers(),
        versionKeys.explorePrisms(),
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
        versionKeys.explorePrisms(),
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
    // Every unread count is tagged after the session is checked.
    case "sessions.ended":
      return [];
  }
}

export class Versions {
  // A fresh prefix per process: tags from another instance or an earlier run never match. A new
  // one, too, when the bus may have missed events: every tag then moves on.
  private boot = randomBytes(4).toString("hex");
  private readonly counters = new Map<string, number>();
  private seen = 0;

  /** `secret` keys every entity tag: nobody can make one, nor compare one viewer's with another's. */
  constructor(
    bus: EventBus,
    private readonly secret: string,
  ) {
    bus.subscribe((event) => {
      this.seen += 1;
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

  /** Where the versions of `keys` stand: equal tags mean none of them moved in between. */
  tag(keys: readonly string[]): string {
    return `${this.boot}-${keys.map((key) => this.counters.get(key) ?? 0).join(".")}`;
  }

  /**
   * An entity tag for `keys`; `viewer` names whatever else the answer depends on (the viewer, for
   * responses that differ per viewer).
   */
  etag(keys: string | readonly string[], viewer = ""): string {
    const all = typeof keys === "string" ? [keys] : keys;
    return this.sign(`${all.join(" ")} ${this.tag(all)} ${viewer}`);
  }

  /**
   * The entity tag of an exact answer, as `viewer` receives it: it moves only when the answer
   * does, whatever else changed beside it.
   */
  answerEtag(answer: string, viewer: string): string {
    return this.sign(`answer ${answer} ${viewer}`);
  }

  private sign(what: string): string {
    return `"${createHmac("sha256", this.secret).update(what).digest("base64url").slice(0, 22)}"`;
  }
}
