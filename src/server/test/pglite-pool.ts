// The in-memory PGlites of one test worker, reused from test file to test file. Starting one from
// the migrated image costs one to two seconds of CPU; emptying one back to the image's rows costs
// milliseconds. A file gets a lease on a PGlite; closing the lease hands the PGlite back, and the
// next file gets it back emptied. One whose schema a test changed, or that does not empty cleanly,
// is closed and replaced by a fresh one, so a file always starts from exactly the migrated image.
import { readFile } from "node:fs/promises";
import { PGlite } from "@electric-sql/pglite";

/** What a PGlite holds right after loading the image, and how to put it back. */
interface Baseline {
  schema: string;
  /** Every table, its rows in the image (JSON, none for most) and the columns they fill. */
  tables: { name: string; columns: string; rows: string | undefined }[];
  sequences: { name: string; value: string; called: boolean }[];
}

const idle: PGlite[] = [];
let image: Promise<Blob> | undefined;
let baseline: Promise<Baseline> | undefined;
let starts = 0;
let discards = 0;

/** How many PGlites this worker has started from the image, and how many it closed as unfit. */
export function pgliteCounts(): { starts: number; discards: number } {
  return { starts, discards };
}

/**
 * Everything a test could change about the database's shape: relations, columns, constraints,
 * triggers (and whether they fire), functions and types, in every schema of Prism's own.
 */
const SCHEMA_FINGERPRINT = `
  with own as (
    select oid from pg_namespace
    where nspname not in ('pg_catalog', 'information_schema') and nspname not like 'pg\\_%'
  )
  select md5(concat_ws('|',
    (select string_agg(concat_ws(',', c.oid, c.relname, c.relkind, c.relnatts), ';' order by c.oid)
       from pg_class c where c.relnamespace in (select oid from own)),
    (select string_agg(concat_ws(',', a.attrelid, a.attname, a.atttypid, a.attnotnull,
                                  a.atthasdef, a.attisdropped), ';' order by a.attrelid, a.attnum)
       from pg_attribute a join pg_class c on c.oid = a.attrelid
       where c.relnamespace in (select oid from own) and a.attnum > 0),
    (select string_agg(concat_ws(',', oid, conname), ';' order by oid)
       from pg_constraint where connamespace in (select oid from own)),
    (select string_agg(concat_ws(',', t.oid, t.tgenabled), ';' order by t.oid)
       from pg_trigger t join pg_class c on c.oid = t.tgrelid
       where c.relnamespace in (select oid from own)),
    (select string_agg(concat_ws(',', oid, md5(prosrc)), ';' order by oid)
       from pg_proc where pronamespace in (select oid from own)),
    (select string_agg(oid::text, ';' order by oid)
       from pg_type where typnamespace in (select oid from own))
  )) as fingerprint`;

async function schemaOf(client: PGlite): Promise<string> {
  const { rows } = await client.query<{ fingerprint: string }>(SCHEMA_FINGERPRINT);
  return rows[0]?.fingerprint ?? "";
}

async function baselineOf(client: PGlite): Promise<Baseline> {
  const { rows: tables } = await client.query<{ name: string; columns: string }>(`
    select format('%I.%I', n.nspname, c.relname) as name,
           string_agg(format('%I', a.attname), ', ' order by a.attnum) as columns
    from pg_class c
    join pg_namespace n on n.oid = c.relnamespace
    join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
      and a.attgenerated = ''
    where c.relkind in ('r', 'p') and n.nspname not in ('pg_catalog', 'information_schema')
      and n.nspname not like 'pg\\_%'
    group by n.nspname, c.relname`);
  const withRows = await Promise.all(
    tables.map(async (table) => {
      const { rows } = await client.query<{ rows: string | null }>(
        `select json_agg(t)::text as rows from ${table.name} t`,
      );
      return { ...table, rows: rows[0]?.rows ?? undefined };
    }),
  );
  const { rows: sequences } = await client.query<Baseline["sequences"][number]>(`
    select format('%I.%I', schemaname, sequencename) as name,
           coalesce(last_value, start_value)::text as value, last_value is not null as called
    from pg_sequences`);
  return { schema: await schemaOf(client), tables: withRows, sequences };
}

/** Puts the image's rows and sequences back; false when the PGlite cannot be trusted to. */
async function empty(client: PGlite, base: Baseline): Promise<boolean> {
  try {
    // Ends what a session may have left: settings, prepared statements, LISTENs, advisory locks.
    // It fails inside a transaction, which a PGlite left in one should.
    await client.exec("discard all");
    if ((await schemaOf(client)) !== base.schema) return false;
    const statements = [
      `truncate ${base.tables.map((table) => table.name).join(", ")} restart identity cascade`,
      ...base.tables
        .filter((table) => table.rows)
        .map(
          (table) =>
            `insert into ${table.name} (${table.columns}) overriding system value
             select ${table.columns} from json_populate_recordset(null::${table.name},
               ${literal(table.rows as string)})`,
        ),
      ...base.sequences.map(
        (sequence) =>
          `select setval(${literal(sequence.name)}, ${sequence.value}, ${sequence.called})`,
      ),
    ];
    await client.transaction(async (tx) => {
      await tx.exec(statements.join(";\n"));
    });
    return true;
  } catch {
    return false;
  }
}

function literal(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/**
 * A PGlite as the holder sees it: `close` hands it back to the worker's idle ones (after removing
 * the LISTENs made through the lease), and once handed back it answers no more queries.
 */
function lease(client: PGlite): PGlite {
  let released = false;
  const unlistens: (() => Promise<void>)[] = [];
  const release = async () => {
    if (released) return;
    released = true;
    await Promise.all(unlistens.map((unlisten) => unlisten().catch(() => {})));
    idle.push(client);
  };
  const listen = async (channel: string, callback: (payload: string) => void) => {
    const unlisten = await client.listen(channel, callback);
    unlistens.push(unlisten);
    return unlisten;
  };
  return new Proxy(client, {
    get(target, property) {
      if (property === "close") return release;
      if (property === "closed") return released || target.closed;
      const value = property === "listen" ? listen : Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        if (released) throw new Error("PGlite is closed");
        return value.apply(target, args);
      };
    },
  });
}

/** An in-memory PGlite holding exactly the migrated image at `path`, for one test file. */
export async function leasePglite(path: string): Promise<PGlite> {
  for (let client = idle.pop(); client; client = idle.pop()) {
    const base = await baseline;
    if (base && (await empty(client, base))) return lease(client);
    discards += 1;
    await client.close().catch(() => {});
  }
  image ??= readFile(path).then((bytes) => new Blob([bytes]));
  const client = new PGlite({ loadDataDir: await image });
  starts += 1;
  await client.waitReady;
  baseline ??= baselineOf(client);
  await baseline;
  return lease(client);
}
