// The one write path: a command's events are announced once its transaction has committed, and
// never when it fails; and no route announces anything itself.
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { users } from "../db/schema.ts";
import { buildUser } from "../test/builders.ts";
import { setupTestDatabase } from "../test/helpers.ts";
import { writeAs } from "../test/write.ts";
import { commit } from "./write.ts";

const t = setupTestDatabase();

describe("commit", () => {
  it("announces the recorded events once the transaction has committed", async () => {
    const member = await buildUser(t.database);
    const write = writeAs(t.database, member);
    await commit(write, async (tx, record) => {
      await tx.update(users).set({ displayName: "Ada" }).where(eq(users.id, member.id));
      record({ type: "profile.changed", username: member.username });
      expect(write.events).toEqual([]);
    });
    expect(write.events).toEqual([{ type: "profile.changed", username: member.username }]);
  });

  it("announces nothing when the transaction fails", async () => {
    const member = await buildUser(t.database);
    const write = writeAs(t.database, member);
    await expect(
      commit(write, async (_tx, record) => {
        record({ type: "profile.changed", username: member.username });
        throw new Error("refused");
      }),
    ).rejects.toThrow("refused");
    expect(write.events).toEqual([]);
  });
});

describe("routes", () => {
  it("never publish or build an event: their commands do", async () => {
    const features = join(import.meta.dirname, "..", "features");
    for (const feature of await readdir(features)) {
      const routes = await readFile(join(features, feature, "routes.ts"), "utf8").catch(() => "");
      expect(routes, feature).not.toMatch(/\bbus\b|\.publish\(|\.announced\(|contract\/events/);
    }
  });
});
