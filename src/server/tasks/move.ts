// Leaving the embedded default: Prism's data copied from its embedded database (PGlite) into an
// empty PostgreSQL, in one transaction there, so that a move that stops partway leaves no rows.
import { is, sql } from "drizzle-orm";
import { getTableConfig, PgTable } from "drizzle-orm/pg-core";
import type { Config } from "../config.ts";
import { type Database, type Executor, openDatabase, rowsOf } from "../db/client.ts";
import { embeddedDataDir, requireEmbeddedDatabase } from "../db/embedded.ts";
import * as schema from "../db/schema.ts";
import { resolveAppSecret } from "../secret.ts";

export interface MovedTable {
  table: string;
  rows: number;
}

export interface MoveOptions {
  /** Rows read and written at a time: a prism alone may hold 50 KB. */
  batchRows?: number;
  onMigrated?: () => void;
  /** After each table, once its rows are counted alike on both sides. */
  onTable?: (moved: MovedTable) => void;
}

/** Prism's tables, each after every table its foreign keys point to. */
/**
 * Tables whose rows are not worth moving: the rate limits' counters and the spent proofs of work,
 * which run out in minutes, and the day's view keys, addresses' view counts and salt (the new database makes its own; a
 * visitor seen today may then count once more today), and what Fedify keeps in its key-value store
 * (documents and keys it fetched, which it fetches again).
 */
const transient: PgTable[] = [
  schema.rateLimits,
  schema.spentProofs,
  schema.prismViewKeys,
  schema.prismViewAddresses,
  schema.viewSalts,
  schema.federationKv,
];

export function tablesInMoveOrder(): PgTable[] {
  const ordered: PgTable[] = [];
  const visit = (table: PgTable, path: PgTable[]) => {
    if (ordered.includes(table)) return;
    if (path.includes(table)) {
      throw new Error(`Foreign keys go round in a circle at ${getTableConfig(table).name}`);
    }
    for (const key of getTableConfig(table).foreignKeys) {
      visit(key.reference().foreignTable, [...path, table]);
    }
    ordered.push(table);
  };
  for (const value of Object.values(schema)) {
    if (is(value, PgTable) && !transient.includes(value)) visit(value, []);
  }
  return ordered;
}

/**
 * Copies the embedded database that `config` names into the empty PostgreSQL at `targetUrl`:
 * both migrated first, then every table in batches, its row count checked and its id sequence
 * carried on. Returns what was moved and the key the data's visitor hashes were made with.
 */
export async function moveToPostgres(config: Config, targetUrl: string, options: MoveOptions = {}) {
  if (!/^postgres(ql)?:\/\//.test(targetUrl)) {
    throw new Error("The target must be a PostgreSQL URL (postgres://…)");
  }
  const dataDir = embeddedDataDir(
    config.databaseUrl,
    "DATABASE_URL names PostgreSQL already: npm run db:move copies the embedded database into PostgreSQL",
    "move",
  );
  requireEmbeddedDatabase(dataDir);
  const target = openDatabase(targetUrl);
  try {
    await refuseUnlessEmpty(target, targetUrl);
    const source = openDatabase(config.databaseUrl);
    try {
      await source.migrate();
      await target.migrate();
      options.onMigrated?.();
      const tables = await copyAll(source, target, options);
      return { tables, appSecret: resolveAppSecret(config, source) };
    } finally {
      await source.close();
    }
  } finally {
    await target.close();
  }
}

/**
 * Empty means: no table but Prism's own (and its record of migrations), and no row in them. A
 * database made for something else is never Prism's to fill.
 */
async function refuseUnlessEmpty(target: Database, targetUrl: string) {
  await target.ping().catch((error: Error) => {
    throw new Error(`${targetUrl} does not answer: ${error.message}`);
  });
  const ours = new Set(
    [...tablesInMoveOrder(), ...transient].map((table) => getTableConfig(table).name),
  );
  const present = rowsOf<{ schema: string; name: string }>(
    await target.db.execute(sql`
      select table_schema as schema, table_name as name from information_schema.tables
      where table_schema not in ('pg_catalog', 'information_schema') order by 1, 2`),
  );
  const isOurs = (table: { schema: string; name: string }) =>
    (table.schema === "public" && ours.has(table.name)) ||
    (table.schema === "drizzle" && table.name === "__drizzle_migrations");
  const strangers = present.filter((table) => !isOurs(table));
  if (strangers.length > 0) {
    const names = strangers.map((table) => `${table.schema}.${table.name}`).join(", ");
    throw new Error(
      `${targetUrl} is not empty: it holds tables that are not Prism's (${names}). Move into a new, empty database.`,
    );
  }
  const filled: string[] = [];
  for (const { schema: tableSchema, name } of present) {
    if (tableSchema !== "public") continue;
    const [row] = rowsOf<{ filled: boolean }>(
      await target.db.execute(sql`select exists (select 1 from ${sql.identifier(name)}) as filled`),
    );
    if (row?.filled) filled.push(name);
  }
  if (filled.length > 0) {
    throw new Error(
      `${targetUrl} is not empty: it already holds rows of Prism (${filled.join(", ")}). Move into a new, empty database.`,
    );
  }
}

/** Every table, read from one snapshot of the embedded database, written in one transaction. */
function copyAll(source: Database, target: Database, options: MoveOptions) {
  return source.db.transaction(
    (from) =>
      target.db.transaction(async (to) => {
        const moved: MovedTable[] = [];
        for (const table of tablesInMoveOrder()) {
          const done = {
            table: getTableConfig(table).name,
            rows: await copyTable(from, to, table, options.batchRows),
          };
          moved.push(done);
          options.onTable?.(done);
        }
        return moved;
      }),
    { isolationLevel: "repeatable read", accessMode: "read only" },
  );
}

const count = async (db: Executor, table: PgTable) =>
  rowsOf<{ count: number }>(await db.execute(sql`select count(*)::int as count from ${table}`))[0]
    ?.count ?? 0;

/**
 * One table, batch by batch along its primary key. Rows travel as PostgreSQL's own JSON of them,
 * so every value (a timestamp's microseconds, a JSON document) arrives exactly as it was.
 */
async function copyTable(from: Executor, to: Executor, table: PgTable, batchRows = 500) {
  const { name, columns } = getTableConfig(table);
  const key = columns.find((column) => column.primary);
  if (!key) throw new Error(`${name} has no primary key to copy it by`);
  const id = sql.identifier(key.name);
  const names = sql.join(
    columns.map((column) => sql.identifier(column.name)),
    sql`, `,
  );
  let copied = 0;
  let after: number | undefined;
  for (;;) {
    const [batch] = rowsOf<{ rows: number; last: number; json: string }>(
      await from.execute(sql`
        select count(*)::int as rows, max(${id}) as last,
          coalesce(json_agg(b order by ${id}), '[]')::text as json
        from (select * from ${table} ${after === undefined ? sql`` : sql`where ${id} > ${after}`}
              order by ${id} limit ${batchRows}) b`),
    );
    if (!batch || batch.rows === 0) break;
    await to.execute(sql`
      insert into ${table} (${names}) overriding system value
      select ${names} from json_populate_recordset(null::${table}, ${batch.json}::json)`);
    copied += batch.rows;
    after = batch.last;
  }
  const [inSource, inTarget] = [await count(from, table), await count(to, table)];
  if (inSource !== copied || inTarget !== copied) {
    throw new Error(
      `${name}: ${inSource} rows in the embedded database, ${copied} copied, ${inTarget} in PostgreSQL. Nothing was moved.`,
    );
  }
  // Ids go on from where the embedded database left them, past rows deleted since.
  const [sequence] = rowsOf<{ name: string | null }>(
    await from.execute(sql`select pg_get_serial_sequence(${name}, ${key.name}) as name`),
  );
  if (sequence?.name) {
    const [state] = rowsOf<{ next: number }>(
      await from.execute(
        sql`select (case when is_called then last_value + 1 else last_value end)::int as next
            from ${sql.raw(sequence.name)}`,
      ),
    );
    await to.execute(sql`
      select setval(pg_get_serial_sequence(${name}, ${key.name}),
        greatest(${state?.next ?? 1}::int, coalesce(max(${id}), 0) + 1), false)
      from ${table}`);
  }
  return copied;
}
