// An anonymous author's private status link: told once, stored only as a hash, and showing the
// response, where it stands and the owner's reply to whoever holds it.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { htmlToPlainText } from "../../../contract/plain-text.ts";
import { annotations, users } from "../../db/schema.ts";
import { buildPrism, buildUser } from "../../test/builders.ts";
import { asSent, send, setupTestApp, signIn, visitorCookie } from "../../test/helpers.ts";

const t = setupTestApp();

const CONTENT = "<p>I answer messages in batches, twice a day.</p>";
const QUOTE = "in batches";
let callers = 0;

async function respondAs(prismId: number, headers: Record<string, string>) {
  callers += 1;
  const start = htmlToPlainText(CONTENT).indexOf(QUOTE);
  const remoteAddress = `10.7.${(callers >> 8) & 255}.${callers & 255}`;
  const response = await send(t.app, "POST", "/api/annotations", {
    headers,
    remoteAddress,
    payload: await asSent(
      t.app,
      headers,
      {
        prismId,
        selectedText: QUOTE,
        selectionStart: start,
        selectionEnd: start + QUOTE.length,
        annotationText: "Same, and it keeps my mornings quiet.",
        annotatorName: "Sam",
        annotatorEmail: "sam-private@example.com",
      },
      remoteAddress,
    ),
  });
  expect(response.statusCode).toBe(201);
  return response.json() as { id: number; statusUrl: string | null };
}

async function scene() {
  const owner = await buildUser(t.database, { firstName: "Maya", lastName: "Okafor" });
  const prism = await buildPrism(t.database, {
    userId: owner.id,
    title: "How I work",
    content: CONTENT,
  });
  return { owner, prism, ownerHeaders: await signIn(t.database, owner) };
}

const read = (path: string, remoteAddress = "10.8.0.1") =>
  send(t.app, "GET", `/api${path}`, { remoteAddress });

describe("a response's private status link", () => {
  it("is given to an anonymous author once, and only its hash is kept", async () => {
    const { prism } = await scene();
    const { id, statusUrl } = await respondAs(prism.id, {
      cookie: visitorCookie("status-visitor-000001"),
    });
    expect(statusUrl).toMatch(/^\/responses\/[A-Za-z0-9_-]{22}$/);
    const token = statusUrl?.split("/").pop() ?? "";
    const [row] = await t.database.db.select().from(annotations).where(eq(annotations.id, id));
    expect(row?.statusTokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(token);
    const again = await send(t.app, "GET", `/api/annotations/${id}`, {
      headers: { cookie: visitorCookie("status-visitor-000001") },
    });
    expect(again.body).not.toContain(token);
  });

  it("is not given to a member, who is notified instead", async () => {
    const { prism } = await scene();
    const member = await signIn(t.database, await buildUser(t.database));
    expect((await respondAs(prism.id, member)).statusUrl).toBeNull();
  });

  it("shows the passage, the response and where it stands, then the owner's reply; never the e-mail", async () => {
    const { prism, ownerHeaders } = await scene();
    const { id, statusUrl } = await respondAs(prism.id, {
      cookie: visitorCookie("status-visitor-000002"),
    });
    const pending = await read(statusUrl ?? "");
    expect(pending.statusCode).toBe(200);
    expect(pending.headers["cache-control"]).toBe("private, no-cache");
    expect(pending.headers["x-robots-tag"]).toBe("noindex");
    expect(pending.json()).toEqual({
      prismId: prism.id,
      prismTitle: "How I work",
      prismPath: expect.stringMatching(new RegExp(`\\?prism=${prism.id}$`)),
      ownerName: "Maya Okafor",
      passage: QUOTE,
      text: "Same, and it keeps my mornings quiet.",
      authorName: "Sam (visitor)",
      status: "pending",
      orphaned: false,
      createdAt: expect.any(String),
      reply: null,
    });
    expect(pending.body).not.toContain("sam-private@example.com");

    const replied = await send(t.app, "PUT", `/api/annotations/${id}/reply`, {
      headers: ownerHeaders,
      payload: { text: "Batches work for me too." },
    });
    expect(replied.statusCode).toBe(200);
    expect((await read(statusUrl ?? "")).json()).toMatchObject({
      status: "approved",
      reply: { text: "Batches work for me too." },
    });
  });

  it("shows a rejected response as rejected to its author", async () => {
    const { prism, ownerHeaders } = await scene();
    const { id, statusUrl } = await respondAs(prism.id, {
      cookie: visitorCookie("status-visitor-000003"),
    });
    await send(t.app, "PUT", `/api/annotations/${id}/status`, {
      headers: ownerHeaders,
      payload: { status: "rejected" },
    });
    expect((await read(statusUrl ?? "")).json()).toMatchObject({ status: "rejected" });
  });

  it("is a 404 for a link that never was, a malformed one, or a page that is gone", async () => {
    const { owner, prism } = await scene();
    const { statusUrl } = await respondAs(prism.id, {
      cookie: visitorCookie("status-visitor-000004"),
    });
    for (const path of [
      "/responses/AAAAAAAAAAAAAAAAAAAAAA",
      "/responses/short",
      "/responses/%00",
    ]) {
      const response = await read(path);
      expect(response.statusCode, path).toBe(404);
    }
    await t.database.db
      .update(users)
      .set({ deactivatedAt: new Date() })
      .where(eq(users.id, owner.id));
    expect((await read(statusUrl ?? "")).statusCode).toBe(404);
  });

  it("answers its page's polls 304 until the owner decides or replies, whatever their number", async () => {
    const { prism, ownerHeaders } = await scene();
    const { id, statusUrl } = await respondAs(prism.id, {
      cookie: visitorCookie("status-visitor-000005"),
    });
    const first = await read(statusUrl ?? "", "10.8.0.9");
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^".+"$/);
    const poll = () =>
      send(t.app, "GET", `/api${statusUrl}`, {
        remoteAddress: "10.8.0.9",
        headers: { "if-none-match": etag },
      });
    for (let i = 0; i < 70; i++) {
      const unchanged = await poll();
      expect(unchanged.statusCode, `poll ${i}`).toBe(304);
      expect(unchanged.body).toBe("");
    }
    await send(t.app, "PUT", `/api/annotations/${id}/status`, {
      headers: ownerHeaders,
      payload: { status: "approved" },
    });
    const decided = await poll();
    expect(decided.statusCode).toBe(200);
    expect(decided.json()).toMatchObject({ status: "approved" });
    expect(decided.headers.etag).not.toBe(etag);
  });

  it("is limited per address, so that tokens cannot be guessed at", async () => {
    let status = 0;
    let tries = 0;
    while (status !== 429 && tries < 100) {
      tries += 1;
      status = (await read("/responses/AAAAAAAAAAAAAAAAAAAAAA", "10.9.0.1")).statusCode;
    }
    expect(tries).toBe(61);
    expect((await read("/responses/AAAAAAAAAAAAAAAAAAAAAA", "10.9.0.2")).statusCode).toBe(404);
  });
});
