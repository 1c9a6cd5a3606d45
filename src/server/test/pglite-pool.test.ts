// A test file's PGlite holds exactly the migrated image, however the file before it left the one
// it hands on: rows, sequences, LISTENs, session settings and schema changes never carry over.
import type { PGlite } from "@electric-sql/pglite";
import { describe, expect, inject, it } from "vitest";
import { leasePglite, pgliteCounts } from "./pglite-pool.ts";
import { PGLITE_IMAGE } from "./provided.ts";

const lease = () => leasePglite(inject(PGLITE_IMAGE));

async function counts(client: PGlite) {
  const { rows } = await client.query<{ users: number; migrations: number; next: string }>(
    `select (select count(*)::int from users) as users,
            (select count(*)::int from drizzle.__drizzle_migrations) as migrations,
            nextval('drizzle.__drizzle_migrations_id_seq')::text as next`,
  );
  return rows[0];
}

async function addMember(client: PGlite, username: string) {
  await client.query(
    `insert into users (username, email, first_name, last_name)
     values ($1, $1 || '@example.com', $1, 'Test')`,
    [username],
  );
}

describe("the worker's reused PGlites", () => {
  it("hand the next file the image's rows and sequences, on the same PGlite", async () => {
    const first = await lease();
    const image = await counts(first);
    await addMember(first, "ada");
    await first.query("delete from drizzle.__drizzle_migrations where id = 1");
    await first.query("set statement_timeout = 1234");
    await first.close();
    const before = pgliteCounts();

    const second = await lease();
    expect(pgliteCounts()).toEqual(before);
    expect(await counts(second)).toEqual(image);
    const { rows } = await second.query<{ statement_timeout: string }>("show statement_timeout");
    expect(rows[0]?.statement_timeout).toBe("0");
    await second.close();
  });

  it("answer no query through a lease once it is closed", async () => {
    const client = await lease();
    await client.close();
    expect(client.closed).toBe(true);
    expect(() => client.query("select 1")).toThrow("PGlite is closed");
  });

  it("stop a closed lease's LISTENs", async () => {
    const first = await lease();
    const heard: string[] = [];
    await first.listen("events", (payload) => heard.push(payload));
    await first.close();

    const second = await lease();
    const heardNext: string[] = [];
    await second.listen("events", (payload) => heardNext.push(payload));
    await second.query("select pg_notify('events', 'after')");
    await second.close();
    expect(heardNext).toEqual(["after"]);
    expect(heard).toEqual([]);
  });

  it("replace a PGlite whose schema a test changed by a fresh one", async () => {
    const first = await lease();
    await first.exec("create table leftover (id int); alter table users disable trigger all");
    await first.close();
    const { discards } = pgliteCounts();

    const second = await lease();
    expect(pgliteCounts().discards).toBe(discards + 1);
    const { rows } = await second.query<{ found: string | null }>(
      "select to_regclass('leftover')::text as found",
    );
    expect(rows[0]?.found).toBeNull();
    await second.close();
  });

  it("replace a PGlite left inside a transaction by a fresh one", async () => {
    const first = await lease();
    await first.exec("begin");
    await addMember(first, "grace");
    await first.close();
    const { discards } = pgliteCounts();

    const second = await lease();
    expect(pgliteCounts().discards).toBe(discards + 1);
    const { rows } = await second.query<{ n: number }>(
      "select count(*)::int as n from users where username = 'grace'",
    );
    expect(rows[0]?.n).toBe(0);
    await second.close();
  });
});
