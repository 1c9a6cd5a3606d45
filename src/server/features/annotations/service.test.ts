// Annotations without HTTP: who may see one (the query and the policy agree), a prism's list in
// order, and anchoring again after an edit.
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { htmlToPlainText, quoteContext } from "../../../contract/plain-text.ts";
import type { Viewer } from "../../actors.ts";
import { annotations, type UserRow } from "../../db/schema.ts";
import { canSeeAnnotation } from "../../policy.ts";
import { buildAnnotation, buildPrism, buildUser } from "../../test/builders.ts";
import { setupTestDatabase } from "../../test/helpers.ts";
import { getAnnotation, prismAnnotations, reanchorAnnotations } from "./service.ts";

const t = setupTestDatabase();

const member = (user: UserRow, visitorHash: string | null = null): Viewer => ({
  user,
  visitorHash,
});
const browser = (visitorHash: string | null): Viewer => ({ user: null, visitorHash });

/** One prism's annotations of every status, by a member and by an anonymous browser. */
async function visibilityScene() {
  const owner = await buildUser(t.database);
  const author = await buildUser(t.database);
  const admin = await buildUser(t.database, { isAdmin: true });
  const stranger = await buildUser(t.database);
  const prism = await buildPrism(t.database, { userId: owner.id });
  const byMember = (status: "pending" | "approved" | "rejected") =>
    buildAnnotation(t.database, { prismId: prism.id, userId: author.id, status });
  const byBrowser = (status: "pending" | "rejected") =>
    buildAnnotation(t.database, { prismId: prism.id, visitorHash: "author-browser", status });
  return {
    prism,
    shown: {
      approved: await byMember("approved"),
      pending: await byMember("pending"),
      rejected: await byMember("rejected"),
      pendingByBrowser: await byBrowser("pending"),
      rejectedByBrowser: await byBrowser("rejected"),
    },
    viewers: {
      "prism's owner": member(owner),
      admin: member(admin),
      "member who wrote some": member(author),
      "browser that wrote some": browser("author-browser"),
      // Signed in on the browser that wrote one anonymously: the browser still counts.
      "stranger on that browser": member(stranger, "author-browser"),
      stranger: member(stranger),
      "another browser": browser("another-browser"),
      "browser without a cookie": browser(null),
    },
  };
}

type Visibility = Awaited<ReturnType<typeof visibilityScene>>;

const everything = ["approved", "pending", "rejected", "pendingByBrowser", "rejectedByBrowser"];
const visibleTo: Record<keyof Visibility["viewers"], string[]> = {
  "prism's owner": everything,
  admin: everything,
  "member who wrote some": ["approved", "pending", "rejected"],
  "browser that wrote some": ["approved", "pendingByBrowser", "rejectedByBrowser"],
  "stranger on that browser": ["approved", "pendingByBrowser", "rejectedByBrowser"],
  stranger: ["approved"],
  "another browser": ["approved"],
  "browser without a cookie": ["approved"],
};

describe("getAnnotation", () => {
  let scene: Visibility;
  beforeAll(async () => {
    scene = await visibilityScene();
  });

  // Approved ones are seen by all; pending and rejected ones by the owner, their author, admins.
  it.each(Object.entries(visibleTo))(
    "shows the %s what they may see, as the policy says",
    async (name, expected) => {
      const viewer = scene.viewers[name as keyof Visibility["viewers"]];
      const seen: string[] = [];
      for (const [label, row] of Object.entries(scene.shown)) {
        const found = await getAnnotation(t.database.db, row.id, viewer).then(
          () => true,
          (error) => {
            expect(error).toMatchObject({ statusCode: 404, message: "Annotation not found" });
            return false;
          },
        );
        // The list's filter (in code) and the single read (in SQL) must agree.
        expect(canSeeAnnotation(viewer, row, scene.prism), label).toBe(found);
        if (found) seen.push(label);
      }
      expect(seen).toEqual(expected);
    },
  );

  it("answers 404 to everyone, admins too, while the prism's owner is deactivated", async () => {
    const owner = await buildUser(t.database, { deactivatedAt: new Date() });
    const admin = await buildUser(t.database, { isAdmin: true });
    const prism = await buildPrism(t.database, { userId: owner.id });
    const approved = await buildAnnotation(t.database, { prismId: prism.id, status: "approved" });
    for (const viewer of [member(admin), member(owner), browser(null)]) {
      await expect(getAnnotation(t.database.db, approved.id, viewer)).rejects.toMatchObject({
        statusCode: 404,
      });
    }
    await expect(prismAnnotations(t.database.db, prism.id)).rejects.toMatchObject({
      statusCode: 404,
      message: "Prism not found",
    });
  });
});

describe("prismAnnotations", () => {
  it("lists every status, newest first and the newest id first at the same time, each with its author", async () => {
    const owner = await buildUser(t.database);
    const author = await buildUser(t.database, { displayName: "Dee" });
    const prism = await buildPrism(t.database, { userId: owner.id });
    const at = (minutes: number) => new Date(Date.UTC(2024, 0, 1, 12, minutes));
    const oldest = await buildAnnotation(t.database, {
      prismId: prism.id,
      userId: author.id,
      status: "approved",
      createdAt: at(0),
    });
    const tiedFirst = await buildAnnotation(t.database, {
      prismId: prism.id,
      status: "rejected",
      createdAt: at(5),
    });
    const tiedSecond = await buildAnnotation(t.database, { prismId: prism.id, createdAt: at(5) });
    const newest = await buildAnnotation(t.database, { prismId: prism.id, createdAt: at(9) });
    const { owner: listedOwner, views } = await prismAnnotations(t.database.db, prism.id);
    expect(listedOwner).toEqual({ id: owner.id, username: owner.username });
    expect(views.map((view) => view.row.id)).toEqual([
      newest.id,
      tiedSecond.id,
      tiedFirst.id,
      oldest.id,
    ]);
    expect(views.every((view) => view.prismOwnerId === owner.id)).toBe(true);
    expect(views.at(-1)?.author).toMatchObject({ id: author.id, displayName: "Dee" });
    expect(views[0]?.author).toBeNull();
  });
});

describe("reanchorAnnotations", () => {
  const ORIGINAL = "<p>Mornings are for deep work.</p><p>Afternoons are for people.</p>";

  async function anchored(quote: string) {
    const owner = await buildUser(t.database);
    const prism = await buildPrism(t.database, { userId: owner.id, content: ORIGINAL });
    const text = htmlToPlainText(ORIGINAL);
    const start = text.indexOf(quote);
    const end = start + quote.length;
    const row = await buildAnnotation(t.database, {
      prismId: prism.id,
      userId: owner.id,
      status: "rejected",
      selectedText: quote,
      selectionStart: start,
      selectionEnd: end,
      ...quoteContext(text, start, end),
    });
    const rowNow = async () => {
      const [now] = await t.database.db
        .select()
        .from(annotations)
        .where(eq(annotations.id, row.id));
      return now;
    };
    return { prism, row, rowNow };
  }

  it("orphans a passage that is gone and finds it again when it comes back", async () => {
    const { prism, row, rowNow } = await anchored("Afternoons are for people");
    const without = "<p>Mornings are for deep work.</p>";
    expect(await reanchorAnnotations(t.database.db, prism.id, without)).toEqual([
      { statuses: ["rejected"], userId: row.userId },
    ]);
    expect(await rowNow()).toMatchObject({
      orphaned: true,
      selectionStart: row.selectionStart,
      selectionEnd: row.selectionEnd,
    });
    const back = `<p>First, a new line.</p>${ORIGINAL}`;
    expect(await reanchorAnnotations(t.database.db, prism.id, back)).toHaveLength(1);
    const text = htmlToPlainText(back);
    const found = await rowNow();
    expect(found?.orphaned).toBe(false);
    expect(text.slice(found?.selectionStart, found?.selectionEnd)).toBe(
      "Afternoons are for people",
    );
  });

  it("reports nothing and writes nothing when every passage stays where it was", async () => {
    const { prism, rowNow } = await anchored("Mornings");
    const before = await rowNow();
    const longer = `${ORIGINAL}<p>Evenings are for reading.</p>`;
    // The passage's context (32 characters after it) is unchanged by text beyond it.
    expect(await reanchorAnnotations(t.database.db, prism.id, longer)).toEqual([]);
    expect(await rowNow()).toEqual(before);
  });
});
