// Shared start of the data-task scripts: configuration and a migrated database.
import { loadConfig } from "../src/server/config.ts";
import { type Database, openDatabase } from "../src/server/db/client.ts";

export async function withDatabase(task: (database: Database) => Promise<void>) {
  let database: Database | undefined;
  try {
    const config = loadConfig();
    database = openDatabase(config.databaseUrl);
    await database.migrate();
    await task(database);
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  } finally {
    await database?.close();
  }
}
