// Every row of a Prism database, to compare two databases that should hold the same data.
import { sql } from "drizzle-orm";
import { getTableConfig } from "drizzle-orm/pg-core";
import { type Database, rowsOf } from "../db/client.ts";
import { tablesInMoveOrder } from "../tasks/move.ts";

export interface TableRows {
  rows: number;
  text: string;
}

/** How many rows each table holds, and all of them as PostgreSQL writes them out in UTC. */
export function everyRow(database: Database): Promise<Record<string, TableRows>> {
  return database.db.transaction(async (tx) => {
    await tx.execute(sql`set local time zone 'UTC'`);
    const tables: Record<string, TableRows> = {};
    for (const table of tablesInMoveOrder()) {
      const [row] = rowsOf<TableRows>(
        await tx.execute(
          sql`select count(*)::int as rows, coalesce(string_agg(t::text, E'\n' order by id), '') as text
              from ${table} t`,
        ),
      );
      tables[getTableConfig(table).name] = row ?? { rows: 0, text: "" };
    }
    return tables;
  });
}
