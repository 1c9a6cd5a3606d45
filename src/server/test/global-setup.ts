// Makes the databases each test file starts from, once per run: a migrated PGlite's files, which
// each file's in-memory PGlite loads instead of making and migrating a cluster of its own (seconds
// per file), and which tests of the embedded database's folder load into one; with TEST_DB=postgres
// also a migrated template database that each file clones.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import type { TestProject } from "vitest/node";
import { migratedPgliteImage, openDatabase } from "../db/client.ts";
import { TEMPLATE_DB, testDatabaseUrl, withDatabase } from "./databases.ts";
import { PGLITE_IMAGE } from "./provided.ts";

export async function setup(project: TestProject) {
  const url = testDatabaseUrl();
  if (url) await makeTemplate(url);
  return makePgliteImage(project);
}

async function makeTemplate(url: string) {
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`drop database if exists ${TEMPLATE_DB} with (force)`);
    await admin.unsafe(`create database ${TEMPLATE_DB}`);
  } finally {
    await admin.end();
  }
  const template = openDatabase(withDatabase(url, TEMPLATE_DB));
  await template.migrate();
  await template.close();
  console.log(`integration tests run against PostgreSQL (${withDatabase(url, "…")})`);
}

/** The migrated PGlite's files in a temporary folder, provided to the project's test files. */
export async function makePgliteImage(project: TestProject) {
  const image = await migratedPgliteImage();
  const folder = await mkdtemp(join(tmpdir(), "prism-test-"));
  const path = join(folder, "migrated.tar");
  await writeFile(path, Buffer.from(await image.arrayBuffer()));
  project.provide(PGLITE_IMAGE, path);
  return () => rm(folder, { recursive: true, force: true });
}
