import { execFileSync } from "node:child_process";
import { defineConfig, devices } from "@playwright/test";
// @ts-expect-error: a plain ES module shared with the test runner script
import { CHROMIUM_FLAGS, findChromium } from "./scripts/chromium.mjs";

// The server under test listens on E2E_PORT, else on a port free when the run starts, so that a
// server an interrupted run left behind never stops the next. The workers inherit the choice.
process.env.E2E_PORT ??= execFileSync(process.execPath, [
  "-e",
  "const s = require('node:net').createServer().listen(0, '127.0.0.1', () => { process.stdout.write(String(s.address().port)); s.close(); })",
]).toString();
const port = Number(process.env.E2E_PORT);
const origin = `http://localhost:${port}`;
const executablePath: string | undefined = findChromium();

export default defineConfig({
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
    // cost a share of the machine's CPU in every story that passes.
    trace: { mode: "retain-on-failure", screenshots: false },
    launchOptions: {
      executablePath,
      args: CHROMIUM_FLAGS,
    },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"] } }],
  webServer: {
    // A fresh PostgreSQL database (E2E_DATABASE_URL, else prism_e2e beside TEST_DATABASE_URL or on
    // the machine's PostgreSQL), then `npm start` on it; the fixtures write members and sessions
    // into the same database.
    command: "node scripts/e2e-server.mjs",
    url: `${origin}/api/health`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      PORT: String(port),
      HOST: "127.0.0.1",
      APP_ORIGIN: origin,
      SEED: "none",
      LOG_LEVEL: "warn",
      NODE_ENV: "test",
    },
  },
});
