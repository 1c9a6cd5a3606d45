// The bounds every input is held to, shared by the forms and the server.
export const limits = {
  usernameMin: 3,
  usernameMax: 30,
  passwordMin: 6,
  passwordMax: 1024,
  emailMax: 254,
  nameMax: 100,
  urlMax: 2048,
  prismTitleMax: 200,
  /** A prism's content in UTF-8 bytes, as sent and as stored once sanitized. */
  prismContentBytes: 50 * 1024,
  /**
   * Prisms on one member's page: several times what a page about oneself holds (the demo's
   * fullest has a handful), and it bounds the page at 50 × 50 KB.
   */
  prismsPerMember: 50,
  /**
   * A member's writes to their prisms (create, edit, move, delete, responders) a minute: moving
   * the last of 50 prisms to the top takes 49.
   */
  prismWritesPerMinute: 60,
  /**
   * An owner's writes to their replies (write, rewrite, take back) a minute, a budget of its own:
   * answering a busy day's responses never holds up changes to one's prisms.
   */
  replyWritesPerMinute: 60,
  /** Responses on one page of the owner's review queue. */
  reviewPageSize: 50,
  /** Responses one bulk decision may name: two pages of the review queue. */
  bulkDecisionsMax: 100,
  /** An owner's bulk decisions a minute, a budget of its own (each decides up to 100 responses). */
  reviewWritesPerMinute: 60,
  /**
   * Versions of one prism kept, the current one included: past them the oldest go first, except
   * those another person than the owner responded to, which `answeredRevisionsKept` bounds.
   */
  revisionsKept: 100,
  /** Versions of one prism kept beside those because another person responded to them. */
  answeredRevisionsKept: 100,
  /**
   * Bytes (UTF-8) of the kept versions of one member's prisms, titles and contents: past them the
   * oldest go first, whatever responses were made on them.
   */
  revisionBytesPerMember: 10_000_000,
  /**
   * Views of one prism counted per address and UTC day: more from that address answer as any
   * other and count nothing (a household shares an address; a script making browser ids does too).
   */
  viewsPerAddress: 20,
  annotationMax: 2000,
  /** The owner's reply to a response. */
  replyMax: 2000,
  /** The passage a response quotes: a long paragraph (and a bound on re-anchoring's work). */
  selectionMax: 1000,
  /** The words a response keeps from either side of its passage, in characters. */
  originalContextMax: 100,
  bodyBytes: 256 * 1024,
  /** An anonymous response's proof of work and honeypot, each (see `person-check.ts`). */
  personCheckMax: 4000,
  /**
   * How long a response's form must have been open before it is sent: a person reads the passage
   * and writes; a script posts at once. The dialog waits out what is left of it.
   */
  typingFloorMs: 2000,
  /** The longest time a form is said to have been open (a day); a longer one says a day. */
  typingMsMax: 24 * 60 * 60 * 1000,
  /** A team's name. */
  teamNameMax: 60,
  /** A team's slug, made from its name (a suffix on a collision may add a few characters). */
  teamSlugMax: 40,
  /** How long an invite link lets people join a team. */
  inviteDays: 7,
  /** How many people may join a team by one invite link. */
  inviteUsesMax: 50,
  /** A member's changes to teams a minute (create, rename, delete, invite, revoke, join, remove). */
  teamWritesPerMinute: 60,
  pageSize: 10,
  pageSizeMax: 50,
  /** The largest id (ids are 32-bit integers). */
  idMax: 2 ** 31 - 1,
} as const;

/** First path segments the app itself uses; nobody may take them as a username. */
const reservedUsernames = new Set([
  "about",
  "admin",
  "api",
  "assets",
  "auth",
  "catalyst",
  "contact",
  "debug",
  "docs",
  "embed",
  "error",
  "error-demo",
  "explore",
  "favicon.ico",
  "forgot-password",
  "help",
  "invites",
  "login",
  "logout",
  "notifications",
  "oembed",
  "privacy",
  "profile",
  "register",
  "reset-password",
  "responses",
  "review",
  "robots.txt",
  "settings",
  "sign-in",
  "sign-up",
  "signin",
  "signup",
  "sitemap.xml",
  "static",
  "teams",
  "terms",
  "terms-privacy",
  "unsubscribe",
]);

export function isReservedUsername(username: string): boolean {
  return reservedUsernames.has(username.toLowerCase());
}
