// `npm test`: typecheck, lint, unit + integration tests (PGlite, and PostgreSQL when
// TEST_DATABASE_URL is set: the tests whose outcome can depend on the engine, in files named
// *.postgres.test.ts), then the end-to-end tests in Chromium on PostgreSQL.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { findChromium } from "./chromium.mjs";
import { checkPostgres } from "./e2e-database.mjs";

const steps = [
  ["typecheck", "npx", ["tsc", "--noEmit", "-p", "tsconfig.json"]],
  ["lint", "npx", ["biome", "check", "."]],
  ["unit + integration (PGlite)", "npx", ["vitest", "run"], {}],
];
if (process.env.TEST_DATABASE_URL) {
  steps.push([
    "integration (PostgreSQL)",
    "npx",
    ["vitest", "run", "--project", "server", ".postgres.test.ts"],
    { TEST_DB: "postgres" },
  ]);
} else {
  console.log(
    "TEST_DATABASE_URL is not set: the integration suite runs on PGlite only (and the move into PostgreSQL, npm run db:move, goes untested).",
  );
}
steps.push(["end-to-end (Chromium)", "npx", ["playwright", "test"], {}]);

const chromium = findChromium({ headlessShell: true });
if (!chromium) {
  console.error(
    "No Chromium found: install Debian's headless shell of Chromium (apt-get install chromium-headless-shell) or set CHROMIUM_PATH.",
  );
  process.exit(1);
}
// The end-to-end suite runs its server on PostgreSQL: say so now rather than after the rest.
try {
  await checkPostgres();
} catch (error) {
  console.error(error.message);
  process.exit(1);
}

for (const [name, command, args, env = {}] of steps) {
  console.log(`\n▶ ${name}`);
  const started = Date.now();
  const result = spawnSync(command, args, { stdio: "inherit", env: { ...process.env, ...env } });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (result.status !== 0) {
    if (command === "npx" && args[0] === "playwright") printFailedPages();
    console.error(`\n✖ ${name} failed after ${seconds} s`);
    process.exit(result.status ?? 1);
  }
  console.log(`✔ ${name} (${seconds} s)`);
}

/**
 * Each failed story's error and what its page showed then (Playwright's accessibility snapshot,
 * kept in test-results): a run whose folder goes with it, as CI's does, still says what the reader
 * saw.
 */
function printFailedPages() {
  if (!existsSync("test-results")) return;
  for (const story of readdirSync("test-results")) {
    const file = join("test-results", story, "error-context.md");
    if (!existsSync(file)) continue;
    const text = readFileSync(file, "utf8");
    const at = text.indexOf("# Error details");
    if (at < 0) continue;
    const lines = text.slice(at).split("\n# Test source")[0].split("\n");
    console.error(`\n── ${story}: the error, and the page when it failed`);
    console.error(lines.slice(0, 200).join("\n"));
    if (lines.length > 200) console.error(`… ${lines.length - 200} more lines in ${file}`);
  }
}
