// Prepared statements for the hottest queries (every signed-in request, every page view, every
// heart, explore's pages), built once per database handle: they skip Drizzle's query building and
// the server's planning.
import { type SQL, sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { type Db, rowsOf } from "./client.ts";

const statements = new WeakMap<Db, Map<string, unknown>>();

/** The statement `name` for this database, built by `build` on first use. */
export function prepared<T>(db: Db, name: string, build: () => T): T {
  let forDb = statements.get(db);
  if (!forDb) {
    forDb = new Map();
    statements.set(db, forDb);
  }
  let statement = forDb.get(name) as T | undefined;
  if (statement === undefined) {
    statement = build();
    forDb.set(name, statement);
  }
  return statement;
}

/** Writes Drizzle's SQL as text and parameters, as the database handle's own dialect does. */
const dialect = new PgDialect();

/** A statement written in SQL, whose values are its `sql.placeholder`s. */
export interface PreparedSql<Row> {
  execute(values: Record<string, unknown>): Promise<Row[]>;
}

/**
 * `prepared` for a statement Drizzle's builders cannot write (a chain of data-modifying CTEs):
 * `build` writes it once with `sql.placeholder` where its values go, and each call sends only
 * the values.
 */
export function preparedSql<Row>(db: Db, name: string, build: () => SQL): PreparedSql<Row> {
  return prepared(db, name, () => {
    const statement = db._.session.prepareQuery(
      dialect.sqlToQuery(build()),
      undefined,
      name,
      false,
    );
    return {
      execute: async (values: Record<string, unknown>) =>
        rowsOf<Row>(await statement.execute(values)),
    };
  });
}

/** A value of a prepared statement, by name (`sql.placeholder`), cast to a type of PostgreSQL. */
export const param = (name: string, type: "int" | "text") =>
  sql`${sql.placeholder(name)}::${sql.raw(type)}`;
