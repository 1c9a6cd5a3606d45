// Rows for tests, written straight into the database: sensible defaults, any field overridden.
import type { PgTable } from "drizzle-orm/pg-core";
import type { Database } from "../db/client.ts";
import {
  annotations,
  notifications,
  passwordResetTokens,
  prismHearts,
  prisms,
  teamInvites,
  teamMembers,
  teams,
  users,
} from "../db/schema.ts";
import { hashPassword } from "../security/passwords.ts";
import { TEST_PASSWORD } from "./helpers.ts";

let sequence = 0;
const passwordHash = hashPassword(TEST_PASSWORD);

/** Any of a table's fields, and those the row cannot do without. */
type Overrides<T extends PgTable, Needed extends keyof T["$inferInsert"] = never> = Partial<
  T["$inferInsert"]
> &
  Pick<T["$inferInsert"], Needed>;

async function insert<T extends PgTable>(
  database: Database,
  table: T,
  values: T["$inferInsert"],
): Promise<T["$inferSelect"]> {
  const [row] = (await database.db.insert(table).values(values).returning()) as T["$inferSelect"][];
  if (!row) throw new Error("insert returned no row");
  return row;
}

/** A member with a unique username and e-mail, whose password is TEST_PASSWORD. */
export async function buildUser(database: Database, overrides: Overrides<typeof users> = {}) {
  sequence += 1;
  const username = overrides.username ?? `member${sequence}_${process.pid}`;
  const password = await passwordHash;
  const lastName = `Member ${sequence}`;
  const email = `${username}@example.com`;
  return insert(database, users, {
    username,
    email,
    firstName: "Test",
    lastName,
    password,
    ...overrides,
  });
}

/** A prism at the top of its owner's page, whose text is "Mornings are for deep work." */
export const buildPrism = (database: Database, overrides: Overrides<typeof prisms, "userId">) =>
  insert(database, prisms, {
    title: "How I work",
    content: "<p>Mornings are for deep work.</p>",
    index: 0,
    ...overrides,
  });

/** A heart on a prism, by an anonymous visitor unless a member or visitor hash is given. */
export function buildHeart(
  database: Database,
  overrides: Overrides<typeof prismHearts, "prismId">,
) {
  sequence += 1;
  const visitorHash = overrides.userId ? null : `visitor-${sequence}`;
  return insert(database, prismHearts, { visitorHash, ...overrides });
}

/** A pending annotation on the first word of `buildPrism`'s text ("Mornings"). */
export const buildAnnotation = (
  database: Database,
  overrides: Overrides<typeof annotations, "prismId">,
) =>
  insert(database, annotations, {
    selectedText: "Mornings",
    annotationText: "Same here",
    selectionStart: 0,
    selectionEnd: 8,
    prismTitle: "How I work",
    ...overrides,
  });

/** A notification, by default a heart from a visitor not seen before (each gets its own actor). */
export function buildNotification(
  database: Database,
  overrides: Overrides<typeof notifications, "userId" | "prismId">,
) {
  sequence += 1;
  const actor = { actorName: `Actor ${sequence}`, actorKey: `visitor:test-${sequence}` };
  return insert(database, notifications, { ...actor, ...overrides });
}

/** A password-reset token of a member, valid for an hour; its hash is a made-up one. */
export function buildResetToken(
  database: Database,
  overrides: Overrides<typeof passwordResetTokens, "userId">,
) {
  sequence += 1;
  const expiresAt = new Date(Date.now() + 60 * 60 * 1000);
  return insert(database, passwordResetTokens, {
    tokenHash: `token-${sequence}`,
    expiresAt,
    ...overrides,
  });
}

/** A team with a unique name and slug, and no members yet. */
export function buildTeam(database: Database, overrides: Overrides<typeof teams> = {}) {
  sequence += 1;
  return insert(database, teams, {
    name: `Team ${sequence}`,
    slug: `team-${sequence}-${process.pid}`,
    ...overrides,
  });
}

/** A member of a team, as a member unless a role is given. */
export const buildTeamMember = (
  database: Database,
  overrides: Overrides<typeof teamMembers, "teamId" | "userId">,
) => insert(database, teamMembers, overrides);

/** An invite link to a team, valid for 7 days with 50 uses; its hash is a made-up one. */
export function buildInvite(
  database: Database,
  overrides: Overrides<typeof teamInvites, "teamId">,
) {
  sequence += 1;
  return insert(database, teamInvites, {
    tokenHash: `invite-${sequence}`,
    expiresAt: new Date(Date.now() + 7 * 24 * 60 * 60 * 1000),
    ...overrides,
  });
}
