// Prism's real app for the component tests, in its own Node process (a jsdom test file cannot
// host the server: Vite's browser transform and jsdom's globals break server code).
// `node --import tsx src/web/test/app-process.ts <app-origin>`: a fresh in-memory PGlite database,
// migrated; prints one JSON line `{"port": n}` once listening; stops when stdin closes.
import { buildApp } from "../../server/app.ts";
import { loadConfig } from "../../server/config.ts";
import { openDatabase } from "../../server/db/client.ts";

const [appOrigin = "http://localhost:3000"] = process.argv.slice(2);

const database = openDatabase("pglite:memory");
await database.migrate();
const config = loadConfig({ APP_ORIGIN: appOrigin, SEED: "none", NODE_ENV: "test" });
const app = await buildApp({ config, database });
await app.listen({ port: 0, host: "127.0.0.1" });

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  const force = setTimeout(() => process.exit(1), 5000);
  force.unref();
  await app.close().catch(() => {});
  await database.close().catch(() => {});
  process.exit(0);
}
process.stdin.on("end", () => void stop());
process.stdin.on("close", () => void stop());
process.stdin.resume();
process.on("SIGTERM", () => void stop());

const address = app.server.address();
const port = typeof address === "object" && address ? address.port : 0;
process.stdout.write(`${JSON.stringify({ port })}\n`);
