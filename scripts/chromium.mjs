// Finds the Chromium the browser tests drive (CHROMIUM_PATH, else Debian's, else Playwright's
// own), and the flags every headless run here gives it.
import { existsSync } from "node:fs";

export function findChromium() {
  const candidates = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"];
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
