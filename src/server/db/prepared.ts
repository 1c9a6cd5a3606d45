// Prepared statements for the hottest queries (every signed-in request, every page view), built
// once per database handle: they skip Drizzle's query building and the server's planning.
import type { Db } from "./client.ts";

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
