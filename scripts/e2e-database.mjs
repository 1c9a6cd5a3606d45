// The end-to-end suite's database: PostgreSQL, so that the tests' own process can write members
// and sessions into the database the server under test reads. E2E_DATABASE_URL when set, else a
// database named prism_e2e on the server of TEST_DATABASE_URL, else on the machine's PostgreSQL.
// The "pair" project's two instances share one of their own beside it, named with `_pair` added.
// `node scripts/e2e-database.mjs check` tells in one line whether that server answers.
import { fileURLToPath } from "node:url";
import postgres from "postgres";

export const E2E_DATABASE = "prism_e2e";
const MACHINE_SERVER = "postgres://postgres@127.0.0.1:5432/postgres";

export function e2eDatabaseUrl(env = process.env) {
  if (env.E2E_DATABASE_URL) return env.E2E_DATABASE_URL;
  const url = new URL(env.TEST_DATABASE_URL || MACHINE_SERVER);
  url.pathname = `/${E2E_DATABASE}`;
  return url.toString();
}

/** The database of the "pair" project's two instances, on the same server. */
export function e2ePairDatabaseUrl(env = process.env) {
  const url = new URL(e2eDatabaseUrl(env));
  url.pathname = `${url.pathname}_pair`;
  return url.toString();
}

/** The URL without its password, for messages. */
export function shown(url) {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = "***";
  return parsed.toString();
}

/** The same server's maintenance database, from which the e2e database is dropped and created. */
function maintenanceUrl(url) {
  const parsed = new URL(url);
  parsed.pathname = "/postgres";
  return parsed.toString();
}

function databaseName(url) {
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  if (!name) throw new Error(`no database name in ${shown(url)}`);
  return name;
}

function hint(url, error) {
  return (
    `The end-to-end suite needs PostgreSQL, and none answers at ${shown(maintenanceUrl(url))} ` +
    `(${error.message ?? error}): start it, or set E2E_DATABASE_URL to a PostgreSQL database ` +
    "the suite may drop and recreate, e.g. E2E_DATABASE_URL=postgres://postgres@127.0.0.1:5432/prism_e2e"
  );
}

async function withServer(url, work) {
  const sql = postgres(maintenanceUrl(url), {
    max: 1,
    connect_timeout: 3,
    onnotice: () => {},
  });
  try {
    return await work(sql);
  } finally {
    await sql.end({ timeout: 1 }).catch(() => {});
  }
}

/** Throws an Error whose message is the one-line hint when no PostgreSQL answers. */
export async function checkPostgres(url = e2eDatabaseUrl()) {
  try {
    await withServer(url, (sql) => sql`select 1`);
  } catch (error) {
    throw new Error(hint(url, error));
  }
}

/** Drops the e2e database (closing its connections) and creates it empty. */
export async function recreateDatabase(url = e2eDatabaseUrl()) {
  await checkPostgres(url);
  const name = databaseName(url);
  await withServer(url, async (sql) => {
    await sql.unsafe(`drop database if exists ${quote(name)} with (force)`);
    await sql.unsafe(`create database ${quote(name)}`);
  });
}

function quote(identifier) {
  return `"${identifier.replaceAll('"', '""')}"`;
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === "check") {
  try {
    await checkPostgres();
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}
