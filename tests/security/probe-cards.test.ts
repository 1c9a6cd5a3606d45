// Share cards cost a draw each (satori and resvg) the first time they are asked for: one client
// may not keep the server drawing. Cold draws are limited per address (a card kept in memory is
// answered to anyone), and only a card's current version is drawn: an address naming another
// version is sent to the current one.
import { describe, expect, it } from "vitest";
import { cardContent, cardMessages, cardPath } from "../../src/contract/cards.ts";
import { cacheMisses } from "../../src/server/metrics.ts";
import { buildPrism, buildUser } from "../../src/server/test/builders.ts";
import { send, setupTestApp, signIn } from "../../src/server/test/helpers.ts";

const t = setupTestApp();

/** What the test that draws sixty cards may take on a busy two-core machine. */
const HEAVY = 90_000;

/** Cards drawn so far in this process (the card images' cache misses). */
async function draws() {
  const { values } = await cacheMisses.get();
  return values.find((value) => value.labels.cache === "card-images")?.value ?? 0;
}

const card = (path: string, remoteAddress: string) => send(t.app, "GET", path, { remoteAddress });

/** A member with `count` prisms, each with a card of its own. */
async function memberWithPrisms(username: string, count: number) {
  const user = await buildUser(t.database, { username });
  const prisms = [];
  for (let index = 0; index < count; index++) {
    prisms.push(
      await buildPrism(t.database, {
        userId: user.id,
        title: `Prism ${index} of ${username}`,
        content: `<p>What ${username} wrote in prism ${index}.</p>`,
        index,
      }),
    );
  }
  return { user, paths: prisms.map((prism) => `/og/${username}/${prism.id}.png`) };
}

describe("share cards", () => {
  it(
    "draw at most 60 cards in ten minutes for one address; kept cards answer it still",
    async () => {
      const paths = [
        ...(await memberWithPrisms("cards-drawn-a", 50)).paths,
        ...(await memberWithPrisms("cards-drawn-b", 12)).paths,
      ];
      const [kept, ...cold] = paths as [string, ...string[]];
      // Drawn for someone else, and kept.
      expect((await card(kept, "10.70.0.1")).statusCode).toBe(200);

      const start = await draws();
      for (const [i, path] of cold.slice(0, 60).entries()) {
        expect((await card(path, "10.70.0.2")).statusCode, `card ${i + 1}`).toBe(200);
      }
      expect((await draws()) - start).toBe(60);

      const refused = await card(cold[60] as string, "10.70.0.2");
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toEqual({ message: cardMessages.tooMany });
      expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
      expect((await draws()) - start).toBe(60);

      const fromMemory = await card(kept, "10.70.0.2");
      expect(fromMemory.statusCode).toBe(200);
      expect(fromMemory.headers["content-type"]).toBe("image/png");
      expect((await card(cold[0] as string, "10.70.0.2")).statusCode).toBe(200);
      // Another address draws as before.
      expect((await card(cold[60] as string, "10.70.0.3")).statusCode).toBe(200);
      expect((await draws()) - start).toBe(61);
    },
    HEAVY,
  );

  it("draw only the current version: another version is sent to it, and drawn once there", async () => {
    const user = await buildUser(t.database, { username: "cards-versioned" });
    const headers = await signIn(t.database, user);
    const prism = await buildPrism(t.database, {
      userId: user.id,
      title: "Before",
      content: "<p>First words.</p>",
    });
    const old = cardPath(user.username, prism.id, cardContent(user, prism));
    const edited = await send(t.app, "PUT", `/api/prisms/${prism.id}`, {
      headers,
      payload: { title: "After", content: "<p>Second words.</p>" },
    });
    expect(edited.statusCode).toBe(200);
    const current = cardPath(user.username, prism.id, cardContent(user, edited.json()));
    expect(current).not.toBe(old);

    const start = await draws();
    const plain = `/og/${user.username}/${prism.id}.png`;
    for (const [i, path] of [old, `${plain}?v=made-up`, `${plain}?v=${"z".repeat(32)}`].entries()) {
      const answer = await card(path, `10.71.0.${i + 1}`);
      expect(answer.statusCode, path).toBe(302);
      expect(answer.headers.location, path).toBe(current);
      expect(answer.headers.etag, path).toBeUndefined();
    }
    expect(await draws()).toBe(start);
    // The page's card and a misspelt username's are sent to the member's own address alike.
    const page = await card(`/og/CARDS-versioned.png?v=made-up`, "10.71.0.4");
    expect(page.statusCode).toBe(302);
    expect(page.headers.location).toBe(
      cardPath(user.username, null, cardContent(user, edited.json())),
    );
    expect(await draws()).toBe(start);

    const drawn = await card(current, "10.71.0.1");
    expect(drawn.statusCode).toBe(200);
    expect(drawn.headers["content-type"]).toBe("image/png");
    expect((await card(plain, "10.71.0.2")).headers.etag).toBe(drawn.headers.etag);
    expect((await draws()) - start).toBe(1);
  });
});
