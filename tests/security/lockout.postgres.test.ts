// What one person can do to another's account from outside it: guesses from many addresses slow
// guessing but never refuse the owner's right password, every spelling of a username is one
// account with one count, and asking for reset links neither tells who has an account nor fills
// their inbox.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { authMessages } from "../../src/contract/auth.ts";
import { passwordResetMessages } from "../../src/contract/password-reset.ts";
import { passwordResetTokens } from "../../src/server/db/schema.ts";
import { buildUser } from "../../src/server/test/builders.ts";
import { send, TEST_PASSWORD } from "../../src/server/test/helpers.ts";
import { setupMailTestApp } from "../../src/server/test/mail.ts";

const t = setupMailTestApp();

let addresses = 0;
/** An address that has sent nothing yet. */
const freshAddress = () => `10.40.${Math.floor(++addresses / 250)}.${addresses % 250}`;

const login = (username: string, password: string, remoteAddress: string) =>
  send(t.app, "POST", "/api/login", { payload: { username, password }, remoteAddress });

/** Another spelling of a username that Prism reads as the same account ("admİn" for "admin"). */
const dotted = (username: string) => username.replace("i", "İ");

// Each test checks dozens of passwords, and argon2 is slow on purpose.
describe("sign-in guessed by others", { timeout: 120_000 }, () => {
  it("lets the owner in with the right password after 10 addresses × 5 wrong guesses", async () => {
    const owner = await buildUser(t.database);
    for (let address = 0; address < 10; address++) {
      const from = freshAddress();
      for (let guess = 0; guess < 5; guess++) {
        expect((await login(owner.username, `wrong-${guess}`, from)).statusCode).toBe(401);
      }
    }
    // 50 failures on the account: a further wrong guess from anywhere is refused ...
    const slowed = await login(owner.username, "one-more-guess", freshAddress());
    expect(slowed.statusCode).toBe(429);
    expect(slowed.json()).toEqual({ message: authMessages.tooManyAttempts });
    expect(Number(slowed.headers["retry-after"])).toBeGreaterThan(0);
    // ... and the owner still gets in, again and again.
    for (let i = 0; i < 2; i++) {
      const owners = await login(owner.username, TEST_PASSWORD, freshAddress());
      expect(owners.statusCode).toBe(200);
      expect(owners.json().username).toBe(owner.username);
    }
  });

  it("refuses an address over its own limit, even with the right password", async () => {
    const owner = await buildUser(t.database);
    const from = freshAddress();
    for (let i = 0; i < 5; i++) {
      expect((await login(owner.username, `wrong-${i}`, from)).statusCode).toBe(401);
    }
    const refused = await login(owner.username, TEST_PASSWORD, from);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ message: authMessages.tooManyAttempts });
    expect((await login(owner.username, TEST_PASSWORD, freshAddress())).statusCode).toBe(200);
  });

  it("counts every spelling of a username as the one account it signs in to", async () => {
    const owner = await buildUser(t.database, { username: "kiosk_admin" });
    const spellings = [
      owner.username,
      dotted(owner.username),
      dotted(owner.username).toUpperCase(),
    ];
    const signedIn = await login(dotted(owner.username), TEST_PASSWORD, freshAddress());
    expect(signedIn.json()).toMatchObject({ id: owner.id, username: owner.username });
    // From one address: 5 guesses, then the 6th in another spelling is refused.
    const from = freshAddress();
    for (let i = 0; i < 5; i++) {
      expect((await login(owner.username, `wrong-${i}`, from)).statusCode).toBe(401);
    }
    expect((await login(dotted(owner.username), "wrong-5", from)).statusCode).toBe(429);
    // From everywhere: 50 failures in all, whichever spelling each used.
    for (let address = 0; address < 9; address++) {
      const elsewhere = freshAddress();
      for (let guess = 0; guess < 5; guess++) {
        const spelling = spellings[(address + guess) % spellings.length] ?? owner.username;
        expect((await login(spelling, `wrong-${guess}`, elsewhere)).statusCode).toBe(401);
      }
    }
    for (const spelling of spellings) {
      expect((await login(spelling, "wrong-again", freshAddress())).statusCode).toBe(429);
    }
  });

  it("answers guesses at an unknown username exactly as at a member's", async () => {
    const member = await buildUser(t.database);
    const answersFor = async (username: string) => {
      const answers = [];
      for (let address = 0; address < 10; address++) {
        const from = freshAddress();
        for (let guess = 0; guess < 6; guess++) {
          const answer = await login(username, `wrong-${guess}`, from);
          answers.push({ status: answer.statusCode, body: answer.json() });
        }
      }
      const slowed = await login(username, "one-more-guess", freshAddress());
      return [...answers, { status: slowed.statusCode, body: slowed.json() }];
    };
    const known = await answersFor(member.username);
    expect(known.filter((answer) => answer.status === 401)).toHaveLength(50);
    expect(known.at(-1)?.status).toBe(429);
    expect(await answersFor("nobody_by_that_name")).toEqual(known);
  });
});

describe("password reset asked for by others", () => {
  const requestReset = (login: string, remoteAddress = freshAddress()) =>
    send(t.app, "POST", "/api/password-reset/request", { payload: { login }, remoteAddress });
  const accepted = { status: 202, body: { message: passwordResetMessages.requested } };
  const answer = async (login: string) => {
    const response = await requestReset(login);
    return { status: response.statusCode, body: response.json() };
  };

  it("answers a member's login as it answers an unknown one, however often it is asked", async () => {
    const member = await buildUser(t.database);
    for (let i = 0; i < 8; i++) {
      expect(await answer(member.username)).toEqual(accepted);
      expect(await answer(`nobody_${i}`)).toEqual(accepted);
    }
  });

  it("answers the account's e-mail 202 right after its username was used up", async () => {
    const member = await buildUser(t.database);
    for (let i = 0; i < 4; i++) expect(await answer(member.username)).toEqual(accepted);
    expect(await answer(member.email)).toEqual(accepted);
    expect(await answer(member.email.toUpperCase())).toEqual(accepted);
  });

  it("sends one account at most 3 links in fifteen minutes, however its login is typed", async () => {
    const member = await buildUser(t.database);
    const logins = [member.username, member.email.toUpperCase(), member.username.toUpperCase()];
    for (let i = 0; i < 10; i++) {
      expect(await answer(logins[i % logins.length] ?? member.email)).toEqual(accepted);
    }
    await t.arrivedAt(member.email, 3);
    // Another member's link, asked for after them, has arrived: a link that those requests had
    // set out to write and send would have had its turn.
    const other = await buildUser(t.database);
    expect(await answer(other.username)).toEqual(accepted);
    await t.arrivedAt(other.email, 1);
    expect(t.received.filter((mail) => mail.to.includes(member.email))).toHaveLength(3);
    const links = await t.database.db
      .select()
      .from(passwordResetTokens)
      .where(eq(passwordResetTokens.userId, member.id));
    expect(links).toHaveLength(3);
  });

  it("still limits one address to 10 requests, alike for every login", async () => {
    const member = await buildUser(t.database);
    for (const login of [member.username, "nobody_here"]) {
      const from = freshAddress();
      for (let i = 0; i < 10; i++) expect((await requestReset(login, from)).statusCode).toBe(202);
      const limited = await requestReset(login, from);
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toEqual({ message: passwordResetMessages.tooMany });
    }
  });
});
