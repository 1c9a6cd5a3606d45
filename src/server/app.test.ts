import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { buildApp } from "./app.ts";
import { loadConfig } from "./config.ts";
import { openDatabase } from "./db/client.ts";
import { cacheHits } from "./metrics.ts";
import { buildPrism, buildUser } from "./test/builders.ts";
import { jsonHeaders, send, setupTestApp, TEST_ORIGIN } from "./test/helpers.ts";

const t = setupTestApp();
const config = loadConfig({ APP_ORIGIN: TEST_ORIGIN, SEED: "none", NODE_ENV: "test" });
const scratch = mkdtempSync(join(tmpdir(), "prism-app-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("the HTTP shell", () => {
  it("answers unknown API paths with a JSON 404 in the error shape", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/nothing-here" });
    expect(response.statusCode).toBe(404);
    expect(response.headers["content-type"]).toMatch(/application\/json/);
    expect(response.json()).toEqual({ message: "No route for GET /api/nothing-here" });
  });

  it("serves index.html for page paths and files from the build", async () => {
    writeFileSync(join(scratch, "index.html"), "<!doctype html><title>Prism</title>");
    writeFileSync(join(scratch, "robots-test.txt"), "hello");
    const app = await buildApp({ config, database: t.database, webRoot: scratch });
    try {
      // An unknown member's page is still the app, answered 404 (features/seo decides the status;
      // the server renderer, absent here, writes the heads).
      for (const [path, status] of [
        ["/", 200],
        ["/sign-in", 200],
        ["/someone", 404],
        ["/someone/a-prism?prism=3", 404],
      ] as const) {
        const page = await app.inject({ method: "GET", url: path });
        expect(page.statusCode, path).toBe(status);
        expect(page.headers["content-type"]).toMatch(/text\/html/);
        expect(page.body).toBe("<!doctype html><title>Prism</title>");
      }
      expect((await app.inject({ method: "GET", url: "/robots-test.txt" })).body).toBe("hello");
      expect((await app.inject({ method: "GET", url: "/missing.js" })).statusCode).toBe(404);
      expect(
        (await app.inject({ method: "POST", url: "/someone", headers: jsonHeaders() })).statusCode,
      ).toBe(404);
    } finally {
      await app.close();
    }
  });

  it("sends the build's compressed assets as they are, and compresses large pages and JSON", async () => {
    const root = join(scratch, "compressed");
    mkdirSync(join(root, "assets"), { recursive: true });
    const script = `console.log(${JSON.stringify("Prism ".repeat(400))});`;
    writeFileSync(
      join(root, "index.html"),
      `<!doctype html><title>Prism</title>${"<p></p>".repeat(300)}`,
    );
    writeFileSync(join(root, "assets/app-1a2b.js"), script);
    writeFileSync(join(root, "assets/app-1a2b.js.br"), brotliCompressSync(script));
    writeFileSync(join(root, "assets/app-1a2b.js.gz"), gzipSync(script));
    const app = await buildApp({ config, database: t.database, webRoot: root });
    try {
      const asset = (acceptEncoding: string) =>
        app.inject({
          method: "GET",
          url: "/assets/app-1a2b.js",
          headers: { "accept-encoding": acceptEncoding },
        });
      for (const [accepted, encoding] of [
        ["gzip, deflate, br", "br"],
        ["gzip", "gzip"],
      ] as const) {
        const response = await asset(accepted);
        expect(response.statusCode).toBe(200);
        expect(response.headers["content-encoding"]).toBe(encoding);
        expect(response.headers.vary).toMatch(/accept-encoding/i);
        expect(response.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
        expect(response.headers["content-type"]).toMatch(/javascript/);
      }
      const br = await asset("br");
      expect(brotliDecompressSync(br.rawPayload).toString()).toBe(script);
      const plain = await asset("identity");
      expect(plain.headers["content-encoding"]).toBeUndefined();
      expect(plain.body).toBe(script);

      const page = await app.inject({
        method: "GET",
        url: "/",
        headers: { "accept-encoding": "br" },
      });
      expect(page.headers["content-encoding"]).toBe("br");
      expect(brotliDecompressSync(page.rawPayload).toString()).toMatch(/^<!doctype html><title>/);
      const docs = await app.inject({
        method: "GET",
        url: "/api/docs/json",
        headers: { "accept-encoding": "gzip" },
      });
      expect(docs.headers["content-encoding"]).toBe("gzip");
      const small = await app.inject({
        method: "GET",
        url: "/api/health",
        headers: { "accept-encoding": "br" },
      });
      expect(small.headers["content-encoding"]).toBeUndefined();
      expect(small.json()).toEqual({ status: "ok" });
    } finally {
      await app.close();
    }
  });

  it("sends a kept answer compressed as each browser asks, the same answer every time", async () => {
    const owner = await buildUser(t.database);
    for (const index of [0, 1, 2]) {
      await buildPrism(t.database, {
        userId: owner.id,
        index,
        content: `<p>${"How I work, and what I ask of a team. ".repeat(20)}</p>`,
      });
    }
    const list = (acceptEncoding?: string) =>
      t.app.inject({
        method: "GET",
        url: `/api/prisms/${owner.username}`,
        headers: acceptEncoding ? { "accept-encoding": acceptEncoding } : {},
      });
    // The first read brings the list into memory, the second keeps its answer.
    await list();
    const plain = await list();
    expect(plain.statusCode).toBe(200);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    const hits = async () =>
      (await cacheHits.get()).values.find((value) => value.labels.cache === "answers")?.value ?? 0;
    const before = await hits();
    // The first of each encoding is compressed for the kept answer, the next sent as kept so.
    for (const [accepted, encoding, decode] of [
      ["gzip, deflate, br", "br", brotliDecompressSync],
      ["br", "br", brotliDecompressSync],
      ["gzip", "gzip", gunzipSync],
      ["x-gzip", "gzip", gunzipSync],
    ] as const) {
      const answer = await list(accepted);
      expect(answer.statusCode, accepted).toBe(200);
      expect(answer.headers["content-encoding"], accepted).toBe(encoding);
      expect(answer.headers.vary, accepted).toMatch(/accept-encoding/i);
      expect(answer.headers.etag, accepted).toBe(plain.headers.etag);
      expect(Number(answer.headers["content-length"])).toBe(answer.rawPayload.length);
      expect(decode(answer.rawPayload).toString(), accepted).toBe(plain.body);
    }
    expect(await hits()).toBe(before + 4);
    const identity = await list("identity");
    expect(identity.headers["content-encoding"]).toBeUndefined();
    expect(identity.body).toBe(plain.body);
  });

  it("compresses a kept read's first answer as the browser asks, and sends that to the next", async () => {
    const owner = await buildUser(t.database);
    await buildPrism(t.database, {
      userId: owner.id,
      content: `<p>${"What drains me, and what I need from a team. ".repeat(40)}</p>`,
    });
    const list = (headers: Record<string, string>) =>
      t.app.inject({ method: "GET", url: `/api/prisms/${owner.username}`, headers });
    // The first read, as a browser asks for it: the route writes the answer, which goes out
    // compressed and is kept with its compressed bytes.
    const first = await list({ "accept-encoding": "gzip, deflate, br" });
    expect(first.statusCode).toBe(200);
    expect(first.headers["content-encoding"]).toBe("br");
    expect(first.headers.vary).toMatch(/accept-encoding/i);
    expect(Number(first.headers["content-length"])).toBe(first.rawPayload.length);
    const text = brotliDecompressSync(first.rawPayload).toString();
    expect(JSON.parse(text)).toMatchObject([{ userId: owner.id }]);
    const next = await list({ "accept-encoding": "br" });
    expect(next.headers["content-encoding"]).toBe("br");
    expect(next.headers.etag).toBe(first.headers.etag);
    expect(next.rawPayload.equals(first.rawPayload)).toBe(true);
    // A client that asks for no compression gets the answer as written.
    const asWritten = await list({ "accept-encoding": "br", "x-no-compression": "1" });
    expect(asWritten.headers["content-encoding"]).toBeUndefined();
    expect(asWritten.body).toBe(text);
    // Unchanged, it is a 304 with no body, however it was asked for.
    const unchanged = await list({
      "accept-encoding": "br",
      "if-none-match": String(first.headers.etag),
    });
    expect(unchanged.statusCode).toBe(304);
    expect(unchanged.rawPayload.length).toBe(0);
  });

  it("runs in production mode unless told otherwise: no source maps, diagnostics for admins", async () => {
    expect(loadConfig({}).production).toBe(true);
    writeFileSync(join(scratch, "index.html"), "<!doctype html><title>Prism</title>");
    writeFileSync(join(scratch, "app.js.map"), "{}");
    const production = loadConfig({ APP_ORIGIN: TEST_ORIGIN, SEED: "none" });
    for (const [settings, mapStatus, checkStatus] of [
      [production, 404, 401],
      [config, 200, 200],
    ] as const) {
      const app = await buildApp({ config: settings, database: t.database, webRoot: scratch });
      try {
        const map = await app.inject({ method: "GET", url: "/app.js.map" });
        expect(map.statusCode).toBe(mapStatus);
        expect((await app.inject({ method: "GET", url: "/api/db-check" })).statusCode).toBe(
          checkStatus,
        );
      } finally {
        await app.close();
      }
    }
  });

  it("sends an API answer a policy that allows nothing, a page a same-origin one, and a request id", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/health" });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: "ok" });
    expect(response.headers["content-security-policy"]).toBe(
      "default-src 'none'; frame-ancestors 'none'",
    );
    expect(response.headers["x-request-id"]).toBeTruthy();
    // A page (the API docs are one) keeps the app's same-origin policy.
    const page = String(
      (await t.app.inject({ method: "GET", url: "/api/docs" })).headers["content-security-policy"],
    );
    expect(page).toContain("default-src 'self'");
    expect(page).toContain("script-src 'self'");
    expect(page).toContain("frame-ancestors 'none'");
  });

  it("stops at once although a client opened a connection and never sent a request", async () => {
    const app = await buildApp({ config, database: t.database });
    const address = new URL(await app.listen({ port: 0, host: "127.0.0.1" }));
    const silent = new Socket();
    await new Promise<void>((resolve) =>
      silent.connect(Number(address.port), "127.0.0.1", resolve),
    );
    const hungUp = new Promise<void>((resolve) => silent.once("close", () => resolve()));
    silent.on("error", () => {});
    // A browser's speculative connection: the server must not wait for its first request.
    await app.close();
    await hungUp;
    expect(silent.destroyed).toBe(true);
  });

  it("tells every visitor whether Google sign-in and outgoing mail are configured", async () => {
    const bare = await t.app.inject({ method: "GET", url: "/api/site" });
    expect(bare.statusCode).toBe(200);
    expect(bare.json()).toEqual({ googleSignIn: false, outgoingMail: false });
    // The same for everyone until the server restarts: browsers and proxies may keep it a while.
    expect(bare.headers["cache-control"]).toBe("public, max-age=300");
    expect(bare.headers["set-cookie"]).toBeUndefined();

    for (const [env, expected] of [
      [
        {
          GOOGLE_CLIENT_ID: "prism",
          GOOGLE_CLIENT_SECRET: "secret",
          SMTP_URL: "smtp://127.0.0.1:1",
        },
        { googleSignIn: true, outgoingMail: true },
      ],
      // A client id without its secret is no Google sign-in.
      [{ GOOGLE_CLIENT_ID: "prism" }, { googleSignIn: false, outgoingMail: false }],
    ] as const) {
      const settings = loadConfig({
        APP_ORIGIN: TEST_ORIGIN,
        SEED: "none",
        NODE_ENV: "test",
        ...env,
      });
      const app = await buildApp({ config: settings, database: t.database });
      try {
        const response = await app.inject({ method: "GET", url: "/api/site" });
        expect(response.statusCode).toBe(200);
        expect(response.json()).toEqual(expected);
      } finally {
        await app.close();
      }
    }
  });

  it("publishes the OpenAPI document generated from the route schemas", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/docs/json" });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining([
        "/api/register",
        "/api/login",
        "/api/logout",
        "/api/user",
        "/api/user/profile",
      ]),
    );
    expect(
      document.paths["/api/register"].post.requestBody.content["application/json"].schema.required,
    ).toEqual(expect.arrayContaining(["username", "email", "password"]));
  });
});

describe("the database", () => {
  it("keeps members across a restart of the embedded database", { timeout: 60_000 }, async () => {
    const url = `pglite:${join(scratch, "pglite")}`;
    const first = openDatabase(url);
    await first.migrate();
    const app = await buildApp({ config, database: first });
    const registered = await send(app, "POST", "/api/register", {
      payload: {
        username: "persistent",
        email: "p@example.com",
        firstName: "Per",
        lastName: "Sist",
        password: "secret-1",
      },
    });
    expect(registered.statusCode).toBe(201);
    await app.close();
    await first.close();

    const second = openDatabase(url);
    await second.migrate();
    const again = await buildApp({ config, database: second });
    const login = await send(again, "POST", "/api/login", {
      payload: { username: "persistent", password: "secret-1" },
    });
    expect(login.statusCode).toBe(200);
    await again.close();
    await second.close();
  });
});
