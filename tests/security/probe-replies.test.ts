// An owner who replies, takes the reply back and replies again tells the response's author once:
// one notification and one e-mail for the response, however many rounds; and reply writes (add,
// edit, take back) are rate limited per member.
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { annotationMessages } from "../../src/contract/annotation-messages.ts";
import { limits } from "../../src/contract/limits.ts";
import { notifications } from "../../src/server/db/schema.ts";
import { buildAnnotation, buildPrism, buildUser } from "../../src/server/test/builders.ts";
import { send, signIn } from "../../src/server/test/helpers.ts";
import { setupMailTestApp } from "../../src/server/test/mail.ts";

const t = setupMailTestApp();

async function scene() {
  const owner = await buildUser(t.database);
  const author = await buildUser(t.database, { emailNotifications: "immediately" });
  const prism = await buildPrism(t.database, { userId: owner.id });
  const annotation = await buildAnnotation(t.database, {
    prismId: prism.id,
    userId: author.id,
    status: "approved",
  });
  return { author, annotation, ownerHeaders: await signIn(t.database, owner) };
}

const reply = (id: number, headers: Record<string, string>, text = "Thank you.") =>
  send(t.app, "PUT", `/api/annotations/${id}/reply`, { headers, payload: { text } });
const takeBack = (id: number, headers: Record<string, string>) =>
  send(t.app, "DELETE", `/api/annotations/${id}/reply`, { headers });

describe("replies to one response", () => {
  it("notify and mail its author once, however often the owner takes the reply back", async () => {
    const { author, annotation, ownerHeaders } = await scene();
    for (let round = 0; round < 20; round++) {
      expect(
        (await reply(annotation.id, ownerHeaders, `Thank you, take ${round}.`)).statusCode,
      ).toBe(200);
      expect((await reply(annotation.id, ownerHeaders, `Edited, take ${round}.`)).statusCode).toBe(
        200,
      );
      expect((await takeBack(annotation.id, ownerHeaders)).statusCode).toBe(204);
      await t.app.emailNotifier.idle();
    }
    const told = await t.database.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, author.id), eq(notifications.type, "reply")));
    expect(told).toHaveLength(1);
    expect(t.received.filter((mail) => mail.to.includes(author.email))).toHaveLength(1);
  });

  it(`allow ${limits.replyWritesPerMinute} reply writes a minute per member, then 429`, async () => {
    const { annotation, ownerHeaders } = await scene();
    for (let i = 0; i < limits.replyWritesPerMinute; i++) {
      const answer =
        i % 2 === 0
          ? await reply(annotation.id, ownerHeaders)
          : await takeBack(annotation.id, ownerHeaders);
      expect(answer.statusCode, `write ${i + 1}`).toBeLessThan(400);
    }
    const limited = await reply(annotation.id, ownerHeaders);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ message: annotationMessages.repliesTooMany });
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
  });
});
