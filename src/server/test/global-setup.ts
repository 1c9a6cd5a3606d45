// Makes the databases each test file starts from, once per run: a migrated PGlite's files, which
// each file's in-memory PGlite loads instead of making and migrating a cluster of its own (seconds
// per file), and which tests of the embedded database's folder load into one; with TEST_DB=postgres
// also a migrated template database that each file clones. And the web app the test apps serve.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import type { TestProject } from "vitest/node";
import { migratedPgliteImage, openDatabase } from "../db/client.ts";
import { TEMPLATE_DB, testDatabaseUrl, withDatabase } from "./databases.ts";
import { PGLITE_IMAGE, WEB_ROOT } from "./provided.ts";

export async function setup(project: TestProject) {
  const url = testDatabaseUrl();
  if (url) await makeTemplate(url);
  const removeImage = await makePgliteImage(project);
  const removeWebRoot = await makeWebRoot(project);
  return async () => {
    await removeImage();
    await removeWebRoot();
  };
}

/**
 * A stand-in for the built web app, its index.html, which the test apps serve as pages: a test's
 * outcome never depends on whether the web app was built in the checkout.
 */
async function makeWebRoot(project: TestProject) {
  const folder = await mkdtemp(join(tmpdir(), "prism-test-web-"));
  await writeFile(
    join(folder, "index.html"),
    '<!doctype html>\n<html lang="en"><head><meta charset="UTF-8" /></head><body><div id="root"></div></body></html>\n',
  );
  project.provide(WEB_ROOT, folder);
  return () => rm(folder, { recursive: true, force: true });
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
