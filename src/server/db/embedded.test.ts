import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config.ts";
import { buildAnnotation, buildHeart, buildPrism, buildUser } from "../test/builders.ts";
import { createEmbeddedDatabase } from "../test/databases.ts";
import { everyRow, type TableRows } from "../test/every-row.ts";
import { openDatabase } from "./client.ts";
import { backupEmbedded, embeddedDataDir, restoreEmbedded, USE_PG_DUMP } from "./embedded.ts";

let folder: string;
let dataDir: string;
let backup: string;
let rowsBefore: Record<string, TableRows>;

/** Every row of the embedded database in `dir`. */
async function everyRowIn(dir: string) {
  const database = openDatabase(`pglite:${dir}`);
  try {
    return await everyRow(database);
  } finally {
    await database.close();
  }
}

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "prism-backup-"));
  dataDir = join(folder, "pglite");
  backup = join(folder, "prism.tar.gz");
  const database = await createEmbeddedDatabase(dataDir);
  try {
    const owner = await buildUser(database);
    const prism = await buildPrism(database, { userId: owner.id });
    await buildHeart(database, { prismId: prism.id });
    await buildAnnotation(database, { prismId: prism.id });
    rowsBefore = await everyRow(database);
  } finally {
    await database.close();
  }
  await backupEmbedded(dataDir, backup);
}, 300_000);

afterAll(() => rm(folder, { recursive: true, force: true }));

describe("npm run backup and npm run restore", () => {
  it("restore a backup into a fresh folder with the same rows", { timeout: 300_000 }, async () => {
    expect(rowsBefore.users?.rows).toBe(1);
    expect(rowsBefore.annotations?.rows).toBe(1);
    const fresh = join(folder, "fresh", "pglite");
    await restoreEmbedded(backup, fresh);
    expect(await everyRowIn(fresh)).toEqual(rowsBefore);
    expect(existsSync(`${fresh}.restoring`)).toBe(false);

    await expect(backupEmbedded(dataDir, backup)).rejects.toThrow(
      `${backup} exists already: choose another name`,
    );
    await expect(
      backupEmbedded(join(folder, "nothing"), join(folder, "other.tar.gz")),
    ).rejects.toThrow(`No embedded database in ${join(folder, "nothing")}`);
  });

  it("refuse to restore over a folder that holds anything, unless told --force", {
    timeout: 300_000,
  }, async () => {
    const occupied = join(folder, "occupied");
    await mkdir(occupied);
    await writeFile(join(occupied, "notes.txt"), "mine");
    await expect(restoreEmbedded(backup, occupied)).rejects.toThrow(
      `${occupied} is not empty: restoring would replace what it holds. Back it up first, then run the restore again with --force`,
    );
    expect(await readdir(occupied)).toEqual(["notes.txt"]);

    await expect(
      restoreEmbedded(join(occupied, "notes.txt"), occupied, { force: true }),
    ).rejects.toThrow(
      `${join(occupied, "notes.txt")} is not a backup of Prism's embedded database`,
    );
    expect(await readdir(occupied)).toEqual(["notes.txt"]);

    await restoreEmbedded(backup, occupied, { force: true });
    expect(await readdir(occupied)).toContain("PG_VERSION");
    expect(await readdir(occupied)).not.toContain("notes.txt");
    expect(await everyRowIn(occupied)).toEqual(rowsBefore);
  });

  it("point to pg_dump and pg_restore on PostgreSQL, and refuse a database kept in memory", () => {
    expect(() =>
      embeddedDataDir("postgres://postgres@127.0.0.1:5432/prism", USE_PG_DUMP, "back up"),
    ).toThrow(
      "DATABASE_URL names PostgreSQL: back it up with pg_dump and restore it with pg_restore (npm run backup and npm run restore are for the embedded database)",
    );
    expect(() => embeddedDataDir("pglite:memory", USE_PG_DUMP, "back up")).toThrow(
      "DATABASE_URL=pglite:memory keeps nothing on disk: there is nothing to back up",
    );
    expect(embeddedDataDir("pglite:/srv/prism/pglite", USE_PG_DUMP, "back up")).toBe(
      "/srv/prism/pglite",
    );
    expect(embeddedDataDir(loadConfig({}).databaseUrl, USE_PG_DUMP, "back up")).toBe(
      "./data/pglite",
    );
  });
});
