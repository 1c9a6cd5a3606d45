// The one-click unsubscribe, called as its route calls it: the token's member gets no more e-mail,
// and a token that is not one of ours (or a deactivated member's) changes no one.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { emailMessages } from "../../contract/email.ts";
import { users } from "../db/schema.ts";
import { unsubscribeToken } from "../features/email/service.ts";
import { buildUser } from "../test/builders.ts";
import { setupTestDatabase, TEST_SECRET } from "../test/helpers.ts";
import { outbox, run } from "../test/write.ts";
import { unsubscribe } from "./email.ts";

const t = setupTestDatabase();

const unsubscribeWith = (token: string) =>
  run(t.database, null, (write) => unsubscribe({ ...write, mail: outbox().mail }, token));

async function settingOf(userId: number) {
  const [user] = await t.database.db.select().from(users).where(eq(users.id, userId));
  return user?.emailNotifications;
}

describe("unsubscribe", () => {
  it("turns e-mail off for the token's member, and again is still fine", async () => {
    const user = await buildUser(t.database, { emailNotifications: "immediately" });
    const { events } = await unsubscribeWith(unsubscribeToken(TEST_SECRET, user.id));
    expect(events).toEqual([]);
    expect(await settingOf(user.id)).toBe("never");
    await unsubscribeWith(unsubscribeToken(TEST_SECRET, user.id));
    expect(await settingOf(user.id)).toBe("never");
  });

  it("answers 404, changing no one, to a token that is not one of ours or a deactivated member's", async () => {
    const user = await buildUser(t.database, { emailNotifications: "daily" });
    const gone = await buildUser(t.database, {
      emailNotifications: "daily",
      deactivatedAt: new Date(),
    });
    for (const token of [
      unsubscribeToken("another secret", user.id),
      unsubscribeToken(TEST_SECRET, gone.id),
      "nonsense",
    ]) {
      await expect(unsubscribeWith(token), token).rejects.toMatchObject({
        statusCode: 404,
        message: emailMessages.unknownToken,
      });
    }
    expect(await settingOf(user.id)).toBe("daily");
    expect(await settingOf(gone.id)).toBe("daily");
  });
});
