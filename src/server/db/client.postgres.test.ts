// Recycling the database connection under a live app: nothing under way breaks, nothing is lost.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildUser } from "../test/builders.ts";
import { createTestDatabase } from "../test/databases.ts";
import type { Database } from "./client.ts";
import { users } from "./schema.ts";

let database: Database;
let drop: () => Promise<void>;

beforeAll(async () => {
  ({ database, drop } = await createTestDatabase());
});
afterAll(() => drop());

describe("recycling the database connection", () => {
  // Recycling an in-memory PGlite copies its whole cluster out and back in: seconds of work, many
  // more on a busy machine, as the embedded database's backup tests allow for.
  it("lets work under way finish, serves what comes meanwhile, keeps data and listeners", {
    timeout: 300_000,
  }, async () => {
    const member = await buildUser(database);
    const heard: string[] = [];
    let listenings = 0;
    const unlisten = await database.listen(
      "recycle_probe",
      (payload) => heard.push(payload),
      () => {
        listenings += 1;
      },
    );
    expect(listenings).toBe(1);

    // A transaction is half done when the recycle starts.
    let finish = () => {};
    const held = new Promise<void>((resolve) => {
      finish = resolve;
    });
    let started = () => {};
    const begun = new Promise<void>((resolve) => {
      started = resolve;
    });
    const transaction = database.db.transaction(async (tx) => {
      await tx.update(users).set({ displayName: "Renamed" }).where(eq(users.id, member.id));
      started();
      await held;
      await tx
        .update(users)
        .set({ websiteUrl: "https://example.com" })
        .where(eq(users.id, member.id));
    });
    await begun;
    const recycled = database.recycle();
    const meanwhile = database.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.id, member.id))
      .execute();
    finish();
    await Promise.all([transaction, recycled]);
    expect(await meanwhile).toEqual([{ id: member.id }]);

    const [row] = await database.db.select().from(users).where(eq(users.id, member.id));
    expect(row).toMatchObject({ displayName: "Renamed", websiteUrl: "https://example.com" });
    expect(row?.createdAt).toBeInstanceOf(Date);

    // The fresh connection listens again, and says so (what came meanwhile may have been missed).
    expect(listenings).toBe(2);
    await database.notify("recycle_probe", "after the recycle");
    await expect.poll(() => heard).toEqual(["after the recycle"]);
    await unlisten();
    await database.notify("recycle_probe", "after unlistening");
    await database.ping();
    expect(heard).toEqual(["after the recycle"]);
  });
});
