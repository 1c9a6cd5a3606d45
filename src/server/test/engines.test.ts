// `npm test` runs the server's tests on PGlite, and again on PostgreSQL only the files named
// *.postgres.test.ts (those whose outcome can depend on the engine). A test that runs on
// PostgreSQL alone (it asks testDatabaseUrl() or TEST_DB) in any other file would run nowhere.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const root = fileURLToPath(new URL("../../..", import.meta.url));

function* testFiles(folder: string): Generator<string> {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) yield* testFiles(path);
    else if (/\.test\.tsx?$/.test(entry.name)) yield path;
  }
}

it("keeps every test that asks for PostgreSQL in a file the PostgreSQL run takes", () => {
  const askers = ["src", "tests", "scripts"]
    .flatMap((folder) => [...testFiles(join(root, folder))])
    .filter((path) => path !== fileURLToPath(import.meta.url))
    .filter((path) => /testDatabaseUrl\(|TEST_DB\b/.test(readFileSync(path, "utf8")))
    .map((path) => relative(root, path));
  expect(askers.length).toBeGreaterThan(0);
  expect(askers.filter((path) => !path.endsWith(".postgres.test.ts"))).toEqual([]);
});
