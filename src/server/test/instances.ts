// Other instances of Prism for tests: another OS process serving the same database, and the
// database's name to point it at.
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { spawnServer } from "./child-server.ts";
import { TEST_ORIGIN } from "./helpers.ts";

/** The name of the database a connection uses (PostgreSQL only). */
export async function databaseName(database: Database): Promise<string> {
  const result = (await database.db.execute(sql`select current_database() as name`)) as unknown;
  const rows = Array.isArray(result) ? result : (result as { rows: unknown[] }).rows;
  return (rows[0] as { name: string }).name;
}

/**
 * Starts Prism in another OS process on the given database, with `settings` added to its
 * environment (TRUST_PROXY, …); resolves once it listens.
 */
export async function spawnInstance(
  databaseUrl: string,
  settings: Record<string, string> = {},
): Promise<{ origin: string; stop(): Promise<void> }> {
  const script = fileURLToPath(new URL("./serve-app.ts", import.meta.url));
  const { port, stop } = await spawnServer(script, [
    databaseUrl,
    TEST_ORIGIN,
    JSON.stringify(settings),
  ]);
  return { origin: `http://127.0.0.1:${port}`, stop };
}
