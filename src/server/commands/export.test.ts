// A download of a member's data, recorded as its route records it: one audit line, by them.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditLog } from "../db/schema.ts";
import { buildUser } from "../test/builders.ts";
import { setupTestDatabase } from "../test/helpers.ts";
import { run } from "../test/write.ts";
import { recordExport } from "./export.ts";

const t = setupTestDatabase();

describe("recordExport", () => {
  it("writes the member's download in the audit log, announcing nothing", async () => {
    const user = await buildUser(t.database);
    const { events } = await run(t.database, user, (write) => recordExport(write));
    expect(events).toEqual([]);
    // The one line this member's acts left: the download.
    const [audited, ...others] = await t.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.actorId, user.id));
    expect(others).toEqual([]);
    expect(audited).toMatchObject({
      action: "user.export",
      targetType: "user",
      targetId: user.id,
      details: { target: user.username, before: null, after: null },
    });
  });
});
