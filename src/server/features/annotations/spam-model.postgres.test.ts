// An owner's content classifier under concurrent decisions: each is taught inside its own
// transaction, the first lesson making the model and every later one waiting for the row's lock,
// so that no lesson is lost (on PostgreSQL, several connections decide at once).
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { spamModels } from "../../db/schema.ts";
import { buildAnnotation, buildPrism, buildUser } from "../../test/builders.ts";
import { send, setupTestApp, signIn } from "../../test/helpers.ts";

const t = setupTestApp();

describe("the owner's content classifier, taught by decisions at once", () => {
  it("loses no lesson when the owner's decisions run side by side", async () => {
    const owner = await buildUser(t.database);
    const headers = await signIn(t.database, owner);
    const prism = await buildPrism(t.database, { userId: owner.id });
    const ids: number[] = [];
    for (let i = 0; i < 8; i++) {
      const text = `Response number ${i} about mornings`;
      ids.push((await buildAnnotation(t.database, { prismId: prism.id, annotationText: text })).id);
    }
    const answers = await Promise.all(
      ids.map((id, i) =>
        send(t.app, "POST", "/api/annotations/bulk", {
          headers,
          payload: { ids: [id], action: i % 2 === 0 ? "approve" : "spam" },
          remoteAddress: `10.38.0.${i + 1}`,
        }),
      ),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual(ids.map(() => 200));
    const [row] = await t.database.db
      .select()
      .from(spamModels)
      .where(eq(spamModels.ownerId, owner.id));
    expect(row?.model.docs).toEqual({ ham: 4, spam: 4 });
    // "about" and "mornings" were in every one of them.
    expect(row?.model.counts.mornings).toEqual([4, 4]);
  });
});
