// Fuzzing: every route that takes a JSON body gets a few hundred generated bodies (wrong types,
// huge strings, control characters, deep nesting, unknown fields, numbers out of range, broken
// JSON), every path parameter and paging query odd values, always from a valid call's starting
// point. No answer may be a 500, and every error is `{ message, errors? }`. The generator is
// seeded, so a failure repeats.
import type { InjectOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, buildApp } from "../../src/server/app.ts";
import { loadConfig } from "../../src/server/config.ts";
import { jsonHeaders, setupTestApp, TEST_ORIGIN } from "../../src/server/test/helpers.ts";
import { matrix, type Role, type Row, registeredRoutes, scene } from "./matrix.ts";

const t = setupTestApp();
let app: App;

beforeAll(async () => {
  const config = loadConfig({ APP_ORIGIN: TEST_ORIGIN, SEED: "none", NODE_ENV: "production" });
  app = await buildApp({ config, database: t.database });
  await app.ready();
});
afterAll(async () => {
  await app?.close();
});

/** A small seeded generator (mulberry32). */
function random(seed: number) {
  let state = seed;
  const next = () => {
    state = (state + 0x6d2b79f5) | 0;
    let x = Math.imul(state ^ (state >>> 15), 1 | state);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  return {
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T,
  };
}
type Random = ReturnType<typeof random>;

const strings = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\u0007\u001b[31m",
  "\u007f",
  "\u0085",
  "\ud800",
  "\udfff\ud800",
  "😀".repeat(50),
  "\u202eevil",
  "x".repeat(5_000),
  "x".repeat(60_000),
  "<script>alert(1)</script>",
  "' OR 1=1 --",
  "%00",
  "../../etc/passwd",
  "https://",
  "javascript:alert(1)",
  "a@b",
  "1e309",
  "-0",
  "__proto__",
  "constructor",
];
const numbers = [0, -1, 1.5, 2 ** 31, 2 ** 53 + 2, -(2 ** 63), 1e308, -1e-308, 4294967296];

function value(r: Random, depth = 0): unknown {
  switch (r.int(depth > 2 ? 4 : 7)) {
    case 0:
      return r.pick(strings);
    case 1:
      return r.pick(numbers);
    case 2:
      return r.pick([true, false, null]);
    case 3:
      return r.pick(strings).slice(0, 20);
    case 4:
      return Array.from({ length: r.int(4) }, () => value(r, depth + 1));
    case 5:
      return Object.fromEntries(
        Array.from({ length: r.int(4) }, () => [r.pick(strings).slice(0, 10), value(r, depth + 1)]),
      );
    default:
      return {};
  }
}

function nested(levels: number): unknown {
  let inner: unknown = "deep";
  for (let i = 0; i < levels; i++) inner = { a: inner };
  return inner;
}

/** A body derived from a valid one: one or two fields changed, dropped or added, or a wild value. */
function mutate(valid: Record<string, unknown>, r: Random): unknown {
  const keys = Object.keys(valid);
  switch (r.int(8)) {
    case 0:
      return value(r);
    case 1:
      return { ...valid, [r.pick(["extra", "isAdmin", "__proto__", "id"])]: value(r) };
    case 2: {
      const { [r.pick(keys) ?? "x"]: _dropped, ...rest } = valid;
      return rest;
    }
    case 3:
      return { ...valid, [r.pick(keys) ?? "x"]: nested(r.pick([10, 100, 1000])) };
    case 4:
      return [valid];
    default: {
      const changed = { ...valid };
      for (let n = 0; n <= r.int(2); n++) changed[r.pick(keys) ?? "x"] = value(r);
      return changed;
    }
  }
}

/** Raw payloads that are not a JSON value at all, or not JSON. */
const raw: { payload: string; type?: string }[] = [
  { payload: "{" },
  { payload: '{"a":' },
  { payload: "nul" },
  { payload: "\u0000" },
  { payload: `${"[".repeat(5_000)}${"]".repeat(5_000)}` },
  { payload: JSON.stringify({ big: "x".repeat(300 * 1024) }) },
  { payload: "title=x", type: "application/x-www-form-urlencoded" },
  { payload: "hello", type: "text/plain" },
];

const paramValues = [
  "0",
  "-1",
  "1.5",
  "abc",
  "%00",
  "1%00",
  "9999999999999999999999",
  "1e3",
  "%F0%9F%98%80",
  "..%2F..%2Fetc",
  "%",
  "%E0%A4%A",
  "x".repeat(250),
  "%20",
  "null",
  "__proto__",
];

const queryValues = ["-1", "0", "abc", "1e9", "%00", "1&limit=2", "99999999999", "", "1.5"];

/** The role that gets a route's body furthest: its owner, or an admin where only admins may. */
function callerFor(row: Row): Role {
  return typeof row.expect !== "number" && row.expect.owner === 403 ? "admin" : "owner";
}

interface Outcome {
  cases: number;
  failures: string[];
}

/** One fuzz call; records a 500 or a malformed error body. */
async function probe(outcome: Outcome, label: string, request: InjectOptions) {
  outcome.cases += 1;
  const response = await app.inject({
    ...request,
    remoteAddress: `10.66.${(outcome.cases >> 8) & 255}.${outcome.cases & 255}`,
  });
  if (response.statusCode >= 500) {
    outcome.failures.push(`${label}: ${response.statusCode} ${response.body.slice(0, 200)}`);
    return;
  }
  if (response.statusCode < 400) return;
  let body: unknown;
  try {
    body = response.json();
  } catch {
    outcome.failures.push(`${label}: ${response.statusCode} with a body that is not JSON`);
    return;
  }
  const shape = body as { message?: unknown; errors?: unknown };
  const keys = Object.keys(shape as object);
  const errorsOk =
    shape.errors === undefined ||
    (typeof shape.errors === "object" &&
      shape.errors !== null &&
      Object.values(shape.errors).every((v) => typeof v === "string"));
  if (
    typeof shape.message !== "string" ||
    !errorsOk ||
    keys.some((k) => k !== "message" && k !== "errors")
  ) {
    outcome.failures.push(`${label}: ${response.statusCode} ${response.body.slice(0, 200)}`);
  }
}

/** Routes that answer 500 on purpose (the error-handling demo). */
const meantToFail = new Set(["GET /api/demo/server-error"]);

describe("fuzzing", () => {
  it("answers generated bodies, path parameters and queries of every route without a 500, in the error shape", {
    timeout: 180_000,
  }, async () => {
    const r = random(20261122);
    const outcome: Outcome = { cases: 0, failures: [] };
    const routes = registeredRoutes(app).filter((route) => !meantToFail.has(route));
    let bodyRoutes = 0;
    for (const route of routes) {
      const row = matrix[route];
      if (!row) throw new Error(`no matrix row for ${route}`);
      const [method, template] = route.split(" ") as ["GET" | "POST" | "PUT" | "DELETE", string];
      if (template === "/api/events" || template.startsWith("/auth/")) continue;
      const s = await scene(t.database);
      const headers = s.headers[callerFor(row)];
      const url = row.url?.(s) ?? template;
      const send = (label: string, extra: InjectOptions) =>
        probe(outcome, `${route} ${label}`, {
          method,
          url,
          headers: method === "GET" ? headers : jsonHeaders(headers),
          ...extra,
        });

      if (row.body) {
        bodyRoutes += 1;
        const valid = row.body(s) as Record<string, unknown>;
        for (let i = 0; i < 250; i++) {
          const body = mutate(valid, r);
          await send(`body ${JSON.stringify(body)?.slice(0, 120)}`, {
            payload: JSON.stringify(body),
          });
        }
        for (const { payload, type } of raw) {
          await send(`raw ${payload.slice(0, 40)}`, {
            payload,
            headers: { ...jsonHeaders(headers), "content-type": type ?? "application/json" },
          });
        }
      }

      const params = template.match(/\{[^}]+\}/g) ?? [];
      for (const param of params) {
        for (const bad of paramValues) {
          await send(`param ${param}=${bad.slice(0, 30)}`, {
            url: template
              .replace(param, bad)
              .replace(/\{[^}]+\}/g, (other) => (other === param ? bad : "1")),
            ...(row.body ? { payload: JSON.stringify(row.body(s)) } : {}),
          });
        }
      }

      if (method === "GET" && /explore|notifications$/.test(template)) {
        for (const limit of queryValues) {
          for (const offset of queryValues) {
            await send(`query limit=${limit}&offset=${offset}`, {
              url: `${url}?limit=${limit}&offset=${offset}`,
            });
          }
        }
      }
    }
    console.log(
      `fuzzing: ${outcome.cases} cases over ${routes.length} routes (${bodyRoutes} with bodies), ${outcome.failures.length} failures`,
    );
    expect(outcome.failures).toEqual([]);
  });
});
