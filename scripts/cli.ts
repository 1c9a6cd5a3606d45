// Shared start of the data-task scripts: configuration, and the configured database migrated.
import { type Config, loadConfig } from "../src/server/config.ts";
import { type Database, openDatabase } from "../src/server/db/client.ts";

/** Runs a task with the configuration; a failure prints its message and sets exit code 1. */
export async function run(task: (config: Config) => Promise<void>) {
  try {
    // A task serves no one: the production server's demands (a set APP_SECRET with PostgreSQL)
    // are not its own, and would hide its own answer (backup pointing to pg_dump, say).
    await task(loadConfig({ NODE_ENV: "development", ...process.env }));
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  }
}

export function withDatabase(task: (database: Database) => Promise<void>) {
  return run(async (config) => {
    const database = openDatabase(config.databaseUrl);
    try {
      await database.migrate();
      await task(database);
    } finally {
      await database.close();
    }
  });
}
