import { execFileSync } from "node:child_process";
import { defineConfig, devices } from "@playwright/test";
// @ts-expect-error: a plain ES module shared with the test runner script
import { CHROMIUM_FLAGS, findChromium } from "./scripts/chromium.mjs";
// @ts-expect-error: a plain ES module shared with the end-to-end server scripts
import { e2ePairDatabaseUrl } from "./scripts/e2e-database.mjs";

// The server under test listens on E2E_PORT, and the "pair" project's proxy on E2E_PAIR_PORT,
// else each on a port free when the run starts, so that a server an interrupted run left behind
// never stops the next. The workers inherit the choice.
const freePort = () =>
  execFileSync(process.execPath, [
    "-e",
    "const s = require('node:net').createServer().listen(0, '127.0.0.1', () => { process.stdout.write(String(s.address().port)); s.close(); })",
  ]).toString();
process.env.E2E_PORT ??= freePort();
process.env.E2E_PAIR_PORT ??= freePort();
const port = Number(process.env.E2E_PORT);
const origin = `http://localhost:${port}`;
const pairPort = Number(process.env.E2E_PAIR_PORT);
const pairOrigin = `http://localhost:${pairPort}`;
const executablePath: string | undefined = findChromium({ headlessShell: true });
const serverEnv = { HOST: "127.0.0.1", SEED: "none", LOG_LEVEL: "warn", NODE_ENV: "test" };

export default defineConfig<object, { databaseUrl: string }>({
  testDir: "tests/e2e",
  fullyParallel: true,
  workers: 2,
  retries: 0,
  forbidOnly: true,
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  timeout: 30_000,
  expect: { timeout: 7_000 },
  use: {
    baseURL: origin,
    // A failed story keeps its trace (actions, DOM snapshots, network); no screencast, whose frames
    // cost a share of the machine's CPU in every story that passes. In CI no trace is recorded:
    // the run's folder goes with it, and recording makes every story slower (the suite by 15 %).
    trace: process.env.CI ? "off" : { mode: "retain-on-failure", screenshots: false },
    launchOptions: {
      executablePath,
      args: CHROMIUM_FLAGS,
    },
  },
  projects: [
    { name: "chromium", use: { ...devices["Desktop Chrome"] } },
    // The stories of live updates (tagged @live) again, against two instances on one database
    // behind a round-robin proxy: each request, a page's event stream too, goes to the next. A
    // story has more time here: its requests pass through one more process, and its page's first
    // stream, when it reaches another instance than its render, refetches what the page shows.
    {
      name: "pair",
      grep: /@live/,
      timeout: 45_000,
      use: {
        ...devices["Desktop Chrome"],
        baseURL: pairOrigin,
        databaseUrl: e2ePairDatabaseUrl(),
      },
    },
  ],
  // Started in turn: the first builds the web app when it is missing or stale.
  webServer: [
    {
      // A fresh PostgreSQL database (E2E_DATABASE_URL, else prism_e2e beside TEST_DATABASE_URL or
      // on the machine's PostgreSQL), then `npm start` on it; the fixtures write members and
      // sessions into the same database.
      command: "node scripts/e2e-server.mjs",
      url: `${origin}/api/health`,
      reuseExistingServer: false,
      timeout: 180_000,
      stdout: "ignore",
      stderr: "pipe",
      // Readers a story sets up through the API come from addresses of their own
      // (`readerAddress` in the fixtures), as they would, rather than all spending this machine's.
      env: { ...serverEnv, PORT: String(port), APP_ORIGIN: origin, TRUST_PROXY: "127.0.0.1" },
    },
    {
      // Another fresh database beside it (`_pair` added to its name), two instances on it, and
      // the proxy in front of them on E2E_PAIR_PORT.
      command: "node --import tsx scripts/e2e-pair.ts",
      url: `${pairOrigin}/api/health`,
      reuseExistingServer: false,
      timeout: 180_000,
      stdout: "ignore",
      stderr: "pipe",
      env: { ...serverEnv, PORT: String(pairPort), APP_ORIGIN: pairOrigin },
    },
  ],
});
