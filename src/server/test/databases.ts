// Which database the integration suite runs on: PGlite in memory, or PostgreSQL (TEST_DB=postgres).
import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { inject } from "vitest";
import { type Database, openDatabase } from "../db/client.ts";
import { restoreEmbedded } from "../db/embedded.ts";
import { leasePglite } from "./pglite-pool.ts";
import { PGLITE_IMAGE } from "./provided.ts";

/** The migrated database each test file copies; TEST_TEMPLATE_DB lets two checkouts test side by side. */
export const TEMPLATE_DB = process.env.TEST_TEMPLATE_DB ?? "prism_test_template";

/** The PostgreSQL server to test against, when this run is the PostgreSQL one. */
export function testDatabaseUrl(): string | undefined {
  if (process.env.TEST_DB !== "postgres") return undefined;
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error("TEST_DB=postgres needs TEST_DATABASE_URL");
  return url;
}

export function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

/** A migrated embedded database kept on disk in `dataDir`, as `npm start` makes one. */
export async function createEmbeddedDatabase(dataDir: string): Promise<Database> {
  await restoreEmbedded(inject(PGLITE_IMAGE), dataDir);
  return openDatabase(`pglite:${dataDir}`);
}

/** A fresh, migrated database for one test file, and how to throw it away. */
export async function createTestDatabase(): Promise<{ database: Database; drop(): Promise<void> }> {
  const url = testDatabaseUrl();
  if (!url) {
    const database = openDatabase("pglite:memory", await leasePglite(inject(PGLITE_IMAGE)));
    return { database, drop: () => database.close() };
  }
  const name = `prism_test_${randomBytes(6).toString("hex")}`;
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name} template ${TEMPLATE_DB}`);
  const database = openDatabase(withDatabase(url, name));
  return {
    database,
    async drop() {
      await database.close();
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}
