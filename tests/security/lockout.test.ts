// What one person can do to another's account from outside it: guesses from many addresses slow
// guessing but never refuse the owner's right password, every spelling of a username is one
// account with one count, and asking for reset links neither tells who has an account nor fills
// their inbox.
import { describe, expect, it } from "vitest";
import { authMessages } from "../../src/contract/auth.ts";
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
