// With TEST_DB=postgres, migrates a template database once; each test file clones it.
import postgres from "postgres";
import { openDatabase } from "../db/client.ts";
import { TEMPLATE_DB, testDatabaseUrl, withDatabase } from "./databases.ts";

export async function setup() {
  const url = testDatabaseUrl();
  if (!url) return;
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
