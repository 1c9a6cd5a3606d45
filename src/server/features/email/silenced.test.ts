// A silenced member's responses tell nobody by e-mail either: what the mailer claims leaves out
// the notifications of their responses, earlier ones too, and takes them again once unsilenced.
import { eq, sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { annotations, users } from "../../db/schema.ts";
import { buildAnnotation, buildNotification, buildPrism, buildUser } from "../../test/builders.ts";
import { setupTestDatabase } from "../../test/helpers.ts";
import { claimStatement } from "./service.ts";

const t = setupTestDatabase();

it("leaves a silenced member's responses out of the owner's mail until unsilenced", async () => {
  const owner = await buildUser(t.database, { emailNotifications: "daily" });
  const loud = await buildUser(t.database);
  const prism = await buildPrism(t.database, { userId: owner.id });
  const told = async (userId?: number) => {
    const annotation = await buildAnnotation(t.database, { prismId: prism.id, userId });
    return buildNotification(t.database, {
      userId: owner.id,
      prismId: prism.id,
      type: "annotation",
      annotationId: annotation.id,
    });
  };
  const fromVisitor = await told();
  const fromLoud = await told(loud.id);
  await t.database.db
    .update(annotations)
    .set({ silenced: true })
    .where(eq(annotations.userId, loud.id));
  const claim = () =>
    claimStatement(t.database.db, new Date(), "daily", sql`${users.lastDigestAt} is null`);

  expect((await claim()).map(({ id }) => id)).toEqual([fromVisitor.id]);

  await t.database.db
    .update(annotations)
    .set({ silenced: false })
    .where(eq(annotations.userId, loud.id));
  expect((await claim()).map(({ id }) => id)).toEqual([fromLoud.id]);
});
