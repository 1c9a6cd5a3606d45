// The end-to-end suite's server (Playwright's webServer): a fresh PostgreSQL database, then
// `npm start` on it. The server migrates the empty database as it starts.
import { e2eDatabaseUrl, recreateDatabase } from "./e2e-database.mjs";

const url = e2eDatabaseUrl();
try {
  await recreateDatabase(url);
} catch (error) {
  console.error(error.message);
  process.exit(1);
}
process.env.DATABASE_URL = url;
await import("./start.mjs");
