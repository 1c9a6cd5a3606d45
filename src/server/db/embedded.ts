// The embedded database (PGlite) as files: which folder holds it, a backup of it in one file, and
// that file restored into a folder.
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pgliteDataDir } from "./client.ts";

/** Why `npm run backup` and `restore` refuse PostgreSQL: its own tools do that job. */
export const USE_PG_DUMP =
  "DATABASE_URL names PostgreSQL: back it up with pg_dump and restore it with pg_restore " +
  "(npm run backup and npm run restore are for the embedded database)";

/**
 * The folder of the embedded database DATABASE_URL names (`./data/pglite` when unset); refuses
 * PostgreSQL with `onPostgres`, and an in-memory database, which has nothing on disk.
 */
export function embeddedDataDir(databaseUrl: string, onPostgres: string, task: string): string {
  if (!databaseUrl.startsWith("pglite:")) throw new Error(onPostgres);
  const dataDir = pgliteDataDir(databaseUrl);
  if (!dataDir) {
    throw new Error(
      `DATABASE_URL=pglite:memory keeps nothing on disk: there is nothing to ${task}`,
    );
  }
  return dataDir;
}

/** Refuses a folder that holds no embedded database, rather than making an empty one there. */
export function requireEmbeddedDatabase(dataDir: string) {
  if (!existsSync(join(dataDir, "PG_VERSION"))) {
    throw new Error(`No embedded database in ${dataDir} (DATABASE_URL=pglite:DIR names another)`);
  }
}

/** Writes the embedded database in `dataDir` into `file` (a gzipped tarball); returns its size. */
export async function backupEmbedded(dataDir: string, file: string): Promise<number> {
  requireEmbeddedDatabase(dataDir);
  if (existsSync(file)) throw new Error(`${file} exists already: choose another name`);
  const pglite = new PGlite(dataDir);
  try {
    // A dump asked for before the database is up never finishes.
    await pglite.waitReady;
    const dump = await pglite.dumpDataDir("gzip");
    await writeFile(file, Buffer.from(await dump.arrayBuffer()), { flag: "wx" });
    return dump.size;
  } finally {
    await pglite.close();
  }
}

/**
 * Loads a backup into `dataDir`. A folder that holds anything is replaced only when `force` says
 * so, and only once the backup has opened as a database, so a bad file costs nothing.
 */
export async function restoreEmbedded(file: string, dataDir: string, { force = false } = {}) {
  const image = new Blob([await readFile(file)]);
  const occupied = existsSync(dataDir) && (await readdir(dataDir)).length > 0;
  if (occupied && !force) {
    throw new Error(
      `${dataDir} is not empty: restoring would replace what it holds. Back it up first, then run the restore again with --force`,
    );
  }
  const staging = `${dataDir}.restoring`;
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true });
  try {
    await openOnce(staging, image);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw new Error(`${file} is not a backup of Prism's embedded database`, { cause: error });
  }
  const replaced = `${dataDir}.replaced`;
  await rm(replaced, { recursive: true, force: true });
  if (existsSync(dataDir)) await rename(dataDir, replaced);
  await rename(staging, dataDir);
  await rm(replaced, { recursive: true, force: true });
}

/** Loads `image` into `dataDir` and checks that it answers as a database. */
async function openOnce(dataDir: string, image: Blob) {
  const pglite = new PGlite(dataDir, { loadDataDir: image });
  try {
    await pglite.query("select 1");
  } catch (error) {
    // One that never started cannot close either: say why it did not start.
    await pglite.close().catch(() => {});
    throw error;
  }
  await pglite.close();
}
