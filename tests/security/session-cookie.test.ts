// On https in production the session cookie carries the __Host- prefix (Secure, whole site, no
// Domain), and only that cookie signs a browser in.
import { describe, expect, it } from "vitest";
import { buildApp } from "../../src/server/app.ts";
import { loadConfig } from "../../src/server/config.ts";
import { buildUser } from "../../src/server/test/builders.ts";
import { setupTestApp, TEST_PASSWORD } from "../../src/server/test/helpers.ts";

const t = setupTestApp();
const origin = "https://prism.example";

describe("the session cookie on https", () => {
  it("is __Host-prism_session: Secure, HttpOnly, path /, no domain", async () => {
    const config = loadConfig({ APP_ORIGIN: origin, SEED: "none", NODE_ENV: "production" });
    const app = await buildApp({ config, database: t.database });
    try {
      const member = await buildUser(t.database);
      const response = await app.inject({
        method: "POST",
        url: "/api/login",
        headers: { origin, "content-type": "application/json" },
        payload: { username: member.username, password: TEST_PASSWORD },
      });
      expect(response.statusCode).toBe(200);
      const cookie = response.cookies.find((c) => c.name === "__Host-prism_session");
      expect(cookie).toMatchObject({ secure: true, httpOnly: true, path: "/", sameSite: "Lax" });
      expect(cookie?.domain).toBeUndefined();
      expect(response.cookies.find((c) => c.name === "prism_session")).toBeUndefined();
      const token = cookie?.value ?? "";
      const me = (name: string) =>
        app.inject({ method: "GET", url: "/api/user", headers: { cookie: `${name}=${token}` } });
      expect((await me("__Host-prism_session")).statusCode).toBe(200);
      expect((await me("prism_session")).statusCode).toBe(401);
    } finally {
      await app.close();
    }
  });
});
