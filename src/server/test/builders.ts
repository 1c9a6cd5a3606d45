// Rows for tests, written straight into the database: sensible defaults, any field overridden.
import type { Database } from "../db/client.ts";
import {
  annotations,
  notifications,
  type PrismRow,
  prismHearts,
  prisms,
  type UserRow,
  users,
} from "../db/schema.ts";
import { hashPassword } from "../security/passwords.ts";
import { TEST_PASSWORD } from "./helpers.ts";

let sequence = 0;
const passwordHash = hashPassword(TEST_PASSWORD);

function first<T>(rows: T[]): T {
  const [row] = rows;
  if (!row) throw new Error("insert returned no row");
  return row;
}

/** A member with a unique username and e-mail, whose password is TEST_PASSWORD. */
export async function buildUser(
  database: Database,
  overrides: Partial<typeof users.$inferInsert> = {},
): Promise<UserRow> {
  sequence += 1;
  const username = overrides.username ?? `member${sequence}_${process.pid}`;
  return first(
    await database.db
      .insert(users)
      .values({
        username,
        email: `${username}@example.com`,
        firstName: "Test",
        lastName: `Member ${sequence}`,
        password: await passwordHash,
        ...overrides,
      })
      .returning(),
  );
}

/** A prism at the top of its owner's page, whose text is "Mornings are for deep work." */
export async function buildPrism(
  database: Database,
  overrides: Partial<typeof prisms.$inferInsert> & { userId: number },
): Promise<PrismRow> {
  return first(
    await database.db
      .insert(prisms)
      .values({
        title: "How I work",
        content: "<p>Mornings are for deep work.</p>",
        index: 0,
        ...overrides,
      })
      .returning(),
  );
}

/** A heart on a prism, by an anonymous visitor unless a member or visitor hash is given. */
export async function buildHeart(
  database: Database,
  overrides: Partial<typeof prismHearts.$inferInsert> & { prismId: number },
) {
  sequence += 1;
  return first(
    await database.db
      .insert(prismHearts)
      .values({
        visitorHash: overrides.userId ? null : `visitor-${sequence}`,
        ...overrides,
      })
      .returning(),
  );
}

/** A pending annotation on the first word of `buildPrism`'s text ("Mornings"). */
export async function buildAnnotation(
  database: Database,
  overrides: Partial<typeof annotations.$inferInsert> & { prismId: number },
) {
  return first(
    await database.db
      .insert(annotations)
      .values({
        selectedText: "Mornings",
        annotationText: "Same here",
        selectionStart: 0,
        selectionEnd: 8,
        prismTitle: "How I work",
        ...overrides,
      })
      .returning(),
  );
}

/** A notification, by default a heart from a visitor not seen before (each gets its own actor). */
export async function buildNotification(
  database: Database,
  overrides: Partial<typeof notifications.$inferInsert> & { userId: number; prismId: number },
) {
  sequence += 1;
  return first(
    await database.db
      .insert(notifications)
      .values({
        actorName: `Actor ${sequence}`,
        actorKey: `visitor:test-${sequence}`,
        ...overrides,
      })
      .returning(),
  );
}
