// Finding members and keeping usernames and e-mails unique, whatever their case, without HTTP.
import { describe, expect, it } from "vitest";
import { authMessages } from "../../../contract/auth.ts";
import { buildUser } from "../../test/builders.ts";
import { setupTestDatabase } from "../../test/helpers.ts";
import {
  assertAvailable,
  findActiveUser,
  findActiveUserByLogin,
  findUserByUsername,
  registerUser,
} from "./service.ts";

const t = setupTestDatabase();

let sequence = 0;
const unique = (name: string) => `${name}${++sequence}x${process.pid}`;

describe("finding a member", () => {
  it("ignores case, by username or e-mail, and finds a deactivated member only when asked to", async () => {
    const username = unique("Grace");
    const user = await buildUser(t.database, { username, email: `${username}@Example.com` });
    const gone = await buildUser(t.database, { deactivatedAt: new Date() });
    const { db } = t.database;
    expect((await findActiveUser(db, username.toUpperCase()))?.id).toBe(user.id);
    expect((await findActiveUserByLogin(db, username.toLowerCase()))?.id).toBe(user.id);
    expect((await findActiveUserByLogin(db, `${username}@EXAMPLE.COM`))?.id).toBe(user.id);
    expect(await findActiveUser(db, gone.username)).toBeNull();
    expect(await findActiveUserByLogin(db, gone.email)).toBeNull();
    expect((await findUserByUsername(db, gone.username.toUpperCase()))?.id).toBe(gone.id);
    // A pattern character is a character, not a wildcard.
    expect(await findActiveUser(db, `${username.slice(0, -1)}_`)).toBeNull();
  });
});

describe("keeping usernames and e-mails unique", () => {
  it("names each field another member has, in any case, and lets a member keep their own", async () => {
    const user = await buildUser(t.database);
    const { db } = t.database;
    await expect(
      assertAvailable(db, {
        username: user.username.toUpperCase(),
        email: user.email.toUpperCase(),
      }),
    ).rejects.toMatchObject({
      statusCode: 409,
      errors: { username: authMessages.usernameTaken, email: authMessages.emailTaken },
    });
    await expect(assertAvailable(db, { email: user.email }, user.id)).resolves.toBeUndefined();
    const input = {
      username: user.username.toUpperCase(),
      email: unique("new").concat("@example.com"),
      firstName: "New",
      lastName: "Member",
      password: "correct-horse",
    };
    await expect(registerUser(db, input)).rejects.toMatchObject({
      statusCode: 409,
      errors: { username: authMessages.usernameTaken },
    });
    expect(await findActiveUserByLogin(db, input.email)).toBeNull();
  });
});
