// Versions of what pages poll, bumped by change events, so an unchanged poll is answered 304, and
// an unchanged full answer comes from the response cache, without touching the database.
import { createHash, randomBytes } from "node:crypto";
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
  /**
   * Bumped by every change to anyone's notifications. The unread-count tag is computed before the
   * session is resolved, so it cannot name the member; this key plus the session cookie can.
   */
  anyNotifications: () => "notifications:any",
};

function keysOf(event: PrismEvent): string[] {
  switch (event.type) {
    // Deleting a prism or an annotation deletes its notifications (cascade), and deciding an
    // annotation marks them read, so these also move every unread count's tag.
    case "prisms.changed":
      return [
        versionKeys.prismList(event.username),
        versionKeys.ownedPrisms(event.username),
        versionKeys.anyNotifications(),
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
      return [versionKeys.annotations(event.prismId), versionKeys.anyNotifications()];
    case "notification.created":
    case "notifications.changed":
      return [versionKeys.notifications(event.userId), versionKeys.anyNotifications()];
    // The member's unread-count tag was made with a session that no longer answers.
    case "sessions.ended":
      return [versionKeys.anyNotifications()];
  }
}

export class Versions {
  // A fresh prefix per process: tags from another instance or an earlier run never match. A new
  // one, too, when the bus may have missed events: every tag then moves on.
  private boot = randomBytes(4).toString("hex");
  private readonly counters = new Map<string, number>();
  private seen = 0;

  constructor(bus: EventBus) {
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
   * responses that differ per viewer). Short whatever the number of keys.
   */
  etag(keys: string | readonly string[], viewer = ""): string {
    const tag = this.tag(typeof keys === "string" ? [keys] : keys);
    if (!viewer && typeof keys === "string") return `"${tag}"`;
    const digest = createHash("sha256").update(`${tag} ${viewer}`).digest("base64url");
    return `"${this.boot}-${digest.slice(0, 16)}"`;
  }
}
