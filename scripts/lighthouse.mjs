// `npm run lighthouse`: page speed as a phone visitor sees it. Starts Prism (production mode, an
// in-memory database with the demo data), runs Lighthouse's mobile audit in the system Chromium on
// the landing page, a demo member's page and Explore, `LIGHTHOUSE_RUNS` times each (default 3),
// prints each page's median run (by performance) with every run's performance score, and fails
// when a page's median performance is under 90 or no run could measure it (a run Lighthouse could
// not finish is reported and left out). One run varies by ten points on a busy machine.
import { spawn } from "node:child_process";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { CHROMIUM_FLAGS, findChromium } from "./chromium.mjs";

const PORT = Number(process.env.LIGHTHOUSE_PORT ?? 4390);
const ORIGIN = `http://localhost:${PORT}`;
const PAGES = ["/", "/maya-okafor", "/explore"];
const MIN_PERFORMANCE = 90;
const RUNS = Number(process.env.LIGHTHOUSE_RUNS || 3);
if (!Number.isInteger(RUNS) || RUNS < 1 || RUNS > 15) {
  console.error(`Invalid LIGHTHOUSE_RUNS: ${process.env.LIGHTHOUSE_RUNS} (1 to 15)`);
  process.exit(1);
}

const chromePath = findChromium();
if (!chromePath) {
  console.error("No Chromium found: install Debian's chromium or set CHROMIUM_PATH.");
  process.exit(1);
}

const server = spawn(process.execPath, ["scripts/start.mjs"], {
  stdio: ["ignore", "ignore", "inherit"],
  env: {
    ...process.env,
    PORT: String(PORT),
    HOST: "127.0.0.1",
    APP_ORIGIN: ORIGIN,
    DATABASE_URL: "pglite:memory",
    SEED: "demo",
    NODE_ENV: "production",
    LOG_LEVEL: "warn",
  },
});

async function serverReady() {
  for (let attempt = 0; attempt < 240; attempt++) {
    if (server.exitCode !== null) throw new Error("Prism stopped before it answered");
    try {
      if ((await fetch(`${ORIGIN}/api/health`)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error("Prism did not answer within two minutes");
}

const round = (value, digits = 0) => Number(value.toFixed(digits));
let chrome;
let failed = false;
try {
  await serverReady();
  chrome = await chromeLauncher.launch({
    chromePath,
    chromeFlags: CHROMIUM_FLAGS,
  });
  /** One Lighthouse run of `page`: its scores and measures, or why it could not measure. */
  const runLighthouse = async (page) => {
    const { lhr } = await lighthouse(`${ORIGIN}${page}`, {
      port: chrome.port,
      output: "json",
      logLevel: "error",
      onlyCategories: ["performance", "accessibility", "best-practices", "seo"],
    });
    if (lhr.runtimeError)
      return { page, error: `${lhr.runtimeError.code}: ${lhr.runtimeError.message}` };
    const score = (id) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
    const audit = (id) => lhr.audits[id]?.numericValue ?? 0;
    const scripts = (lhr.audits["network-requests"]?.details?.items ?? []).filter(
      (item) => item.resourceType === "Script",
    );
    return {
      page,
      performance: score("performance"),
      accessibility: score("accessibility"),
      "best practices": score("best-practices"),
      seo: score("seo"),
      "LCP s": round(audit("largest-contentful-paint") / 1000, 2),
      CLS: round(audit("cumulative-layout-shift"), 3),
      "TBT ms": round(audit("total-blocking-time")),
      "JS KB sent": round(scripts.reduce((sum, item) => sum + (item.transferSize ?? 0), 0) / 1024),
    };
  };
  const rows = [];
  for (const page of PAGES) {
    const runs = [];
    const errors = [];
    for (let run = 0; run < RUNS; run++) {
      const result = await runLighthouse(page);
      if (result.error) errors.push(result.error);
      else runs.push(result);
    }
    // A run Lighthouse could not finish has no score: it is reported, and left out of the median.
    for (const error of errors)
      console.error(`${page}: a run could not measure the page: ${error}`);
    if (runs.length === 0) {
      failed = true;
      continue;
    }
    runs.sort((a, b) => a.performance - b.performance);
    const median = runs[Math.floor(runs.length / 2)];
    const scores = runs.map((each) => each.performance).join(" ");
    rows.push({ ...median, runs: errors.length ? `${scores} (${errors.length} failed)` : scores });
    if (median.performance < MIN_PERFORMANCE) failed = true;
  }
  console.table(rows);
  if (failed) {
    console.error(
      `A page's median run scored under ${MIN_PERFORMANCE} for performance, or no run measured it.`,
    );
  }
} catch (error) {
  console.error(error);
  failed = true;
} finally {
  await chrome?.kill();
  server.kill("SIGTERM");
}
process.exit(failed ? 1 : 0);
