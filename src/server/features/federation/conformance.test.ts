// A member's actor, as the independent conformance CLI `activitypub-testing` (socialweb.coop)
// reads it: Prism served on a real port, the CLI run in a process of its own against the actor's
// URI, every assertion it reports passed or inapplicable, none failed. The CLI asks for Node 20
// and brings heavy dependencies of its own, so it is not one of Prism's: it lives in
// .tools/activitypub-testing (CI's .ci/run installs it there), and without it this test fails
// naming the command that installs it.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../../app.ts";
import type { UserRow } from "../../db/schema.ts";
import { buildPrism, buildUser } from "../../test/builders.ts";
import { servePrism } from "../../test/fediverse.ts";
import { setupTestDatabase } from "../../test/helpers.ts";

const VERSION = "0.16.1";
const PREFIX = fileURLToPath(new URL("../../../../.tools/activitypub-testing", import.meta.url));
const CLI = `${PREFIX}/node_modules/activitypub-testing/src/cli.js`;
const INSTALL = `npm install --prefix .tools/activitypub-testing activitypub-testing@${VERSION}`;

const t = setupTestDatabase();
let prism: { app: App; origin: string };
let ada: UserRow;

beforeAll(async () => {
  prism = await servePrism(t.database);
  ada = await buildUser(t.database, { username: "ada-conformance", federated: true });
  await buildPrism(t.database, { userId: ada.id, title: "How I work" });
});
afterAll(async () => {
  await prism?.app.close();
});

interface Assertion {
  type: string[];
  result: { outcome: string; pointer?: unknown };
  test: { slug: string };
}

/** The CLI's assertions about `actor`: a JSON text sequence (RFC 7464) on its standard output. */
function runCli(actor: string): Promise<Assertion[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, "test", "actor", actor, "--output=json-seq"], {
      cwd: PREFIX,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.once("error", reject);
    child.once("close", (code) => {
      if (code !== 0) return reject(new Error(`activitypub-testing exited ${code}: ${err}`));
      const records = out.split("\u001e").filter((record) => record.trim().length > 0);
      resolve(records.map((record) => JSON.parse(record) as Assertion));
    });
  });
}

describe("a member's actor, as activitypub-testing tests it", () => {
  it("reports no failure", { timeout: 60_000 }, async () => {
    expect(existsSync(CLI), `activitypub-testing is missing: run \`${INSTALL}\``).toBe(true);
    const assertions = await runCli(`${prism.origin}/ap/actors/${ada.id}`);
    console.log(assertions.map((each) => `${each.test.slug}: ${each.result.outcome}`).join("\n"));
    expect(assertions.length).toBeGreaterThan(5);
    expect(assertions.filter((each) => each.result.outcome === "failed")).toEqual([]);
  });
});
