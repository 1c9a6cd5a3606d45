// What the mailer's claim reads: however many notifications a member has that are never mailed
// (hearts), the claim finds what waits through the index of what may still be mailed.
import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { rowsOf } from "../../db/client.ts";
import { users } from "../../db/schema.ts";
import { buildAnnotation, buildNotification, buildPrism, buildUser } from "../../test/builders.ts";
import { setupTestDatabase } from "../../test/helpers.ts";
import { claimStatement } from "./service.ts";

const t = setupTestDatabase();

it("finds what waits to be mailed through notifications_unmailed_idx, not among hearts", async () => {
  const owner = await buildUser(t.database, { emailNotifications: "daily" });
  const prism = await buildPrism(t.database, { userId: owner.id });
  const annotation = await buildAnnotation(t.database, { prismId: prism.id });
  await buildNotification(t.database, {
    userId: owner.id,
    prismId: prism.id,
    type: "annotation",
    annotationId: annotation.id,
  });
  // 20,000 unread hearts of the same member, which are never mailed.
  await t.database.db.execute(sql`
    insert into notifications (user_id, prism_id, type, actor_key)
    select ${owner.id}, ${prism.id}, 'heart', 'reader-' || n from generate_series(1, 20000) as n`);
  await t.database.db.execute(sql`analyze notifications`);

  const statement = claimStatement(
    t.database.db,
    new Date(),
    "daily",
    sql`${users.lastDigestAt} is null`,
  );
  const plan = rowsOf<{ "QUERY PLAN": string }>(
    await t.database.db.execute(sql`explain ${statement.getSQL()}`),
  )
    .map((row) => row["QUERY PLAN"])
    .join("\n");
  expect(plan).toContain("notifications_unmailed_idx");
});
