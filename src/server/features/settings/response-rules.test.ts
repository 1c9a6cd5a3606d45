// The owner's rules for responses, set in Profile Settings and applied where a new response lands:
// anonymous responses (the check, held for review, or members only), links in them (allowed, held
// or spam) and watched words (which hold any response for review).
import { count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { flagMessages } from "../../../contract/flag-messages.ts";
import { annotations, notifications, users } from "../../db/schema.ts";
import { buildPrism, buildUser } from "../../test/builders.ts";
import {
  profileBody,
  respondToQuote,
  send,
  setupTestApp,
  signIn,
  visitorCookie,
} from "../../test/helpers.ts";

const t = setupTestApp();

const CONTENT = "<p>I give feedback in writing first.</p><p>Then we talk.</p>";
const THREE_LINKS = "See https://a.example/x and https://b.example/y and https://c.example/z";

/** An owner with a prism and the rules `rules`, saved through Profile Settings. */
async function ownerWith(rules: Record<string, unknown>) {
  const owner = await buildUser(t.database);
  const headers = await signIn(t.database, owner);
  const saved = await send(t.app, "PUT", "/api/user/profile", {
    headers,
    payload: profileBody(owner, rules),
  });
  expect(saved.statusCode).toBe(200);
  const prism = await buildPrism(t.database, { userId: owner.id, content: CONTENT });
  return { owner, headers, prism, saved: saved.json() };
}

let browsers = 0;
/** A response from a browser of its own, saying `text`. */
function anonymous(prismId: number, text: string) {
  browsers += 1;
  return respondToQuote(
    t.app,
    prismId,
    CONTENT,
    "in writing",
    { cookie: visitorCookie(`rules-browser-${browsers}`) },
    { annotationText: text },
  );
}

const stored = async (id: number) => {
  const [row] = await t.database.db.select().from(annotations).where(eq(annotations.id, id));
  return row;
};

describe("the owner's response rules in Profile Settings", () => {
  it("are the check, links held and no watched words by default; saved and answered", async () => {
    const owner = await buildUser(t.database);
    const headers = await signIn(t.database, owner);
    const me = await send(t.app, "GET", "/api/user", { headers });
    expect(me.json()).toMatchObject({
      anonymousResponses: "check",
      anonymousLinks: "held",
      watchedWords: [],
    });
    const { saved } = await ownerWith({
      anonymousResponses: "hold",
      anonymousLinks: "spam",
      watchedWords: [" crypto ", "", "free money", "crypto"],
    });
    expect(saved).toMatchObject({
      anonymousResponses: "hold",
      anonymousLinks: "spam",
      watchedWords: ["crypto", "free money"],
    });
  });

  it("leaves them as they are when a client does not send them, and refuses bad ones", async () => {
    const { owner, headers } = await ownerWith({ watchedWords: ["casino"] });
    await send(t.app, "PUT", "/api/user/profile", { headers, payload: profileBody(owner) });
    const [row] = await t.database.db.select().from(users).where(eq(users.id, owner.id));
    expect(row?.watchedWords).toEqual(["casino"]);
    for (const bad of [
      { anonymousResponses: "nobody" },
      { anonymousLinks: "maybe" },
      { watchedWords: Array.from({ length: 51 }, (_, i) => `word${i}`) },
      { watchedWords: ["x".repeat(61)] },
      { watchedWords: "casino" },
    ]) {
      const answer = await send(t.app, "PUT", "/api/user/profile", {
        headers,
        payload: profileBody(owner, bad),
      });
      expect(answer.statusCode).toBe(400);
    }
  });
});

describe("members only", () => {
  it("answers an anonymous response 403, before any check, and stores nothing", async () => {
    const { prism, owner } = await ownerWith({ anonymousResponses: "members" });
    const refused = await anonymous(prism.id, "A fair point.");
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(flagMessages.anonymousMembersOnly);
    // Without a person check too: the visitor is told to sign in, not to solve a check.
    const unchecked = await send(t.app, "POST", "/api/annotations", {
      headers: { cookie: visitorCookie("rules-unchecked") },
      payload: {
        prismId: prism.id,
        selectedText: "in writing",
        selectionStart: 15,
        selectionEnd: 25,
        annotationText: "Hello",
      },
    });
    expect(unchecked.statusCode).toBe(403);
    const [stored] = await t.database.db
      .select({ n: count() })
      .from(annotations)
      .where(eq(annotations.prismId, prism.id));
    expect(stored?.n).toBe(0);
    const told = await t.database.db
      .select()
      .from(notifications)
      .where(eq(notifications.userId, owner.id));
    expect(told).toEqual([]);
    // Members still respond; the page knows to ask visitors to sign in.
    const member = await buildUser(t.database);
    const byMember = await respondToQuote(
      t.app,
      prism.id,
      CONTENT,
      "in writing",
      await signIn(t.database, member),
    );
    expect(byMember.statusCode).toBe(201);
    const page = await send(t.app, "GET", `/api/users/${owner.username}`);
    expect(page.json()).toMatchObject({ membersOnly: true });
  });
});

describe("where an anonymous response lands", () => {
  it("with the check: a response scoring high is spam", async () => {
    const { prism } = await ownerWith({ anonymousResponses: "check" });
    const answer = await anonymous(prism.id, THREE_LINKS);
    expect((await stored(answer.json().id))?.status).toBe("spam");
  });

  it("held for review: never set aside by its score, its reasons kept for the owner", async () => {
    const { prism } = await ownerWith({ anonymousResponses: "hold" });
    const answer = await anonymous(prism.id, THREE_LINKS);
    expect(answer.statusCode).toBe(201);
    const row = await stored(answer.json().id);
    expect(row?.status).toBe("pending");
    expect(row?.signals?.reasons).toEqual(["Has 3 links"]);
  });

  it("links allowed: they weigh nothing", async () => {
    const { prism } = await ownerWith({ anonymousLinks: "allowed" });
    const row = await stored((await anonymous(prism.id, THREE_LINKS)).json().id);
    expect(row?.status).toBe("pending");
    expect(row?.signals).toMatchObject({ score: 0, reasons: [] });
  });

  it("links held: a link waits for review, several make spam as the score says", async () => {
    const { prism } = await ownerWith({ anonymousLinks: "held" });
    const one = await stored((await anonymous(prism.id, "See https://a.example/x")).json().id);
    expect(one?.status).toBe("pending");
    const three = await stored((await anonymous(prism.id, THREE_LINKS)).json().id);
    expect(three?.status).toBe("spam");
  });

  it("links spam: one link is enough, even when all are held for review", async () => {
    const { prism } = await ownerWith({ anonymousLinks: "spam", anonymousResponses: "hold" });
    const linked = await stored((await anonymous(prism.id, "See www.example.com")).json().id);
    expect(linked?.status).toBe("spam");
    const plain = await stored((await anonymous(prism.id, "A fair point.")).json().id);
    expect(plain?.status).toBe("pending");
  });
});

describe("watched words", () => {
  it("hold a member's response the owner would approve at once, as whole words in any case", async () => {
    const { prism } = await ownerWith({
      preapproveMembers: true,
      watchedWords: ["crypto", "free money"],
    });
    const member = await buildUser(t.database);
    const headers = await signIn(t.database, member);
    const say = async (annotationText: string) =>
      (
        await respondToQuote(t.app, prism.id, CONTENT, "in writing", headers, { annotationText })
      ).json().status;
    expect(await say("Is this about Crypto?")).toBe("pending");
    expect(await say("I found FREE  money!")).toBe("pending");
    expect(await say("Free moneybags")).toBe("approved");
    expect(await say("Cryptography is hard")).toBe("approved");
  });

  it("hold an anonymous response, and tell the owner which word", async () => {
    const { prism } = await ownerWith({ watchedWords: ["casino"] });
    const row = await stored((await anonymous(prism.id, "Visit my casino")).json().id);
    expect(row?.status).toBe("pending");
    expect(row?.signals?.reasons).toContain("Has a watched word: casino");
  });
});
