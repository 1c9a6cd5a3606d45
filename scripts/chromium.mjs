// Finds the Chromium a headless run here drives (CHROMIUM_PATH, else Debian's), and the flags
// every one gives it.
import { existsSync } from "node:fs";

/**
 * Debian's build of Chromium's headless shell: the engine of the desktop browser, of the same
 * version, without the browser around it. It is what Playwright itself runs for headless stories,
 * and they take about a third less CPU in it than in the desktop browser.
 */
const HEADLESS_SHELL = "/usr/bin/chromium-headless-shell";

/**
 * CHROMIUM_PATH, else Debian's Chromium; with `headlessShell`, its headless shell first (the
 * stories), else the desktop browser first (Lighthouse, which audits a page as a browser loads it).
 */
export function findChromium({ headlessShell = false } = {}) {
  const desktop = ["/usr/bin/chromium", "/usr/bin/chromium-browser"];
  const candidates = [
    process.env.CHROMIUM_PATH,
    ...(headlessShell ? [HEADLESS_SHELL, ...desktop] : [...desktop, HEADLESS_SHELL]),
  ];
  for (const path of candidates) if (path && existsSync(path)) return path;
  return undefined;
}

/** Headless, sandbox-free (containers), and quiet: nothing reaches out to the network by itself. */
export const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
