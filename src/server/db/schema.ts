// Prism's tables: one schema for PGlite and PostgreSQL.
import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

import type { TopPassage } from "../../contract/resonance.ts";

/** Bytes as PostgreSQL keeps them (`bytea`); a Buffer in and out. */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => Buffer.from(value),
});

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
const id = () => integer("id").primaryKey().generatedAlwaysAsIdentity();

export const authProvider = pgEnum("auth_provider", ["local", "google"]);
/** `spam`: set aside by its score or by the owner; shown to its author as pending, and purged after 30 days. */
export const annotationStatus = pgEnum("annotation_status", [
  "pending",
  "approved",
  "rejected",
  "spam",
]);
export const notificationType = pgEnum("notification_type", [
  "heart",
  "annotation",
  "approved",
  "rejected",
  "reply",
  "team.prism",
]);
/** When a member is e-mailed about new responses to review and replies to theirs. */
export const emailNotifications = pgEnum("email_notifications", ["immediately", "daily", "never"]);
/** Who may respond to a prism: anyone, signed-in members only, or no one. */
export const prismResponders = pgEnum("prism_responders", ["anyone", "members", "no-one"]);
/**
 * What a member asks of responses written without an account: the person check (and the spam
 * score's verdict), every one held for their own review (never set aside as spam by the score),
 * or none at all (members only).
 */
export const anonymousResponses = pgEnum("anonymous_responses", ["check", "hold", "members"]);
/** What a link in a response written without an account does: nothing, holds it, or makes it spam. */
export const anonymousLinks = pgEnum("anonymous_links", ["allowed", "held", "spam"]);
/** Why a reader flags a published response. */
export const flagReason = pgEnum("flag_reason", ["spam", "abuse", "private", "other"]);
/** A member's part in a team: its owners run it (rename, invite, remove, delete); members belong. */
/** What an owner's decision on a response taught their content classifier. */
export const spamLesson = pgEnum("spam_lesson", ["ham", "spam"]);
export const teamRole = pgEnum("team_role", ["owner", "member"]);
/** Who may read a prism: everyone, the members who share a team with its owner, or its owner. */
export const prismAudience = pgEnum("prism_audience", ["public", "team", "private"]);

export const users = pgTable(
  "users",
  {
    id: id(),
    username: text("username").notNull(),
    email: text("email").notNull(),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    password: text("password"),
    displayName: text("display_name"),
    websiteUrl: text("website_url"),
    /** The website links back to the member's Prism page with rel="me", as last checked. */
    websiteVerified: boolean("website_verified").notNull().default(false),
    /** When the website was last checked for that link back; null until it has been. */
    websiteCheckedAt: timestamp("website_checked_at", { withTimezone: true }),
    twitterUrl: text("twitter_url"),
    linkedinUrl: text("linkedin_url"),
    isAdmin: boolean("is_admin").notNull().default(false),
    lastActiveAt: timestamp("last_active_at", { withTimezone: true }),
    authProvider: authProvider("auth_provider").notNull().default("local"),
    googleId: text("google_id").unique(),
    profileImageUrl: text("profile_image_url"),
    createdAt: createdAt(),
    deactivatedAt: timestamp("deactivated_at", { withTimezone: true }),
    /** Responses by signed-in members to this member's prisms are approved at once. */
    preapproveMembers: boolean("preapprove_members").notNull().default(false),
    /** Responses by members who share a team with this member are approved at once. */
    preapproveTeammates: boolean("preapprove_teammates").notNull().default(true),
    /** The member is told when a teammate writes or edits a prism they may read. */
    notifyTeamPrisms: boolean("notify_team_prisms").notNull().default(false),
    /** What this member asks of responses to their prisms written without an account. */
    anonymousResponses: anonymousResponses("anonymous_responses").notNull().default("check"),
    /** What a link does in a response to their prisms written without an account. */
    anonymousLinks: anonymousLinks("anonymous_links").notNull().default("held"),
    /** Words that hold a response to their prisms for review (matched as whole words, any case). */
    watchedWords: text("watched_words").array().notNull().default(sql`'{}'::text[]`),
    /**
     * When an admin silenced the member: their responses are shown to them and to admins alone,
     * and tell nobody (Hypothesis' NIPSA). Null while they are not silenced.
     */
    silencedAt: timestamp("silenced_at", { withTimezone: true }),
    /**
     * The member has at least one public prism. Kept by the database itself (a trigger on prisms, see
     * migration 0004), so that the explore page can page through members by one index alone.
     */
    hasPrisms: boolean("has_prisms").notNull().default(false),
    emailNotifications: emailNotifications("email_notifications").notNull().default("daily"),
    /**
     * Notifications made from this time on may be e-mailed: it moves to the present when the
     * member turns e-mail back on, so what came while it was off is never mailed (nor, for members
     * who were here before e-mail, what came before it).
     */
    mailSince: timestamp("mail_since", { withTimezone: true }).notNull().defaultNow(),
    /** When the member's last daily digest was sent. */
    lastDigestAt: timestamp("last_digest_at", { withTimezone: true }),
    /** The member may be followed from the fediverse (ActivityPub); off until they turn it on. */
    federated: boolean("federated").notNull().default(false),
    /** A follow from the fediverse waits for the member to accept it, instead of at once. */
    approveFollowers: boolean("approve_followers").notNull().default(false),
    /**
     * The member's page may be indexed by search engines and shown on explore. Unlisted, it is
     * still reachable by its link.
     */
    listed: boolean("listed").notNull().default(true),
  },
  (t) => [
    uniqueIndex("users_username_lower_idx").on(sql`lower(${t.username})`),
    uniqueIndex("users_email_lower_idx").on(sql`lower(${t.email})`),
    index("users_last_active_idx").on(t.lastActiveAt),
    index("users_created_idx").on(t.createdAt),
    // Explore's members, in its order: a deep page is a skip along this index, nothing else.
    index("users_explore_idx")
      .on(t.lastActiveAt.desc().nullsLast(), t.id.desc())
      .where(sql`${t.deactivatedAt} is null and ${t.hasPrisms} and ${t.listed}`),
  ],
);

export const prisms = pgTable(
  "prisms",
  {
    id: id(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    content: text("content").notNull().default(""),
    index: integer("index").notNull(),
    heartsCount: integer("hearts_count").notNull().default(0),
    editedAfterHearts: boolean("edited_after_hearts").notNull().default(false),
    responders: prismResponders("responders").notNull().default("anyone"),
    /** Who may read it (see `canSeePrism` in policy.ts). */
    audience: prismAudience("audience").notNull().default("public"),
    /**
     * The number of the prism's current version: 1 when created, one more with each save that
     * changes its title or content. The versions before it are kept in `prism_revisions`.
     */
    revision: integer("revision").notNull().default(1),
    /**
     * The author is not deactivated. Kept by the database itself (triggers on prisms and users,
     * see migration 0004), so that the explore page can page through prisms by one index alone.
     */
    authorActive: boolean("author_active").notNull().default(true),
    /**
     * The author's page is listed (see `users.listed`). Kept by the database itself (triggers on
     * prisms and users, see migration 0031), so that explore's deep pages skip along its index
     * alone, with no look at each author.
     */
    authorListed: boolean("author_listed").notNull().default(true),
    /**
     * The stretch of its text that most different people's approved responses cover, once at
     * least 3 do (`TopPassage`); kept up to date by every write that changes its annotations.
     */
    topPassage: jsonb("top_passage").$type<TopPassage>(),
    createdAt: createdAt(),
    /** When the current version was saved: moved only by a save that changes title or content. */
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("prisms_user_index_idx").on(t.userId, t.index),
    // Explore's prisms, in its order: a deep page is a skip along this index, nothing else.
    index("prisms_explore_idx")
      .on(t.heartsCount.desc(), t.createdAt.desc(), t.id.desc())
      .where(sql`${t.authorActive} and ${t.authorListed} and ${t.audience} = 'public'`),
    index("prisms_created_idx").on(t.createdAt),
    check("prisms_hearts_nonnegative", sql`${t.heartsCount} >= 0`),
  ],
);

export const prismHearts = pgTable(
  "prism_hearts",
  {
    id: id(),
    prismId: integer("prism_id")
      .notNull()
      .references(() => prisms.id, { onDelete: "cascade" }),
    userId: integer("user_id").references(() => users.id, { onDelete: "cascade" }),
    visitorHash: text("visitor_hash"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("prism_hearts_user_idx").on(t.prismId, t.userId),
    uniqueIndex("prism_hearts_visitor_idx").on(t.prismId, t.visitorHash),
    /** Whether a browser id of before ids were signed hearted (see `plugins/visitor.ts`). */
    index("prism_hearts_visitor_hash_idx").on(t.visitorHash),
    index("prism_hearts_user_id_idx").on(t.userId),
    index("prism_hearts_created_idx").on(t.createdAt),
    check("prism_hearts_actor", sql`${t.userId} is not null or ${t.visitorHash} is not null`),
  ],
);

/** What the check of an anonymous response found, kept for telling spam apart. */
/**
 * An owner's content classifier (see features/annotations/classifier.ts): how many responses of
 * each kind it learnt, and how often each word was among them.
 */
export interface SpamModel {
  docs: { ham: number; spam: number };
  /** The number of (response, word) pairs of each kind: the sum of each kind's word counts. */
  words: { ham: number; spam: number };
  /** Each word's count of responses of each kind that held it: `[ham, spam]`. */
  counts: Record<string, [number, number]>;
}

export interface ResponseSignals {
  /** How long the form was open before it was sent, as the browser says. */
  typingMs: number;
  /** How long after its challenge was issued the response arrived, as the server measures. */
  proofAgeMs: number;
  /** What its score found doubtful (see annotations/spam-score.ts), and the score; none before. */
  reasons?: string[];
  score?: number;
  /** A reply from the fediverse: its HTTP signature stands for the person check. */
  fediverse?: true;
}

export const annotations = pgTable(
  "annotations",
  {
    id: id(),
    prismId: integer("prism_id")
      .notNull()
      .references(() => prisms.id, { onDelete: "cascade" }),
    selectedText: text("selected_text").notNull(),
    annotationText: text("annotation_text").notNull(),
    userId: integer("user_id").references(() => users.id, { onDelete: "cascade" }),
    annotatorName: text("annotator_name"),
    annotatorEmail: text("annotator_email"),
    visitorHash: text("visitor_hash"),
    status: annotationStatus("status").notNull().default("pending"),
    selectionStart: integer("selection_start").notNull(),
    selectionEnd: integer("selection_end").notNull(),
    prefix: text("prefix").notNull().default(""),
    suffix: text("suffix").notNull().default(""),
    orphaned: boolean("orphaned").notNull().default(false),
    prismTitle: text("prism_title").notNull(),
    /** The prism owner's one answer, plain text; null until they write it. */
    replyText: text("reply_text"),
    repliedAt: timestamp("replied_at", { withTimezone: true }),
    replyUpdatedAt: timestamp("reply_updated_at", { withTimezone: true }),
    /** The SHA-256 of an anonymous author's private status link; null for members' responses. */
    statusTokenHash: text("status_token_hash").unique(),
    /** The prism's version (`prisms.revision`) the passage was selected in. */
    revision: integer("revision").notNull().default(1),
    /**
     * Up to 100 characters of that version's text before and after the passage, kept so that a
     * response whose passage is gone still shows the words it answered.
     */
    contextBefore: text("context_before").notNull().default(""),
    contextAfter: text("context_after").notNull().default(""),
    /** An anonymous response's check (see `ResponseSignals`); null for members' responses. */
    signals: jsonb("signals").$type<ResponseSignals>(),
    /**
     * When an anonymous author who left an e-mail address was mailed the owner's decision, and
     * their reply (each once; claimed before sending, given back when the mail server refused).
     */
    decisionMailedAt: timestamp("decision_mailed_at", { withTimezone: true }),
    replyMailedAt: timestamp("reply_mailed_at", { withTimezone: true }),
    /**
     * Its author is silenced (`users.silenced_at`): shown to them and to admins alone. Kept on the
     * response, as Hypothesis keeps NIPSA on each annotation, so that every rule of who sees it
     * reads it from the row.
     */
    silenced: boolean("silenced").notNull().default(false),
    /**
     * What the prism owner's decision on it taught their content classifier (`spam_models`):
     * kept so that a decision taken back unteaches it, and none is taught twice.
     */
    spamLesson: spamLesson("spam_lesson"),
    /** Where it was written: on Prism, or as a reply on the fediverse (see `remote*`). */
    source: text("source", { enum: ["prism", "fediverse"] })
      .notNull()
      .default("prism"),
    /** A fediverse reply's author: their actor, handle (`@user@host`) and inbox. */
    remoteActorId: text("remote_actor_id"),
    remoteHandle: text("remote_handle"),
    remoteInbox: text("remote_inbox"),
    /** A fediverse reply's `Note`: its id (one response per note) and the page that shows it. */
    remoteNoteId: text("remote_note_id").unique(),
    remoteNoteUrl: text("remote_note_url"),
    /** When the owner's reply was last sent to a fediverse reply's author (as a `Note`). */
    replySentAt: timestamp("reply_sent_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index("annotations_prism_idx").on(t.prismId, t.createdAt),
    index("annotations_user_idx").on(t.userId),
    /** Whether a browser id of before ids were signed responded (see `plugins/visitor.ts`). */
    index("annotations_visitor_hash_idx").on(t.visitorHash),
    index("annotations_status_idx").on(t.status, t.createdAt),
    index("annotations_created_idx").on(t.createdAt),
    check(
      "annotations_range",
      sql`${t.selectionStart} >= 0 and ${t.selectionEnd} > ${t.selectionStart}`,
    ),
  ],
);

/**
 * An owner's content classifier (see features/annotations/classifier.ts): the word counts of the
 * responses they approved and of those they set aside as spam, taught by their own decisions
 * alone. Never leaves Prism.
 */
export const spamModels = pgTable("spam_models", {
  id: id(),
  ownerId: integer("owner_id")
    .notNull()
    .unique()
    .references(() => users.id, { onDelete: "cascade" }),
  model: jsonb("model").$type<SpamModel>().notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A reader's flag on a published response: one per person (a member by id, anyone else by their
 * browser's visitor hash), the latest reason and note kept. `resolvedAt`: the prism's owner kept
 * the response, so it left their Flagged folder; admins still count every flag.
 */
export const annotationFlags = pgTable(
  "annotation_flags",
  {
    id: id(),
    annotationId: integer("annotation_id")
      .notNull()
      .references(() => annotations.id, { onDelete: "cascade" }),
    userId: integer("user_id").references(() => users.id, { onDelete: "cascade" }),
    visitorHash: text("visitor_hash"),
    reason: flagReason("reason").notNull(),
    note: text("note"),
    resolvedAt: timestamp("resolved_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("annotation_flags_user_idx").on(t.annotationId, t.userId),
    uniqueIndex("annotation_flags_visitor_idx").on(t.annotationId, t.visitorHash),
    index("annotation_flags_user_id_idx").on(t.userId),
    check("annotation_flags_flagger", sql`${t.userId} is not null or ${t.visitorHash} is not null`),
  ],
);

/**
 * A prism's earlier versions, one row for each save that changed its title or content: the
 * version as it was before that save (`number` as `prisms.revision` was then), its sanitized
 * content only. `created_at` is when that version was saved.
 */
export const prismRevisions = pgTable(
  "prism_revisions",
  {
    id: id(),
    prismId: integer("prism_id")
      .notNull()
      .references(() => prisms.id, { onDelete: "cascade" }),
    number: integer("number").notNull(),
    title: text("title").notNull(),
    content: text("content").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex("prism_revisions_number_idx").on(t.prismId, t.number)],
);

/**
 * How many times a prism was shown, per UTC day: counts only, nothing of who looked (see
 * `features/resonance/views.ts`).
 */
export const prismViews = pgTable(
  "prism_views",
  {
    id: id(),
    prismId: integer("prism_id")
      .notNull()
      .references(() => prisms.id, { onDelete: "cascade" }),
    day: date("day").notNull(),
    count: integer("count").notNull().default(0),
  },
  (t) => [uniqueIndex("prism_views_prism_day_idx").on(t.prismId, t.day)],
);

/**
 * How many readers a member's page had per UTC day: distinct visitors who read at least one of its
 * prisms that day, counts only (see `features/resonance/views.ts`).
 */
export const pageReaders = pgTable(
  "page_readers",
  {
    id: id(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    day: date("day").notNull(),
    count: integer("count").notNull().default(0),
  },
  (t) => [uniqueIndex("page_readers_user_day_idx").on(t.userId, t.day)],
);

/**
 * Today's view keys, so that a visitor's read of a prism, and of a member's page, counts once a
 * day: an HMAC of the visitor and the prism (or the page) under that day's random salt. Deleted
 * with the salt once the day is over.
 */
export const prismViewKeys = pgTable("prism_view_keys", {
  key: text("key").primaryKey(),
  day: date("day").notNull(),
});

/**
 * How many views of a prism one address has counted today, each under a key that is an HMAC of
 * the address and the prism with the day's salt; deleted with the day's view keys.
 */
export const prismViewAddresses = pgTable("prism_view_addresses", {
  key: text("key").primaryKey(),
  day: date("day").notNull(),
  count: integer("count").notNull(),
});

/** One random salt per UTC day for the view keys; the past days' are deleted, so nobody can link them. */
export const viewSalts = pgTable("view_salts", {
  day: date("day").primaryKey(),
  salt: text("salt").notNull(),
});

export const notifications = pgTable(
  "notifications",
  {
    id: id(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    prismId: integer("prism_id")
      .notNull()
      .references(() => prisms.id, { onDelete: "cascade" }),
    type: notificationType("type").notNull().default("heart"),
    actorName: text("actor_name"),
    actorKey: text("actor_key"),
    /**
     * Whether the line is read. A group of hearts is one line, kept on its head: the other hearts
     * of the group are read, so that only lines wait in the unread index.
     */
    read: boolean("read").notNull().default(false),
    /**
     * This row stands for its line of the list: every notification but a heart is a line of its
     * own; of a prism's hearts, the newest (greatest id) is the line. Kept by the database itself
     * (triggers, see migration 0012), as is `actorCount`, so a line is read without counting it.
     */
    lineHead: boolean("line_head").notNull().default(true),
    /** On a line's head: how many actors its line names (1 but for a group of hearts). */
    actorCount: integer("actor_count").notNull().default(1),
    /** On a heart line's head: its three newest actors' names (null for an anonymous one). */
    actors: jsonb("actors").$type<(string | null)[]>(),
    annotationId: integer("annotation_id").references((): AnyPgColumn => annotations.id, {
      onDelete: "cascade",
    }),
    /** When the mail server accepted the message that told of it: it is mailed once. */
    mailedAt: timestamp("mailed_at", { withTimezone: true }),
    /**
     * When a process claimed it for a message under way: no other process mails it meanwhile. A
     * message refused gives its claim back; a claim older than the lease is void.
     */
    mailClaimedAt: timestamp("mail_claimed_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    // A member's notifications; their lines newest first, so that a page of the list is a walk
    // along this index and no other fits it.
    index("notifications_lines_idx").on(t.userId, t.lineHead, t.createdAt.desc(), t.id.desc()),
    index("notifications_unread_idx").on(t.userId).where(sql`${t.read} = false and ${t.lineHead}`),
    // A prism's heart line's head, found in one step.
    index("notifications_heart_head_idx")
      .on(t.prismId)
      .where(sql`${t.type} = 'heart' and ${t.lineHead}`),
    // What may still be mailed (hearts, which have no annotation, never are).
    index("notifications_unmailed_idx")
      .on(t.userId)
      .where(sql`${t.mailedAt} is null and ${t.annotationId} is not null`),
    // Of a prism's hearts: the rest of its line, newest first (a new head when the head goes).
    index("notifications_heart_rest_idx")
      .on(t.prismId, t.id.desc())
      .where(sql`${t.type} = 'heart' and not ${t.lineHead}`),
    // Each actor's heart is told once per prism; an actor's hearts go with their account. Led by
    // the actor, so that a prism's head is found by its own index alone.
    uniqueIndex("notifications_heart_actor_idx")
      .on(t.actorKey, t.prismId)
      .where(sql`${t.type} = 'heart'`),
  ],
);

export const sessions = pgTable(
  "sessions",
  {
    id: id(),
    tokenHash: text("token_hash").notNull().unique(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
    userAgent: text("user_agent"),
    /**
     * When the member last showed again who they are in this session: a Google sign-in (which
     * a Google-only account's sensitive changes need from the last 10 minutes), or the current
     * password given before connecting Google.
     */
    confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
  },
  (t) => [
    index("sessions_user_idx").on(t.userId),
    index("sessions_last_seen_idx").on(t.lastSeenAt),
  ],
);

export const passwordResetTokens = pgTable(
  "password_reset_tokens",
  {
    id: id(),
    tokenHash: text("token_hash").notNull().unique(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index("password_reset_tokens_user_idx").on(t.userId)],
);

/**
 * Teams: members who read each other's pages together. The slug (the team's address,
 * `/teams/{slug}`) is made from its name when it is created and stays when it is renamed, so that
 * links keep working; it is unique whatever its case.
 */
export const teams = pgTable(
  "teams",
  {
    id: id(),
    name: text("name").notNull(),
    slug: text("slug").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("teams_slug_lower_idx").on(sql`lower(${t.slug})`)],
);

/**
 * Who belongs to a team, and as what. A deactivated member's row stays (they are back when
 * reactivated) but they count as no member while deactivated.
 */
export const teamMembers = pgTable(
  "team_members",
  {
    id: id(),
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: teamRole("role").notNull().default("member"),
    joinedAt: timestamp("joined_at", { withTimezone: true }).notNull().defaultNow(),
    /** When the member last opened the team's page; null until they have. */
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("team_members_team_user_idx").on(t.teamId, t.userId),
    // A member's teams, and whether two members share one.
    index("team_members_user_idx").on(t.userId),
  ],
);

/**
 * A team's invite links: only the SHA-256 of each link's token is kept. A link lets people join
 * until it expires, is revoked, or has been used `max_uses` times.
 */
export const teamInvites = pgTable(
  "team_invites",
  {
    id: id(),
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull().unique(),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    uses: integer("uses").notNull().default(0),
    maxUses: integer("max_uses").notNull().default(50),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index("team_invites_team_idx").on(t.teamId),
    check("team_invites_uses", sql`${t.uses} >= 0 and ${t.uses} <= ${t.maxUses}`),
  ],
);

export const contactMessages = pgTable("contact_messages", {
  id: id(),
  name: text("name").notNull(),
  email: text("email").notNull(),
  subject: text("subject").notNull(),
  message: text("message").notNull(),
  createdAt: createdAt(),
});

/**
 * A member's profile photo, as Prism made it from their upload: square WebP images with no
 * metadata, the large one for their page and a small one for lists and the header. Kept in the
 * database so that a move to PostgreSQL and a backup carry it. `version` names these bytes in
 * the photo's address, which browsers may then keep for a year.
 */
export const userPhotos = pgTable("user_photos", {
  id: id(),
  userId: integer("user_id")
    .notNull()
    .unique()
    .references(() => users.id, { onDelete: "cascade" }),
  version: text("version").notNull(),
  large: bytea("large").notNull(),
  small: bytea("small").notNull(),
  createdAt: createdAt(),
});

/**
 * The rate limits' counters on PostgreSQL, shared by every process and machine serving it: per
 * limit and key (`<limit>:<key>`), the points spent in the window that ends at `expires_at`.
 * UNLOGGED (by hand in its migration): no WAL for a write on every limited request, and a crash
 * forgets the counters as a restart forgets a process's. PGlite keeps its counters in memory.
 */
export const rateLimits = pgTable("rate_limits", {
  key: text("key").primaryKey(),
  points: integer("points").notNull(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
});

/**
 * The proofs of work anonymous responses were sent with, each accepted once: kept until its
 * challenge expires (then it is refused as expired), so that every instance refuses a second use.
 */
export const spentProofs = pgTable(
  "spent_proofs",
  {
    /** The challenge's nonce, which its signature covers. */
    nonce: text("nonce").primaryKey(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("spent_proofs_expires_idx").on(t.expiresAt)],
);

export const auditLog = pgTable(
  "audit_log",
  {
    id: id(),
    actorId: integer("actor_id").references(() => users.id, { onDelete: "set null" }),
    action: text("action").notNull(),
    targetType: text("target_type").notNull(),
    targetId: integer("target_id"),
    details: jsonb("details"),
    createdAt: createdAt(),
  },
  (t) => [index("audit_log_created_idx").on(t.createdAt)],
);

/**
 * A member as an ActivityPub actor: their key pair, kept from when they first turned federation
 * on until the `Delete` of the actor has been sent (after the account itself has gone, so no
 * foreign key: the actor outlives the member by that long).
 */
export const federationActors = pgTable(
  "federation_actors",
  {
    id: id(),
    userId: integer("user_id").notNull().unique(),
    username: text("username").notNull(),
    /** The RSA key pair that signs what the actor sends, as JWKs. */
    publicKey: jsonb("public_key").$type<JsonWebKey>().notNull(),
    privateKey: jsonb("private_key").$type<JsonWebKey>().notNull(),
    /** A digest of the profile followers were last sent: a new one sends them an `Update`. */
    profileDigest: text("profile_digest"),
    createdAt: createdAt(),
  },
  (t) => [index("federation_actors_username_idx").on(sql`lower(${t.username})`)],
);

/** Who follows a member's actor from another server: the follower's actor and inboxes. */
export const federationFollowers = pgTable(
  "federation_followers",
  {
    id: id(),
    userId: integer("user_id")
      .notNull()
      .references(() => federationActors.userId, { onDelete: "cascade" }),
    /** The follower's actor id (a URL). */
    actorId: text("actor_id").notNull(),
    /** The `Follow` activity's id, which the `Accept` names. */
    followId: text("follow_id").notNull(),
    inbox: text("inbox").notNull(),
    sharedInbox: text("shared_inbox"),
    handle: text("handle"),
    /** The follow waits for the member to accept it: nothing is delivered to them until then. */
    pending: boolean("pending").notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("federation_followers_actor_idx").on(t.userId, t.actorId)],
);

/**
 * A report from another server (an inbound `Flag`) about a member, one of their prisms or a
 * response on one: who sent it (their actor and its domain), what it names and the reporter's
 * comment, until an admin dismisses it in Catalyst.
 */
export const federationReports = pgTable(
  "federation_reports",
  {
    id: id(),
    /** The reporting actor (often their server's own actor) and its domain. */
    reporterActorId: text("reporter_actor_id").notNull(),
    reporterDomain: text("reporter_domain").notNull(),
    /** The member the report is about: named, or the owner of what it names. */
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    prismId: integer("prism_id").references(() => prisms.id, { onDelete: "set null" }),
    annotationId: integer("annotation_id").references(() => annotations.id, {
      onDelete: "set null",
    }),
    /** Every object the `Flag` named, as it named them. */
    objects: text("objects").array().notNull(),
    comment: text("comment").notNull().default(""),
    /** The `Flag` activity's id: the same report delivered twice is kept once. */
    activityId: text("activity_id").notNull().unique(),
    createdAt: createdAt(),
    dismissedAt: timestamp("dismissed_at", { withTimezone: true }),
  },
  (t) => [index("federation_reports_created_idx").on(t.createdAt)],
);

/**
 * The prisms followers were last sent, with the version they were sent at: what a member's
 * prisms are compared with to know what to send next (`Create`, `Update` or `Delete`).
 */
export const federatedPrisms = pgTable(
  "federated_prisms",
  {
    id: id(),
    prismId: integer("prism_id").notNull().unique(),
    userId: integer("user_id")
      .notNull()
      .references(() => federationActors.userId, { onDelete: "cascade" }),
    sentAt: timestamp("sent_at", { withTimezone: true }).notNull(),
    /** The prism's `updatedAt` when it was sent. */
    version: timestamp("version", { withTimezone: true }).notNull(),
  },
  (t) => [index("federated_prisms_user_idx").on(t.userId)],
);

/** Fedify's key–value store (its caches, idempotence of inbound activities), on Prism's database. */
export const federationKv = pgTable(
  "federation_kv",
  {
    key: text("key").array().primaryKey(),
    value: jsonb("value").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
  },
  (t) => [index("federation_kv_expires_idx").on(t.expiresAt)],
);

/**
 * Fedify's message queue (deliveries and inbound work, with their retries), on Prism's database:
 * a message is taken by one sender, for a while (`lockedUntil`), and deleted once handled; a
 * sender that stopped halfway leaves it to be taken again.
 */
export const federationQueue = pgTable(
  "federation_queue",
  {
    id: id(),
    message: jsonb("message").notNull(),
    availableAt: timestamp("available_at", { withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index("federation_queue_available_idx").on(t.availableAt, t.id)],
);

/**
 * Another server's domain as Prism treats it: an admin's decision (`limited`: a smaller inbox
 * budget; `blocked`: its activities refused and nothing delivered to it; `open`: neither), and
 * the deliveries to it that failed. A decision covers the domain's subdomains too.
 */
export const federationDomains = pgTable("federation_domains", {
  id: id(),
  /** The host, lowercase, without a port. */
  domain: text("domain").notNull().unique(),
  policy: text("policy", { enum: ["open", "limited", "blocked"] })
    .notNull()
    .default("open"),
  /** Deliveries to the domain that failed (each try counts), and the last one's reason. */
  deliveryFailures: integer("delivery_failures").notNull().default(0),
  lastFailureAt: timestamp("last_failure_at", { withTimezone: true }),
  lastFailure: text("last_failure"),
  createdAt: createdAt(),
});

/**
 * An actor that is gone (its member turned federation off, was deactivated or deleted their
 * account): its address and WebFinger answer 410 Gone, so that other servers drop it, until the
 * member federates again.
 */
export const federationTombstones = pgTable(
  "federation_tombstones",
  {
    id: id(),
    userId: integer("user_id").notNull().unique(),
    username: text("username").notNull(),
    deletedAt: timestamp("deleted_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("federation_tombstones_username_idx").on(sql`lower(${t.username})`)],
);

export type UserRow = typeof users.$inferSelect;
export type FederationReportRow = typeof federationReports.$inferSelect;
export type PrismRow = typeof prisms.$inferSelect;
export type AnnotationRow = typeof annotations.$inferSelect;
export type PrismRevisionRow = typeof prismRevisions.$inferSelect;
export type TeamRow = typeof teams.$inferSelect;
export type TeamInviteRow = typeof teamInvites.$inferSelect;
export type ContactMessageRow = typeof contactMessages.$inferSelect;
