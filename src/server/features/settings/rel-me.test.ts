// rel="me" verification of a member's website: a real page served on this machine, the real
// app saving and checking it, and the fetch's refusals and bounds.
import { once } from "node:events";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { users } from "../../db/schema.ts";
import {
  addressPolicy,
  FETCH_LIMITS,
  fetchPage,
  isPrivateAddress,
  RefusedFetch,
} from "../../security/outgoing-fetch.ts";
import { buildUser } from "../../test/builders.ts";
import { profileBody, send, setupTestApp, signIn, TEST_ORIGIN } from "../../test/helpers.ts";
import { linksBackTo, websiteLinksBack } from "./rel-me.ts";

const t = setupTestApp();

/** What the site answers at each path: a page, a redirect, or silence. */
type Answer = { html: string } | { redirect: string; cookie?: boolean } | "silence";
const site = new Map<string, Answer>();
const requests: { path: string; local: string; headers: IncomingHttpHeaders }[] = [];
let server: Server;
let port = 0;

beforeAll(async () => {
  server = createServer((request, response) => {
    const path = request.url ?? "/";
    requests.push({ path, local: request.socket.localAddress ?? "", headers: request.headers });
    const answer = site.get(path);
    if (answer === "silence") return;
    if (answer && "redirect" in answer) {
      if (answer.cookie) response.setHeader("set-cookie", "seen=1; Path=/");
      response.writeHead(302, { location: answer.redirect }).end();
      return;
    }
    response.writeHead(answer ? 200 : 404, { "content-type": "text/html" });
    response.end(answer?.html ?? "<p>Not here</p>");
  });
  // Every address of this machine, ::1 and all of 127/8 included: whatever is refused could reach it.
  server.listen(0, "::");
  await once(server, "listening");
  port = (server.address() as AddressInfo).port;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});
beforeEach(() => {
  site.clear();
  requests.length = 0;
});

const local = (path: string, host = "127.0.0.1") => `http://${host}:${port}${path}`;
const page = (body: string) => ({ html: `<!doctype html><html><body>${body}</body></html>` });
const production = { refuses: addressPolicy(true), userAgent: "Prism test" };

async function memberWithWebsite() {
  const user = await buildUser(t.database);
  const headers = await signIn(t.database, user);
  const save = (websiteUrl: string) =>
    send(t.app, "PUT", "/api/user/profile", {
      headers,
      payload: profileBody(user, { websiteUrl }),
    });
  const checkAgain = () => send(t.app, "POST", "/api/user/website/check", { headers });
  return { user, save, checkAgain };
}

describe("saving a website link", () => {
  it("verifies a page that links back with rel=me, tolerating a trailing slash and the host's case", async () => {
    const { user, save } = await memberWithWebsite();
    const href = `${TEST_ORIGIN.replace("localhost", "LocalHost")}/${user.username}/`;
    site.set("/home", page(`<a class="x" rel="author me" href="${href}">Prism</a>`));
    const saved = await save(local("/home"));
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({
      websiteVerified: true,
      websiteCheckedAt: expect.any(String),
    });
    const publicView = await send(t.app, "GET", `/api/users/${user.username}`);
    expect(publicView.json()).toMatchObject({ websiteVerified: true });
    expect(requests.map((r) => r.path)).toEqual(["/home"]);
  });

  it("accepts a <link rel=me> in the head, its href unquoted", async () => {
    const { user, save } = await memberWithWebsite();
    site.set("/head", {
      html: `<html><head><LINK REL=me HREF=${TEST_ORIGIN}/${user.username}></head></html>`,
    });
    expect((await save(local("/head"))).json()).toMatchObject({ websiteVerified: true });
  });

  it("does not verify a page without the link back, one to another member, or one without rel=me", async () => {
    const { user, save } = await memberWithWebsite();
    const other = await buildUser(t.database);
    site.set("/none", page("<p>Hello</p>"));
    site.set("/other", page(`<a rel="me" href="${TEST_ORIGIN}/${other.username}">them</a>`));
    site.set("/no-rel", page(`<a href="${TEST_ORIGIN}/${user.username}">me</a>`));
    site.set("/nofollow", page(`<a rel="nofollow" href="${TEST_ORIGIN}/${user.username}">me</a>`));
    site.set("/comment", page(`<!-- <a rel="me" href="${TEST_ORIGIN}/${user.username}"> -->`));
    for (const path of ["/none", "/other", "/no-rel", "/nofollow", "/comment", "/missing"]) {
      const saved = await save(local(path));
      expect(saved.json(), path).toMatchObject({
        websiteVerified: false,
        websiteCheckedAt: expect.any(String),
      });
    }
    expect(requests).toHaveLength(6);
  });

  it("checks again on demand, and forgets the result when the link is removed", async () => {
    const { user, save, checkAgain } = await memberWithWebsite();
    site.set("/later", page("<p>Soon</p>"));
    expect((await save(local("/later"))).json()).toMatchObject({ websiteVerified: false });
    site.set("/later", page(`<a rel="me" href="${TEST_ORIGIN}/${user.username}">Prism</a>`));
    const checked = await checkAgain();
    expect(checked.statusCode).toBe(200);
    expect(checked.json()).toMatchObject({ websiteVerified: true });
    const removed = await save("");
    expect(removed.json()).toMatchObject({ websiteVerified: false, websiteCheckedAt: null });
    const [row] = await t.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row).toMatchObject({ websiteUrl: null, websiteVerified: false });
    expect((await checkAgain()).statusCode).toBe(400);
  });

  it("saving the same link again does not fetch it again", async () => {
    const { user, save } = await memberWithWebsite();
    site.set("/same", page(`<a rel="me" href="${TEST_ORIGIN}/${user.username}">Prism</a>`));
    await save(local("/same"));
    expect((await save(local("/same"))).json()).toMatchObject({ websiteVerified: true });
    expect(requests).toHaveLength(1);
  });
});

describe("the outgoing fetch", () => {
  it("in production never connects to loopback, 10.x or ::1, nor follows a redirect there", async () => {
    site.set("/back", page("<p>Here</p>"));
    for (const address of [local("/back"), "http://10.1.2.3/back", `http://[::1]:${port}/back`]) {
      await expect(fetchPage(address, production), address).rejects.toBeInstanceOf(RefusedFetch);
    }
    const websiteCheck = { production: true, userAgent: "Prism test" };
    expect(await websiteLinksBack(local("/back"), `${TEST_ORIGIN}/x`, websiteCheck)).toBe(false);
    expect(requests).toHaveLength(0);

    // A redirect is checked like the first address: here only 127.0.0.1 is refused, and a page on
    // 127.0.0.2 (this machine too) sends there.
    site.set("/hop", { redirect: local("/back") });
    const refusesOne = { refuses: (address: string) => address === "127.0.0.1", userAgent: "x" };
    await expect(fetchPage(local("/hop", "127.0.0.2"), refusesOne)).rejects.toBeInstanceOf(
      RefusedFetch,
    );
    expect(requests.map((r) => [r.path, r.local])).toEqual([["/hop", "::ffff:127.0.0.2"]]);
  });

  it("knows private, loopback, link-local and unique-local addresses from public ones", () => {
    for (const address of [
      "127.0.0.1",
      "10.0.0.5",
      "172.16.3.4",
      "192.168.1.1",
      "169.254.169.254",
      "0.0.0.0",
      "::1",
      "::",
      "fd12:3456::1",
      "fe80::1",
      "::ffff:127.0.0.1",
      "::ffff:10.0.0.1",
    ]) {
      expect(isPrivateAddress(address), address).toBe(true);
    }
    for (const address of ["93.184.216.34", "1.1.1.1", "2606:4700::1111", "::ffff:1.1.1.1"]) {
      expect(isPrivateAddress(address), address).toBe(false);
    }
  });

  it("follows at most three redirects, sends no cookies and names Prism as its User-Agent", async () => {
    site.set("/r1", { redirect: "/r2", cookie: true });
    site.set("/r2", { redirect: "/r3", cookie: true });
    site.set("/r3", { redirect: "/end" });
    site.set("/end", page("<p>End</p>"));
    const options = { refuses: addressPolicy(false), userAgent: "Prism (rel-me test)" };
    const fetched = await fetchPage(local("/r1"), options);
    expect(fetched).toMatchObject({ url: local("/end"), status: 200 });
    expect(requests.map((r) => r.headers.cookie)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    expect(requests.every((r) => r.headers["user-agent"] === "Prism (rel-me test)")).toBe(true);

    site.set("/r0", { redirect: "/r1" });
    await expect(fetchPage(local("/r0"), options)).rejects.toThrow("too many redirects");
    site.set("/file", { redirect: "file:///etc/passwd" });
    await expect(fetchPage(local("/file"), options)).rejects.toBeInstanceOf(RefusedFetch);
  });

  it("reads at most 256 KiB: a link back after them is not seen", async () => {
    const { user, save } = await memberWithWebsite();
    const padding = `<p>${"x".repeat(FETCH_LIMITS.maxBytes)}</p>`;
    site.set(
      "/big",
      page(`${padding}<a rel="me" href="${TEST_ORIGIN}/${user.username}">Prism</a>`),
    );
    const fetched = await fetchPage(local("/big"), {
      refuses: addressPolicy(false),
      userAgent: "x",
    });
    expect(fetched.body.length).toBe(FETCH_LIMITS.maxBytes);
    expect((await save(local("/big"))).json()).toMatchObject({ websiteVerified: false });
  });

  it("gives up on a page that does not answer in time", async () => {
    expect(FETCH_LIMITS).toEqual({ redirects: 3, timeoutMs: 5000, maxBytes: 256 * 1024 });
    site.set("/silent", "silence");
    const options = { refuses: addressPolicy(false), userAgent: "x", timeoutMs: 200 };
    await expect(fetchPage(local("/silent"), options)).rejects.toThrow(/abort|time/i);
    expect(requests.map((r) => r.path)).toEqual(["/silent"]);
  });
});

describe("reading the page", () => {
  it("resolves relative hrefs and decodes character references", () => {
    const profile = "https://prism.example/ada";
    expect(linksBackTo('<a rel="me" href="/ada">', "https://prism.example/home", profile)).toBe(
      true,
    );
    expect(
      linksBackTo(
        `<a rel='me' href='https:&#x2F;&#x2F;prism.example/ada'>`,
        "https://x.example/",
        profile,
      ),
    ).toBe(true);
    expect(
      linksBackTo(
        '<a rel="me" href="https://prism.example/ada?x=1">',
        "https://x.example/",
        profile,
      ),
    ).toBe(false);
    expect(
      linksBackTo('<script>"<a rel=me href=/ada>"</script>', "https://prism.example/", profile),
    ).toBe(false);
    expect(
      linksBackTo('<a rel="me" href="http://prism.example/ada">', "https://x.example/", profile),
    ).toBe(false);
  });
});
