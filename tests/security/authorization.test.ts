// The authorization matrix: every route the app registers (as its OpenAPI document lists them),
// called by an anonymous visitor, another member, the owner of what the route touches and an
// admin, answers the status written here. A route without a row fails the suite, so a new route
// cannot ship without saying who may call it. The app runs as `npm start` runs it (production).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, buildApp } from "../../src/server/app.ts";
import { loadConfig } from "../../src/server/config.ts";
import { jsonHeaders, setupTestApp, TEST_ORIGIN } from "../../src/server/test/helpers.ts";
import { matrix, type Role, type Row, registeredRoutes, roles, scene } from "./matrix.ts";

const t = setupTestApp();
let app: App;
let origin = "";

beforeAll(async () => {
  const config = loadConfig({ APP_ORIGIN: TEST_ORIGIN, SEED: "none", NODE_ENV: "production" });
  app = await buildApp({ config, database: t.database });
  origin = await app.listen({ port: 0, host: "127.0.0.1" });
});
afterAll(async () => {
  await app?.close();
});

let cell = 0;

/** One call of the matrix; the event stream is opened for real and closed once it answers. */
async function call(route: string, row: Row, role: Role): Promise<number> {
  const s = await scene(t.database);
  const [method, template] = route.split(" ") as [string, string];
  const url = row.url?.(s) ?? template;
  cell += 1;
  // Each cell from its own address, so that the rate limits of one do not answer for another.
  const address = `10.77.${(cell >> 8) & 255}.${cell & 255}`;
  const headers = s.headers[role];
  if (url === "/api/events") {
    const aborter = new AbortController();
    const response = await fetch(`${origin}${url}`, { headers, signal: aborter.signal });
    aborter.abort();
    return response.status;
  }
  const response = await app.inject({
    method: method as "GET",
    url,
    remoteAddress: address,
    headers: method === "GET" ? s.headers[role] : jsonHeaders(s.headers[role]),
    ...(row.body ? { payload: row.body(s) } : {}),
  });
  if (response.statusCode >= 400) {
    expect(response.json(), `${route} as ${role}`).toEqual({
      message: expect.any(String),
      ...(response.json().errors ? { errors: expect.any(Object) } : {}),
    });
  }
  return response.statusCode;
}

describe("authorization matrix", () => {
  it("has a row for every registered route, and no row for a route that does not exist", () => {
    const routes = registeredRoutes(app);
    expect(routes.length).toBeGreaterThan(30);
    expect(routes.filter((route) => !(route in matrix))).toEqual([]);
    expect(Object.keys(matrix).filter((route) => !routes.includes(route))).toEqual([]);
  });

  it("answers every route for every role with the status in its row", {
    timeout: 120_000,
  }, async () => {
    const failures: string[] = [];
    for (const [route, row] of Object.entries(matrix)) {
      for (const role of roles) {
        const expected = typeof row.expect === "number" ? row.expect : row.expect[role];
        const status = await call(route, row, role);
        if (status !== expected) failures.push(`${route} as ${role}: ${status}, not ${expected}`);
      }
    }
    console.log(
      `authorization matrix: ${Object.keys(matrix).length} routes × ${roles.length} roles = ${
        Object.keys(matrix).length * roles.length
      } calls`,
    );
    expect(failures).toEqual([]);
  });
});
