// The registration test, run as its route runs it: the real registration, always rolled back.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { authMessages } from "../../contract/auth.ts";
import { diagnosticMessages } from "../../contract/diagnostics.ts";
import { users } from "../db/schema.ts";
import { buildUser } from "../test/builders.ts";
import { setupTestDatabase } from "../test/helpers.ts";
import { run } from "../test/write.ts";
import { testRegistration } from "./diagnostics.ts";

const t = setupTestDatabase();

const input = (username: string) => ({
  username,
  email: `${username}@example.com`,
  password: "test-password",
  firstName: "Diag",
  lastName: "Tester",
});

const named = (username: string) =>
  t.database.db.select().from(users).where(eq(users.username, username));

describe("testRegistration", () => {
  it("registers the member for real, then rolls it back, announcing nothing", async () => {
    const { result, events } = await run(t.database, null, (write) =>
      testRegistration(write, input("diag_command")),
    );
    expect(result).toEqual({
      status: "ok",
      message: diagnosticMessages.registrationWorks,
      user: { username: "diag_command", email: "diag_command@example.com" },
    });
    expect(events).toEqual([]);
    expect(await named("diag_command")).toEqual([]);
  });

  it("answers a taken username as an error result, changing nothing", async () => {
    const taken = await buildUser(t.database);
    const { result } = await run(t.database, null, (write) =>
      testRegistration(write, { ...input("diag_taken"), username: taken.username }),
    );
    expect(result).toEqual({
      status: "error",
      message: diagnosticMessages.registrationRejected,
      error: authMessages.usernameTaken,
    });
    expect(await named(taken.username)).toHaveLength(1);
  });
});
