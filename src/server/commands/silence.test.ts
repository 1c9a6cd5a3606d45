// Silencing a member and readers' flags, called as their routes call them: the events each
// announces (the prisms whose responses changed; none for a flag), and nothing when refused.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { annotations, auditLog } from "../db/schema.ts";
import { buildAnnotation, buildNotification, buildPrism, buildUser } from "../test/builders.ts";
import { setupTestDatabase } from "../test/helpers.ts";
import { run } from "../test/write.ts";
import { flagResponse } from "./annotations.ts";
import { silenceUser } from "./users.ts";

const t = setupTestDatabase();

describe("silenceUser", () => {
  it("tells each prism whose responses changed, everyone where one was approved", async () => {
    const admin = await buildUser(t.database, { isAdmin: true });
    const owner = await buildUser(t.database);
    const loud = await buildUser(t.database);
    const open = await buildPrism(t.database, { userId: owner.id, title: "Open" });
    const quiet = await buildPrism(t.database, { userId: owner.id, title: "Quiet", index: 1 });
    await buildAnnotation(t.database, { prismId: open.id, userId: loud.id, status: "approved" });
    await buildAnnotation(t.database, { prismId: quiet.id, userId: loud.id });

    const { result, events } = await run(t.database, admin, (write) =>
      silenceUser(write, loud.id, true),
    );
    expect(result.silencedAt).toBeInstanceOf(Date);
    const changed = events.filter((event) => event.type === "annotation.changed");
    expect(changed).toEqual(
      expect.arrayContaining([
        { type: "annotation.changed", prismId: open.id, username: owner.username },
        {
          type: "annotation.changed",
          prismId: quiet.id,
          username: owner.username,
          audience: [owner.id, loud.id],
        },
      ]),
    );
    const rows = await t.database.db
      .select({ silenced: annotations.silenced })
      .from(annotations)
      .where(eq(annotations.userId, loud.id));
    expect(rows).toEqual([{ silenced: true }, { silenced: true }]);

    // Silencing again changes no response, and tells no prism.
    const again = await run(t.database, admin, (write) => silenceUser(write, loud.id, true));
    expect(again.events.filter((event) => event.type === "annotation.changed")).toEqual([]);
  });

  it("refreshes the lists of the owners its responses had told, either way", async () => {
    const admin = await buildUser(t.database, { isAdmin: true });
    const owner = await buildUser(t.database);
    const loud = await buildUser(t.database);
    const prism = await buildPrism(t.database, { userId: owner.id });
    const response = await buildAnnotation(t.database, { prismId: prism.id, userId: loud.id });
    await buildNotification(t.database, {
      userId: owner.id,
      prismId: prism.id,
      type: "annotation",
      annotationId: response.id,
    });
    // What told the author themselves stays theirs, and their list is not refreshed.
    await buildNotification(t.database, {
      userId: loud.id,
      prismId: prism.id,
      type: "rejected",
      annotationId: response.id,
    });
    for (const silenced of [true, false]) {
      const { events } = await run(t.database, admin, (write) =>
        silenceUser(write, loud.id, silenced),
      );
      expect(events.filter((event) => event.type === "notifications.changed")).toEqual([
        { type: "notifications.changed", userId: owner.id },
      ]);
    }
  });

  it("refuses an admin's own silencing, and writes nothing", async () => {
    const admin = await buildUser(t.database, { isAdmin: true });
    await expect(
      run(t.database, admin, (write) => silenceUser(write, admin.id, true)),
    ).rejects.toMatchObject({ statusCode: 400 });
    const lines = await t.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.targetId, admin.id));
    expect(lines).toEqual([]);
  });
});

describe("flagResponse", () => {
  it("tells the owner alone, whose Flagged folder's count follows", async () => {
    const owner = await buildUser(t.database);
    const reader = await buildUser(t.database);
    const prism = await buildPrism(t.database, { userId: owner.id });
    const response = await buildAnnotation(t.database, { prismId: prism.id, status: "approved" });
    const { result, events } = await run(t.database, { user: reader }, (write) =>
      flagResponse(write, response.id, { reason: "spam" }),
    );
    expect(result).toMatchObject({ created: true, flag: { reason: "spam", userId: reader.id } });
    const told = {
      type: "annotation.changed",
      prismId: prism.id,
      username: owner.username,
      audience: [owner.id],
    };
    expect(events).toEqual([told]);
    // A second flag from the same reader changes the reasons the folder shows.
    const again = await run(t.database, { user: reader }, (write) =>
      flagResponse(write, response.id, { reason: "abuse" }),
    );
    expect(again.events).toEqual([told]);
  });
});
