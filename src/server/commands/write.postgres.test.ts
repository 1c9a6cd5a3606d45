// The one write path: a command's events are announced once its transaction has committed, and
// never when it fails; no route announces anything itself, nor writes but through one command.
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { users } from "../db/schema.ts";
import { buildUser } from "../test/builders.ts";
import { setupTestDatabase } from "../test/helpers.ts";
import { writeAs } from "../test/write.ts";
import { commit } from "./write.ts";

const t = setupTestDatabase();

describe("commit", () => {
  it("announces the recorded events once the transaction has committed", async () => {
    const member = await buildUser(t.database);
    const write = writeAs(t.database, member);
    await commit(write, async (tx, record) => {
      await tx.update(users).set({ displayName: "Ada" }).where(eq(users.id, member.id));
      record({ type: "profile.changed", username: member.username });
      expect(write.events).toEqual([]);
    });
    expect(write.events).toEqual([{ type: "profile.changed", username: member.username }]);
  });

  it("announces nothing when the transaction fails", async () => {
    const member = await buildUser(t.database);
    const write = writeAs(t.database, member);
    await expect(
      commit(write, async (_tx, record) => {
        record({ type: "profile.changed", username: member.username });
        throw new Error("refused");
      }),
    ).rejects.toThrow("refused");
    expect(write.events).toEqual([]);
  });
});

const ROUTE = /\bapp\.(get|head|post|put|patch|delete)\(/;

/** Every file of the features that registers routes, by its path under features/. */
async function routeFiles(): Promise<Map<string, string>> {
  const features = join(import.meta.dirname, "..", "features");
  const files = new Map<string, string>();
  for (const path of await readdir(features, { recursive: true })) {
    if (!path.endsWith(".ts") || path.endsWith(".test.ts")) continue;
    const text = await readFile(join(features, path), "utf8");
    if (ROUTE.test(text)) files.set(path, text);
  }
  return files;
}

/** What a route file imports (not its types), by the module it comes from: exported and local names. */
function importsOf(text: string) {
  const imports: { module: string; name: string; local: string }[] = [];
  for (const [, names = "", module = ""] of text.matchAll(
    /^import \{([^}]*)\} from "([^"]+)";/gm,
  )) {
    for (const item of names.split(",").map((part) => part.trim())) {
      if (item === "" || item.startsWith("type ")) continue;
      const [name = "", local = name] = item.split(/\s+as\s+/);
      imports.push({ module, name, local });
    }
  }
  return imports;
}

/** Modules whose every export a route may use: none of them writes but a command. */
const HTTP_SIDE =
  /contract\/|commands\/|plugins\/|cache\/|http-error\.ts$|presenter\.ts$|reads\.ts$/;

/**
 * What else routes may call: reads, checks and HTTP helpers, none of which writes. A route that
 * needs another names it here, and a write is a command instead.
 */
const READS = new Set([
  // annotations
  "getAnnotation",
  "responseByStatusToken",
  "reviewQueue",
  // auth: who signs in, the member of a session; Google's answers
  "findUserByUsername",
  "verifyCredentials",
  "resolveSession",
  "GoogleRefusal",
  "googleClaimsSchema",
  // cards
  "prepareRenderer",
  // catalyst
  "listAnnotations",
  "listAudit",
  "listContactMessages",
  "listReports",
  "listPrisms",
  "listTeams",
  "listUsers",
  "loadActivity",
  "loadFederation",
  "loadStats",
  // diagnostics: a ping, and a fresh connection (no data is touched)
  "isDatabaseUnavailable",
  "checkDatabase",
  "resetConnection",
  // events
  "hashToken",
  "FanOut",
  // export
  "memberExport",
  // feeds: which page an oEmbed consumer's address names, and the answer that frames it
  "embeddedByUrl",
  "oembedAnswer",
  // notifications
  "listNotifications",
  // password reset: the account a login names
  "findActiveUserByLogin",
  // person check: a challenge, signed and kept nowhere
  "issueChallenge",
  // photos: the bytes at an address, which browsers keep for a year (no cache of ours)
  "readPhoto",
  // prisms
  "getRevision",
  "listRevisions",
  // resonance
  "prismResonance",
  "thisWeek",
  "isAutomated",
  // seo
  "buildSitemap",
  "robotsTxt",
  // settings: asking the member who they are again
  "createReauth",
  // teams: a member's teams, one as its members see it, and its open invite links
  "listMyTeams",
  "openInvites",
  "teamAsSeenBy",
  // federation: a member who federates (or whose actor went), their followers, an actor's identifier
  "federatedMemberNamed",
  "goneActorNamed",
  "followersOfMember",
  "identifierOf",
  // federation: whether an inbox takes a domain's activity now (its policy, its budget)
  "admitActivity",
]);

/** Write routes that change no data, so call no command. */
const CHANGING_NOTHING = new Set(["POST /db-check/reset"]);

/**
 * Write routes whose requests a framework hands to listeners of their own, each of which calls
 * one command: Fedify's inboxes, whose activities `features/federation/inbox.ts` handles.
 */
const LISTENED = new Map([["POST /ap/*", "features/federation/inbox.ts"]]);

/**
 * Each route a file registers: its method, its path (as written) and its text, up to the next
 * route or the end of the plugin that registers it.
 */
function routesOf(text: string) {
  const starts = [...text.matchAll(new RegExp(ROUTE, "g"))];
  return starts.map((start, i) => {
    const from = start.index;
    const next = starts[i + 1]?.index ?? text.length;
    const pluginEnd = text.slice(from).search(/\n(?=\S)/);
    const body = text.slice(from, pluginEnd < 0 ? next : Math.min(next, from + pluginEnd));
    const path = /^app\.\w+\(\s*("[^"]*"|[\w.]+)/.exec(body)?.[1]?.replaceAll('"', "") ?? "";
    return { method: (start[1] ?? "").toUpperCase(), path, body };
  });
}

describe("routes", () => {
  it("never publish or build an event: their commands do", async () => {
    for (const [path, text] of await routeFiles()) {
      expect(text, path).not.toMatch(/\bbus\b|\.publish\(|\.announced\(|contract\/events/);
    }
  });

  it("call nothing that writes but commands: of services, only reads", async () => {
    for (const [path, text] of await routeFiles()) {
      const others = importsOf(text).filter(
        ({ module }) => module.startsWith(".") && !HTTP_SIDE.test(module),
      );
      const writing = others.filter(({ name }) => !READS.has(name));
      expect(
        writing.map(({ module, name }) => `${name} from ${module}`),
        path,
      ).toEqual([]);
    }
  });

  it("call one command each to change data, and a GET at most one", async () => {
    const checked: string[] = [];
    for (const [path, text] of await routeFiles()) {
      const commands = importsOf(text)
        .filter(({ module, name }) => module.includes("commands/") && name !== "writer")
        .map(({ local }) => local);
      for (const route of routesOf(text)) {
        const calls = commands.flatMap(
          (name) => route.body.match(new RegExp(`\\b${name}\\(`, "g")) ?? [],
        );
        const name = `${route.method} ${route.path}`;
        checked.push(name);
        const described = `${path}: ${name} calls ${calls.join(", ") || "no command"}`;
        const listeners = LISTENED.get(name);
        if (listeners) {
          const text = await readFile(join(import.meta.dirname, "..", listeners), "utf8");
          expect(calls, described).toHaveLength(0);
          expect(text, listeners).toMatch(/from "\.\.\/\.\.\/commands\//);
        } else if (
          route.method === "GET" ||
          route.method === "HEAD" ||
          CHANGING_NOTHING.has(name)
        ) {
          // A read may write through one command (a download's audit line, a Google sign-in).
          expect(calls.length, described).toBeLessThanOrEqual(1);
        } else {
          expect(calls, described).toHaveLength(1);
        }
      }
    }
    expect(checked).toEqual(
      expect.arrayContaining(["POST /contact", "PUT /user/profile", "DELETE /prisms/:id"]),
    );
  });
});
