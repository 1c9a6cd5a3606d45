// What changed, as the server announces it to other instances and to open pages.
/**
 * Only these members (and admins) may see what changed; absent or null (as a statement writes
 * it): anyone may. A change to a prism only some may see (its audience) reaches only them.
 */
type Hearers = number[] | null;

export type PrismEvent =
  | {
      type: "prisms.changed";
      username: string;
      /** The prisms it changed, when it names them: who may hear of it follows from theirs. */
      prismIds?: number[];
      audience?: Hearers;
    }
  /** A member's public profile changed, or the member left or came back (server-side only). */
  | { type: "profile.changed"; username: string }
  /** A member was made an admin or stopped being one (server-side only; their streams end). */
  | { type: "roles.changed"; userId: number }
  | {
      type: "heart.changed";
      prismId: number;
      heartsCount: number;
      username: string;
      audience?: Hearers;
    }
  | {
      type: "annotation.changed";
      prismId: number;
      username: string;
      audience?: Hearers;
    }
  | {
      type: "notification.created";
      userId: number;
      /** It may be e-mailed (a response to review, a reply): only then does the mailer look. */
      mail?: true;
    }
  /**
   * The owner decided on, or replied to, an anonymous response whose author left an e-mail
   * address: the mailer tells them (server-side only).
   */
  | { type: "response.mail"; annotationId: number }
  /** A member's notifications were read or deleted (anything but a new one). */
  | { type: "notifications.changed"; userId: number }
  /**
   * Every session of the member ended (deactivation, a password reset, a deleted account), or,
   * with `session` (the SHA-256 of its token, as stored), only that one (signing out): the
   * streams those sessions opened end too.
   */
  | { type: "sessions.ended"; userId: number; session?: string };

/**
 * The header a page sends with its requests once its stream has brought an event: that event's
 * name (the stream's `id:` field). An instance that has not heard it yet (another instance
 * announced it a moment ago) waits for it, briefly, before answering from what it keeps in
 * memory, so that a page told of a change is never answered "unchanged".
 */
export const HEARD_EVENT_HEADER = "prism-heard-event";
