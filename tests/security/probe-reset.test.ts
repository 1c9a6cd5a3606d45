// A password-reset request does the same work for a login that names an account and for one that
// names none, so that neither its answer nor its time tells whether the account exists.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, buildApp } from "../../src/server/app.ts";
import { loadConfig } from "../../src/server/config.ts";
import { buildUser } from "../../src/server/test/builders.ts";
import { send, setupTestDatabase, TEST_ORIGIN } from "../../src/server/test/helpers.ts";
import { type CounterOperation, countingStore } from "../../src/server/test/limit-store.ts";

const t = setupTestDatabase();

describe("password reset, an account that exists against one that does not", () => {
  const operations: CounterOperation[] = [];
  let app: App;
  beforeAll(async () => {
    const config = loadConfig({ APP_ORIGIN: TEST_ORIGIN, SEED: "none", NODE_ENV: "test" });
    app = await buildApp({ config, database: t.database, limitStore: countingStore(operations) });
    await app.ready();
  });
  afterAll(() => app?.close());

  /** The counter operations of one request for `login`, from an address of its own. */
  async function operationsFor(login: string, address: string) {
    operations.length = 0;
    const answer = await send(app, "POST", "/api/password-reset/request", {
      payload: { login },
      remoteAddress: address,
    });
    expect(answer.statusCode).toBe(202);
    return operations.map(({ name, operation }) => `${name} ${operation}`);
  }

  it("spends the same counters for every login", async () => {
    const member = await buildUser(t.database);
    for (let i = 0; i < 5; i++) {
      const existing = await operationsFor(member.username, `10.33.12.${2 * i + 1}`);
      const missing = await operationsFor(`nobody_here_${i}`, `10.33.12.${2 * i + 2}`);
      expect(missing).toEqual(existing);
      expect(existing).toEqual(["reset spend", "reset-account spend"]);
    }
  });
});
