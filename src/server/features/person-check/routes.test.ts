// The person check of anonymous responses, through HTTP: the challenge issued, a solved one
// accepted once, everything else refused on `altcha` with nothing stored, members never asked,
// and a script that runs no JavaScript storing nothing however many addresses it sends from.
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { annotationMessages } from "../../../contract/annotation-messages.ts";
import {
  type Challenge,
  challengeSchema,
  personCheckMessages,
} from "../../../contract/person-check.ts";
import { htmlToPlainText } from "../../../contract/plain-text.ts";
import { annotations, notifications, spentProofs } from "../../db/schema.ts";
import { buildPrism, buildUser } from "../../test/builders.ts";
import { personCheckFrom, send, setupTestApp, signIn } from "../../test/helpers.ts";
import { personCheck, TYPING_MS } from "../../test/person-check.ts";
import { issueChallenge } from "./service.ts";

// Behind a proxy, as the README's deployments are: addresses come from X-Forwarded-For.
const t = setupTestApp({ TRUST_PROXY: "127.0.0.1" });

const CONTENT = "<p>I give feedback <strong>in writing</strong> first.</p>";
const QUOTE = "in writing";

afterEach(() => {
  vi.useRealTimers();
});

let addresses = 0;
/** An address of its own (198.18.0.0/15, kept for tests), as from a different person. */
function nextAddress() {
  addresses += 1;
  return `198.18.${(addresses >> 8) & 255}.${addresses & 255}`;
}

async function scene() {
  const owner = await buildUser(t.database);
  const prism = await buildPrism(t.database, { userId: owner.id, content: CONTENT });
  const start = htmlToPlainText(CONTENT).indexOf(QUOTE);
  const response = {
    prismId: prism.id,
    annotationText: "This resonates.",
    selectedText: QUOTE,
    selectionStart: start,
    selectionEnd: start + QUOTE.length,
  };
  return { owner, prism, response };
}

/** A response from a browser of its own at an address of its own, with `extra` in its body. */
function respond(body: object, headers: Record<string, string> = {}) {
  return send(t.app, "POST", "/api/annotations", {
    headers: { "x-forwarded-for": nextAddress(), ...headers },
    payload: body,
  });
}

/** What was stored for the prism: its responses and its owner's notifications. */
async function storedFor(prismId: number) {
  const { db } = t.database;
  return {
    responses: (await db.select().from(annotations).where(eq(annotations.prismId, prismId))).length,
    notifications: (await db.select().from(notifications).where(eq(notifications.prismId, prismId)))
      .length,
  };
}

const decode = (altcha: string) => JSON.parse(Buffer.from(altcha, "base64").toString("utf8"));
const encode = (payload: unknown) => Buffer.from(JSON.stringify(payload)).toString("base64");

function expectRefused(
  response: { statusCode: number; json: () => unknown },
  message: string = personCheckMessages.failed,
) {
  expect(response.statusCode).toBe(400);
  expect(response.json()).toEqual({ message, errors: { altcha: message } });
}

describe("GET /api/challenge", () => {
  it("issues a new signed challenge each time, expiring in five minutes, never cached", async () => {
    const first = await send(t.app, "GET", "/api/challenge");
    expect(first.statusCode).toBe(200);
    expect(first.headers["cache-control"]).toBe("no-store");
    const challenge = challengeSchema.parse(first.json());
    expect(challenge.parameters).toMatchObject({ algorithm: "PBKDF2/SHA-256", keyLength: 32 });
    const now = Date.now() / 1000;
    expect(challenge.parameters.expiresAt).toBeGreaterThan(now + 290);
    expect(challenge.parameters.expiresAt).toBeLessThanOrEqual(now + 301);
    const second = challengeSchema.parse((await send(t.app, "GET", "/api/challenge")).json());
    expect(second.parameters.nonce).not.toBe(challenge.parameters.nonce);
    expect(second.signature).not.toBe(challenge.signature);
  });

  it("gives one address sixty challenges in ten minutes", async () => {
    const address = nextAddress();
    const ask = () =>
      send(t.app, "GET", "/api/challenge", { headers: { "x-forwarded-for": address } });
    for (let i = 0; i < 60; i++) expect((await ask()).statusCode).toBe(200);
    const refused = await ask();
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toBe(annotationMessages.tooMany);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
  });
});

describe("POST /api/annotations without an account", () => {
  it("accepts a solved challenge once, keeping what the check found", async () => {
    const { prism, response } = await scene();
    const check = await personCheckFrom(t.app);
    const accepted = await respond({ ...response, ...check });
    expect(accepted.statusCode).toBe(201);
    const [row] = await t.database.db
      .select()
      .from(annotations)
      .where(eq(annotations.id, accepted.json().id));
    // With its score, which found nothing doubtful.
    expect(row?.signals).toEqual({
      typingMs: TYPING_MS,
      proofAgeMs: expect.any(Number),
      score: 0,
      reasons: [],
    });
    expect(row?.signals?.proofAgeMs).toBeGreaterThanOrEqual(0);
    expect(row?.signals?.proofAgeMs).toBeLessThan(60_000);

    const again = await respond({ ...response, ...check });
    expectRefused(again, personCheckMessages.reused);
    expect(await storedFor(prism.id)).toEqual({ responses: 1, notifications: 1 });
  });

  it("refuses a missing, malformed or forged solution, and stores nothing", async () => {
    const { prism, response } = await scene();
    const valid = decode((await personCheckFrom(t.app)).altcha);
    const { challenge, solution } = valid;
    const otherSecret: Challenge = await issueChallenge("another-app's-secret-0000000000000");
    const forged = [
      // Nothing, or not ALTCHA's payload.
      undefined,
      "",
      "not base64 JSON",
      encode({ challenge }),
      // The signature, the parameters or the solution changed.
      encode({ challenge: { ...challenge, signature: "0".repeat(64) }, solution }),
      encode({
        challenge: { ...challenge, parameters: { ...challenge.parameters, cost: 1 } },
        solution,
      }),
      encode({ challenge, solution: { ...solution, derivedKey: "00".repeat(32) } }),
      // Signed by another server's secret, and solved.
      (await personCheck(otherSecret)).altcha,
    ];
    for (const altcha of forged) {
      expectRefused(await respond({ ...response, altcha, typingMs: TYPING_MS }));
    }
    expect(await storedFor(prism.id)).toEqual({ responses: 0, notifications: 0 });
    // The genuine one was never spent by those.
    expect((await respond({ ...response, altcha: encode(valid), typingMs: 4000 })).statusCode).toBe(
      201,
    );
  });

  it("refuses an expired challenge, solved in time, and stores nothing", async () => {
    const { prism, response } = await scene();
    const check = await personCheckFrom(t.app);
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 5 * 60 * 1000 + 1000 });
    expectRefused(await respond({ ...response, ...check }), personCheckMessages.expired);
    expect(await storedFor(prism.id)).toEqual({ responses: 0, notifications: 0 });
    const { nonce } = decode(check.altcha).challenge.parameters;
    expect(
      await t.database.db.select().from(spentProofs).where(eq(spentProofs.nonce, nonce)),
    ).toEqual([]);
  });

  it("refuses a filled honeypot, and a form sent sooner than a person writes, and stores nothing", async () => {
    const { prism, response } = await scene();
    const cases = [
      { website: "https://example.com" },
      { typingMs: undefined },
      { typingMs: 0 },
      { typingMs: 1999 },
    ];
    for (const fields of cases) {
      const check = await personCheckFrom(t.app);
      expectRefused(await respond({ ...response, ...check, ...fields }));
    }
    expect(await storedFor(prism.id)).toEqual({ responses: 0, notifications: 0 });
    const inTime = await respond({
      ...response,
      ...(await personCheckFrom(t.app)),
      typingMs: 2000,
      website: "",
    });
    expect(inTime.statusCode).toBe(201);
  });

  it("asks members for nothing, and ignores what they send of it", async () => {
    const { prism, response } = await scene();
    const member = await signIn(t.database, await buildUser(t.database));
    expect((await respond(response, member)).statusCode).toBe(201);
    const ignored = await respond(
      { ...response, altcha: "not base64 JSON", website: "filled", typingMs: 0 },
      member,
    );
    expect(ignored.statusCode).toBe(201);
    expect(await storedFor(prism.id)).toEqual({ responses: 2, notifications: 2 });
  });

  it("stores none of 1,000 responses from a script that runs no JavaScript, from as many addresses", {
    timeout: 90_000,
  }, async () => {
    const { prism, response } = await scene();
    const issued = challengeSchema.parse((await send(t.app, "GET", "/api/challenge")).json());
    // A proof a person's browser solved and spent on another prism, which the script copied.
    const elsewhere = await scene();
    const spent = await personCheckFrom(t.app);
    expect((await respond({ ...elsewhere.response, ...spent })).statusCode).toBe(201);
    const statuses = new Map<number, number>();
    for (let i = 0; i < 1000; i++) {
      // No proof; a made-up one; a real challenge, unsolved; or a solved one replayed: what plain
      // HTTP can send. The honeypot left empty, as a careful script leaves it.
      const altcha = [
        undefined,
        encode({ challenge: issued, solution: { counter: i, derivedKey: "ab".repeat(32) } }),
        Buffer.from(`proof-${i}`).toString("base64"),
        spent.altcha,
      ][i % 4];
      const answer = await respond({ ...response, altcha, website: "", typingMs: 5000 + i });
      statuses.set(answer.statusCode, (statuses.get(answer.statusCode) ?? 0) + 1);
    }
    expect(Object.fromEntries(statuses)).toEqual({ 400: 1000 });
    expect(await storedFor(prism.id)).toEqual({ responses: 0, notifications: 0 });
  });
});
