import { eq, isNotNull, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { htmlToPlainText } from "../../contract/plain-text.ts";
import type { Database } from "../db/client.ts";
import { annotations, auditLog, notifications, prismHearts, prisms, users } from "../db/schema.ts";
import { settleTopPassages } from "../features/resonance/service.ts";
import { createTestDatabase } from "../test/databases.ts";
import { demoMembers, demoNewcomers } from "./demo-data.ts";
import { seedDemo } from "./seed.ts";

let database: Database;
let drop: () => Promise<void>;

beforeAll(async () => {
  ({ database, drop } = await createTestDatabase());
});
afterAll(() => drop());

describe("the demo data set", () => {
  it("loads members with 3 to 6 prisms, hearts, annotations in every status and notifications", async () => {
    const admin = await seedDemo(database.db);
    expect(admin.username).toBe("admin");
    expect(admin.password.length).toBeGreaterThanOrEqual(12);

    const [adminRow] = await database.db.select().from(users).where(eq(users.username, "admin"));
    expect(adminRow?.isAdmin).toBe(true);
    expect(demoMembers.length).toBeGreaterThanOrEqual(8);

    const perUser = await database.db
      .select({ userId: prisms.userId, n: sql<number>`count(*)::int` })
      .from(prisms)
      .groupBy(prisms.userId);
    expect(perUser).toHaveLength(demoMembers.length);
    for (const row of perUser) expect(row.n).toBeGreaterThanOrEqual(3);
    for (const row of perUser) expect(row.n).toBeLessThanOrEqual(6);

    const statuses = await database.db
      .selectDistinct({ status: annotations.status })
      .from(annotations);
    expect(statuses.map((s) => s.status).sort()).toEqual(["approved", "pending", "rejected"]);

    const counted = await database.db
      .select({ prismId: prismHearts.prismId, n: sql<number>`count(*)::int` })
      .from(prismHearts)
      .groupBy(prismHearts.prismId);
    const expected = new Map(counted.map((row) => [row.prismId, row.n]));
    const all = await database.db
      .select({ id: prisms.id, heartsCount: prisms.heartsCount })
      .from(prisms);
    for (const prism of all)
      expect(prism.heartsCount, `prism ${prism.id}`).toBe(expected.get(prism.id) ?? 0);
    expect([...expected.values()].some((n) => n > 1)).toBe(true);
    const [{ hearts = 0 } = {}] = await database.db
      .select({ hearts: sql<number>`count(*)::int` })
      .from(prismHearts);
    expect(hearts).toBeGreaterThan(20);

    const rows = await database.db
      .select({ a: annotations, content: prisms.content })
      .from(annotations)
      .innerJoin(prisms, eq(prisms.id, annotations.prismId));
    for (const { a, content } of rows) {
      expect(htmlToPlainText(content).slice(a.selectionStart, a.selectionEnd)).toBe(a.selectedText);
    }
    const [{ count = 0 } = {}] = await database.db
      .select({ count: sql<number>`count(*)::int` })
      .from(notifications)
      .where(eq(notifications.type, "annotation"));
    expect(count).toBe(rows.length);
  });

  it("has three readers marking one passage: settled at start-up, readers see a top passage", async () => {
    await settleTopPassages(database.db);
    const marked = await database.db
      .select({ title: prisms.title, topPassage: prisms.topPassage })
      .from(prisms)
      .where(isNotNull(prisms.topPassage));
    expect(marked).toEqual([
      {
        title: "How I give feedback",
        topPassage: expect.objectContaining({ text: "unlabelled is a question.", count: 3 }),
      },
    ]);
  });

  it("fills every Catalyst table: two pages of members, one deactivated by the admin as the audit log says", async () => {
    const all = await database.db.select().from(users);
    expect(all.length).toBe(1 + demoMembers.length + demoNewcomers.length);
    expect(all.length).toBeGreaterThan(10);
    const recent = all.filter((u) => Date.now() - u.createdAt.getTime() < 7 * 24 * 60 * 60 * 1000);
    expect(recent.length).toBeGreaterThanOrEqual(3);
    const deactivated = all.filter((u) => u.deactivatedAt !== null);
    expect(deactivated.map((u) => u.username)).toEqual(["best-deals-4u"]);
    const [admin] = all.filter((u) => u.isAdmin);
    const entries = await database.db.select().from(auditLog);
    expect(entries).toEqual([
      expect.objectContaining({
        actorId: admin?.id,
        action: "user.deactivate",
        targetId: deactivated[0]?.id,
      }),
    ]);
  });

  it("refuses to load twice", async () => {
    await expect(seedDemo(database.db)).rejects.toThrow(/already exist/);
  });
});
