// Serves Prism in its own OS process, for tests that need a second instance on their database:
// `node --import tsx src/server/test/serve-app.ts <database-url> <app-origin> [settings]`
// (settings: a JSON object of further environment variables, such as TRUST_PROXY). Prints one
// JSON line `{"port": n}` once listening; stops when stdin closes (the test, or the test runner,
// went away) or on SIGTERM.
import { buildApp } from "../app.ts";
import { loadConfig } from "../config.ts";
import { openDatabase } from "../db/client.ts";
import { serveUntilStopped } from "./child-server.ts";

const [databaseUrl, appOrigin, settings = "{}"] = process.argv.slice(2);
if (!databaseUrl || !appOrigin) {
  console.error("usage: serve-app.ts <database-url> <app-origin> [settings]");
  process.exit(2);
}

const database = openDatabase(databaseUrl);
await database.migrate();
const config = loadConfig({
  APP_ORIGIN: appOrigin,
  SEED: "none",
  NODE_ENV: "test",
  ...(JSON.parse(settings) as Record<string, string>),
});
const app = await buildApp({ config, database });
await app.listen({ port: 0, host: "127.0.0.1" });

const address = app.server.address();
serveUntilStopped(typeof address === "object" && address ? address.port : 0, async () => {
  await app.close().catch(() => {});
  await database.close();
});
