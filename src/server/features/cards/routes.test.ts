import { describe, expect, it } from "vitest";
import { cacheMisses } from "../../metrics.ts";
import { buildPrism, buildUser } from "../../test/builders.ts";
import { profileBody, send, setupTestApp, signIn } from "../../test/helpers.ts";
import { colorAt, decodePng } from "../../test/png.ts";

const t = setupTestApp();

const card = (path: string, headers: Record<string, string> = {}) =>
  send(t.app, "GET", path, { headers });

async function member(username: string) {
  const user = await buildUser(t.database, { username, firstName: "Ada", lastName: "Lovelace" });
  const headers = await signIn(t.database, user);
  const first = await buildPrism(t.database, {
    userId: user.id,
    title: "Notes on engines",
    content: "<p>The engine weaves <strong>algebraic</strong> patterns.</p>",
    index: 0,
  });
  const second = await buildPrism(t.database, {
    userId: user.id,
    title: "Second thoughts",
    content: "<p>Later.</p>",
    index: 1,
  });
  return { user, headers, first, second };
}

async function drawsOf() {
  const { values } = await cacheMisses.get();
  return values.find((value) => value.labels.cache === "card-images")?.value ?? 0;
}

describe("GET /og/{username}.png and /og/{username}/{prismId}.png", () => {
  it("answers a 1200 × 630 PNG in Prism's look for a member's page and each of their prisms", async () => {
    const { first, second } = await member("ada-card");
    for (const path of ["/og/ada-card.png", `/og/ada-card/${first.id}.png`]) {
      const response = await card(path);
      expect(response.statusCode, path).toBe(200);
      expect(response.headers["content-type"], path).toBe("image/png");
      const image = decodePng(response.rawPayload);
      expect([image.width, image.height], path).toEqual([1200, 630]);
      // Not blank: the page's white, the gradient bar along the top, and text in many shades.
      expect(colorAt(image, 600, 600), path).toBe("#ffffff");
      expect(colorAt(image, 10, 5), path).not.toBe("#ffffff");
      expect(colorAt(image, 1190, 5), path).not.toBe(colorAt(image, 10, 5));
      const colors = new Set<number>();
      let inked = 0;
      for (let i = 0; i < image.rgba.length; i += 4) {
        const rgb = ((image.rgba[i] as number) << 16) | ((image.rgba[i + 1] as number) << 8);
        colors.add(rgb | (image.rgba[i + 2] as number));
        if (image.rgba[i] !== 255 || image.rgba[i + 1] !== 255 || image.rgba[i + 2] !== 255) {
          inked += 1;
        }
      }
      expect(colors.size, path).toBeGreaterThan(50);
      expect(inked / (1200 * 630), path).toBeGreaterThan(0.03);
    }
    // The page's card shows its first prism: the same card as that prism's, not the second's.
    const page = await card("/og/ada-card.png");
    expect((await card(`/og/ada-card/${first.id}.png`)).headers.etag).toBe(page.headers.etag);
    expect((await card(`/og/ada-card/${second.id}.png`)).headers.etag).not.toBe(page.headers.etag);
  });

  it("finds the member in any case, as their page does", async () => {
    await member("grace-card");
    const lower = await card("/og/grace-card.png");
    const upper = await card("/og/GRACE-Card.png");
    expect(upper.statusCode).toBe(200);
    expect(upper.headers.etag).toBe(lower.headers.etag);
  });

  it("answers 404 for a missing or deactivated member and for a prism that is not theirs", async () => {
    const { first } = await member("owner-card");
    const other = await member("other-card");
    const gone = await buildUser(t.database, { username: "gone-card", deactivatedAt: new Date() });
    const goneWork = await buildPrism(t.database, { userId: gone.id, title: "Old news" });
    for (const path of [
      "/og/nobody-card.png",
      "/og/gone-card.png",
      `/og/gone-card/${goneWork.id}.png`,
      `/og/owner-card/${other.first.id}.png`,
      `/og/owner-card/${first.id + 100_000}.png`,
    ]) {
      const response = await card(path);
      expect(response.statusCode, path).toBe(404);
      expect(response.headers["content-type"], path).toMatch(/^application\/json/);
      expect(response.json().message, path).toMatch(/not found/);
      expect(response.headers.etag, path).toBeUndefined();
    }
  });

  it("answers 400 for an address that cannot name a card", async () => {
    await member("bad-card");
    for (const path of ["/og/bad-card/abc.png", "/og/bad-card/0.png", "/og/bad-card.png?v=%01"]) {
      const response = await card(path);
      expect(response.statusCode, path).toBe(400);
      expect(response.json().message, path).toEqual(expect.any(String));
    }
  });

  it("is tagged by what it shows: 304 while that stands, a new card once the name, title or text changes", async () => {
    const { user, headers, first, second } = await member("tag-card");
    const path = `/og/tag-card/${first.id}.png`;
    const served = await card(path);
    const etag = String(served.headers.etag);
    expect(etag).toMatch(/^".+"$/);
    const unchanged = await card(`${path}?v=anything`, { "if-none-match": etag });
    expect(unchanged.statusCode).toBe(304);
    expect(unchanged.body).toBe("");

    // A heart, and an edit of another prism, leave the card as it was.
    const heart = await send(t.app, "POST", `/api/prisms/${first.id}/heart`, { headers });
    expect(heart.json()).toMatchObject({ hearted: true });
    const other = await send(t.app, "PUT", `/api/prisms/${second.id}`, {
      headers,
      payload: { title: "Third thoughts", content: "<p>Later still.</p>" },
    });
    expect(other.statusCode).toBe(200);
    expect((await card(path, { "if-none-match": etag })).statusCode).toBe(304);

    const tags = [etag];
    const expectNewCard = async (change: string) => {
      const response = await card(path, { "if-none-match": tags.at(-1) ?? "" });
      expect(response.statusCode, change).toBe(200);
      expect(tags, change).not.toContain(response.headers.etag);
      tags.push(String(response.headers.etag));
    };
    const save = (payload: object) =>
      send(t.app, "PUT", `/api/prisms/${first.id}`, { headers, payload });
    expect((await save({ title: "Notes on looms", content: first.content })).statusCode).toBe(200);
    await expectNewCard("title");
    expect(
      (await save({ title: "Notes on looms", content: "<p>Punched cards.</p>" })).statusCode,
    ).toBe(200);
    await expectNewCard("content");
    const profile = await send(t.app, "PUT", "/api/user/profile", {
      headers,
      payload: profileBody(user, { firstName: "Augusta", lastName: "King" }),
    });
    expect(profile.statusCode).toBe(200);
    await expectNewCard("name");
  });

  it("moves the page's card with its first prism", async () => {
    const { headers, second } = await member("move-card");
    const before = await card("/og/move-card.png");
    const moved = await send(t.app, "PUT", `/api/prisms/${second.id}/move`, {
      headers,
      payload: { direction: "up" },
    });
    expect(moved.statusCode).toBe(200);
    const after = await card("/og/move-card.png", { "if-none-match": String(before.headers.etag) });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).toBe((await card(`/og/move-card/${second.id}.png`)).headers.etag);
  });

  it("answers 404 once the member is deactivated, and the card again once they are back", async () => {
    const { user } = await member("leaving-card");
    const admin = await signIn(t.database, await buildUser(t.database, { isAdmin: true }));
    const served = await card("/og/leaving-card.png");
    expect(served.statusCode).toBe(200);
    const users = `/api/analytics/users/${user.id}`;
    expect((await send(t.app, "PUT", `${users}/deactivate`, { headers: admin })).statusCode).toBe(
      200,
    );
    const etag = String(served.headers.etag);
    expect((await card("/og/leaving-card.png", { "if-none-match": etag })).statusCode).toBe(404);
    expect((await send(t.app, "PUT", `${users}/reactivate`, { headers: admin })).statusCode).toBe(
      200,
    );
    expect((await card("/og/leaving-card.png", { "if-none-match": etag })).statusCode).toBe(304);
  });

  it("draws a card once, however many ask for it at the same time", async () => {
    const { first } = await member("busy-card");
    const before = await drawsOf();
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => card(`/og/busy-card/${first.id}.png`)),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(6).fill(200));
    expect(new Set(answers.map((answer) => answer.rawPayload.toString("base64"))).size).toBe(1);
    expect((await drawsOf()) - before).toBe(1);
    // Kept: asked again, it is not drawn again.
    expect((await card(`/og/busy-card/${first.id}.png`)).statusCode).toBe(200);
    expect((await drawsOf()) - before).toBe(1);
  });
});
