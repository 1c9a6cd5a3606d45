// A download of a member's data, recorded as its route records it: one audit line, by them.
import { and, eq } from "drizzle-orm";
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
    const audited = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "user.export"), eq(auditLog.targetId, user.id)));
    expect(audited).toEqual([
      expect.objectContaining({
        actorId: user.id,
        targetType: "user",
        details: { target: user.username, before: null, after: null },
      }),
    ]);
  });
});
