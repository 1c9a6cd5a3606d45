import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { memberExportSchema, webAnnotationSchema } from "../../../contract/export.ts";
import { htmlToPlainText } from "../../../contract/plain-text.ts";
import { auditLog } from "../../db/schema.ts";
import { buildNotification, buildPrism, buildUser } from "../../test/builders.ts";
import { respondToQuote, send, setupTestApp, signIn, visitorCookie } from "../../test/helpers.ts";

const t = setupTestApp();

const CONTENT =
  "<p>I give feedback <strong>in writing</strong> first.</p><p>Then I offer to talk it through &amp; listen.</p>";

const download = (headers: Record<string, string> = {}) =>
  send(t.app, "GET", "/api/user/export", { headers });

describe("GET /api/user/export", () => {
  it("authorization: 401 signed out; a member and an admin each get only their own data", async () => {
    expect((await download()).statusCode).toBe(401);
    const member = await buildUser(t.database);
    const admin = await buildUser(t.database, { isAdmin: true });
    await buildPrism(t.database, { userId: member.id, title: "Member's own" });
    const mine = await download(await signIn(t.database, member));
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toMatchObject({
      account: { id: member.id },
      prisms: [{ title: "Member's own" }],
    });
    const theirs = await download(await signIn(t.database, admin));
    expect(theirs.statusCode).toBe(200);
    expect(theirs.json()).toMatchObject({ account: { id: admin.id }, prisms: [] });
  });

  it("gives the whole account as a JSON attachment, with its annotations as W3C Web Annotations that re-anchor", async () => {
    const owner = await buildUser(t.database, { password: "a-secret-hash" });
    const ownerHeaders = await signIn(t.database, owner);
    const prism = await buildPrism(t.database, {
      userId: owner.id,
      content: CONTENT,
      heartsCount: 2,
    });
    const other = await buildUser(t.database);
    const elsewhere = await buildPrism(t.database, {
      userId: other.id,
      content: CONTENT,
      title: "Elsewhere",
    });
    const reader = await signIn(t.database, await buildUser(t.database, { displayName: "Reader" }));
    const visitor = { cookie: visitorCookie("export-visitor-000001") };
    expect((await respondToQuote(t.app, prism.id, CONTENT, "in writing", reader)).statusCode).toBe(
      201,
    );
    const fromSam = await respondToQuote(
      t.app,
      prism.id,
      CONTENT,
      "talk it through & listen",
      visitor,
      {
        annotatorName: "Sam",
        annotatorEmail: "sam-private@example.com",
      },
    );
    expect(fromSam.statusCode).toBe(201);
    const replied = await send(t.app, "PUT", `/api/annotations/${fromSam.json().id}/reply`, {
      headers: ownerHeaders,
      payload: { text: "Glad it helps, Sam." },
    });
    expect(replied.statusCode).toBe(200);
    expect(
      (await respondToQuote(t.app, elsewhere.id, CONTENT, "Then I offer", ownerHeaders)).statusCode,
    ).toBe(201);
    await buildNotification(t.database, { userId: owner.id, prismId: prism.id });

    const response = await download(ownerHeaders);
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^application\/json/);
    expect(response.headers["content-disposition"]).toBe(
      `attachment; filename="prism-${owner.username}.json"`,
    );
    // Never a password hash, a visitor hash or an anonymous writer's e-mail.
    expect(response.body).not.toContain("a-secret-hash");
    expect(response.body).not.toContain("export-visitor");
    expect(response.body).not.toContain("sam-private@example.com");
    expect(response.body).not.toMatch(/visitorHash|"password"/);

    const data = memberExportSchema.parse(response.json());
    expect(data.account).toMatchObject({
      id: owner.id,
      username: owner.username,
      email: owner.email,
    });
    expect(data.prisms).toEqual([
      expect.objectContaining({
        id: prism.id,
        html: CONTENT,
        text: htmlToPlainText(CONTENT),
        heartsCount: 2,
        url: `http://localhost:3000/${owner.username}?prism=${prism.id}`,
      }),
    ]);
    expect(data.annotationsReceived.map((a) => a.authorName).sort()).toEqual(["Reader", "Sam"]);
    expect(
      data.annotationsReceived.map((a) => [a.authorName, a.reply?.text ?? null]).sort(),
    ).toEqual([
      ["Reader", null],
      ["Sam", "Glad it helps, Sam."],
    ]);
    expect(data.annotationsWritten).toEqual([
      expect.objectContaining({ prismId: elsewhere.id, selectedText: "Then I offer" }),
    ]);
    expect(data.notifications.map((n) => n.type).sort()).toEqual([
      "annotation",
      "annotation",
      "heart",
    ]);

    const collection = data.webAnnotations;
    expect(collection["@context"]).toBe("http://www.w3.org/ns/anno.jsonld");
    expect(collection.total).toBe(3);
    expect(collection.first.items).toHaveLength(3);
    const pageText = new Map([
      [`http://localhost:3000/${owner.username}?prism=${prism.id}`, htmlToPlainText(CONTENT)],
      [`http://localhost:3000/${other.username}?prism=${elsewhere.id}`, htmlToPlainText(CONTENT)],
    ]);
    for (const item of collection.first.items) {
      const annotation = webAnnotationSchema.parse(item);
      expect(annotation.type).toBe("Annotation");
      const [quote, position] = annotation.target.selector;
      const text = pageText.get(annotation.target.source);
      expect(text, annotation.target.source).toBeDefined();
      // Re-anchoring as another tool would: the quote with its context, found in the page's text.
      const found = text?.indexOf(quote.prefix + quote.exact + quote.suffix) ?? -1;
      expect(found).toBeGreaterThanOrEqual(0);
      const start = found + quote.prefix.length;
      expect({ start, end: start + quote.exact.length }).toEqual({
        start: position.start,
        end: position.end,
      });
      expect(text?.slice(position.start, position.end)).toBe(quote.exact);
    }

    const audited = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "user.export"), eq(auditLog.targetId, owner.id)));
    expect(audited).toEqual([expect.objectContaining({ actorId: owner.id, targetType: "user" })]);
  });

  it("is rate limited per member: 429 after five downloads in an hour", async () => {
    const member = await signIn(t.database, await buildUser(t.database));
    for (let i = 0; i < 5; i++) expect((await download(member)).statusCode).toBe(200);
    const limited = await download(member);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({
      message: expect.stringContaining("downloaded your data"),
    });
    // Another member is not held back.
    expect((await download(await signIn(t.database, await buildUser(t.database)))).statusCode).toBe(
      200,
    );
  });
});
