// `npm start`: builds the web app and its server renderer when either is missing or older than
// their sources, then serves API and web app from this one process.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const stamp = join(root, "dist/web/index.html");
const sources = ["src/web", "src/contract", "vite.config.ts", "package-lock.json"];

function newest(path) {
  const full = join(root, path);
  if (!existsSync(full)) return 0;
  const stat = statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(full).map((name) => newest(join(path, name))));
}

const built = [stamp, join(root, "dist/server/server-render.js")];
if (
  built.some(
    (path) => !existsSync(path) || statSync(path).mtimeMs < Math.max(...sources.map(newest)),
  )
) {
  console.log("Building the web app and its server renderer…");
  for (const ssr of [[], ["--ssr", "app/server-render.tsx"]]) {
    execFileSync(
      process.execPath,
      [join(root, "node_modules/vite/bin/vite.js"), "build", ...ssr, "--logLevel", "warn"],
      {
        cwd: root,
        stdio: "inherit",
        // The server may run in test or development mode; the web app it serves is always the
        // production build (Vite would otherwise build React's development version, StrictMode's
        // double effects included).
        env: { ...process.env, NODE_ENV: "production" },
      },
    );
  }
}

const { register } = await import("tsx/esm/api");
register();
await import("../src/server/main.ts");
