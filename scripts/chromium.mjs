// Finds the Chromium the browser tests drive: CHROMIUM_PATH, else Debian's, else Playwright's own.
import { existsSync } from "node:fs";

export function findChromium() {
  const candidates = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"];
  for (const path of candidates) if (path && existsSync(path)) return path;
  return undefined;
}
