import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { getTableConfig } from "drizzle-orm/pg-core";
import postgres from "postgres";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, buildApp } from "../app.ts";
import { loadConfig } from "../config.ts";
import { openDatabase } from "../db/client.ts";
import { users } from "../db/schema.ts";
import { resolveAppSecret } from "../secret.ts";
import { createSession, SESSION_COOKIE } from "../security/session-store.ts";
import { createEmbeddedDatabase, testDatabaseUrl, withDatabase } from "../test/databases.ts";
import { everyRow, type TableRows } from "../test/every-row.ts";
import { send, TEST_ORIGIN, visitorCookie } from "../test/helpers.ts";
import { demoMembers } from "./demo-data.ts";
import { moveToPostgres, tablesInMoveOrder } from "./move.ts";
import { seedDemo } from "./seed.ts";

const postgresUrl = testDatabaseUrl();
if (!postgresUrl) {
  console.log(
    "db:move: the moves into PostgreSQL run with TEST_DB=postgres (npm test's PostgreSQL step)",
  );
}
const config = (databaseUrl: string) =>
  loadConfig({
    DATABASE_URL: databaseUrl,
    APP_ORIGIN: TEST_ORIGIN,
    SEED: "none",
    NODE_ENV: "test",
  });

describe("the order of the move", () => {
  it("puts every table of Prism after the tables its foreign keys point to", () => {
    const order = tablesInMoveOrder().map((table) => getTableConfig(table).name);
    expect(order).toHaveLength(25);
    for (const table of tablesInMoveOrder()) {
      const { name, foreignKeys } = getTableConfig(table);
      for (const key of foreignKeys) {
        const parent = getTableConfig(key.reference().foreignTable).name;
        expect(order.indexOf(parent), `${name} → ${parent}`).toBeLessThan(order.indexOf(name));
      }
    }
  });

  it("refuses a target that is not PostgreSQL, and an embedded database that is not on disk", async () => {
    await expect(moveToPostgres(config("pglite:memory"), "postgres://x/y")).rejects.toThrow(
      "DATABASE_URL=pglite:memory keeps nothing on disk: there is nothing to move",
    );
    await expect(
      moveToPostgres(config("postgres://127.0.0.1/prism"), "postgres://x/y"),
    ).rejects.toThrow("DATABASE_URL names PostgreSQL already");
    await expect(moveToPostgres(config("pglite:memory"), "pglite:./elsewhere")).rejects.toThrow(
      "The target must be a PostgreSQL URL (postgres://…)",
    );
    const empty = await mkdtemp(join(tmpdir(), "prism-move-"));
    try {
      await expect(
        moveToPostgres(config(`pglite:${join(empty, "pglite")}`), "postgres://x/y"),
      ).rejects.toThrow(`No embedded database in ${join(empty, "pglite")}`);
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });
});

/** The browser that hearts before the move, as the app with `secret` signs its id. */
const visitor = (secret: string) => visitorCookie("visitor-who-moves-along", secret);

/**
 * What the app answers about each demo member: profile, prisms, each prism's hearts (to the
 * visitor) and annotations (to the admin, who sees them all).
 */
async function answers(app: App, adminCookie: string, secret: string) {
  const read = async (url: string, cookie = adminCookie) => {
    const response = await send(app, "GET", url, { headers: { cookie } });
    return { url, status: response.statusCode, body: response.json() as unknown };
  };
  const seen: Awaited<ReturnType<typeof read>>[] = [];
  for (const member of demoMembers) {
    seen.push(await read(`/api/users/${member.username}`));
    const prisms = await read(`/api/prisms/${member.username}`);
    seen.push(prisms);
    for (const prism of prisms.body as { id: number }[]) {
      seen.push(await read(`/api/prisms/${prism.id}/heart`, visitor(secret)));
      seen.push(await read(`/api/prisms/${prism.id}/annotations`));
    }
  }
  return seen;
}

describe.runIf(postgresUrl)("npm run db:move", () => {
  let server: postgres.Sql;
  const made: string[] = [];
  let folder: string;
  let sourceUrl: string;
  let cookie: string;
  let secret: string;
  let before: Awaited<ReturnType<typeof answers>>;
  let sourceRows: Record<string, TableRows>;
  let nextUserId: number;
  let photoUrl: string;
  let photo: Buffer;

  /** An empty PostgreSQL database of this test's own. */
  async function emptyDatabase() {
    const name = `prism_move_${randomBytes(6).toString("hex")}`;
    await server.unsafe(`create database ${name}`);
    made.push(name);
    return withDatabase(String(postgresUrl), name);
  }

  beforeAll(async () => {
    server = postgres(String(postgresUrl), { max: 1, onnotice: () => {} });
    folder = await mkdtemp(join(tmpdir(), "prism-move-"));
    sourceUrl = `pglite:${join(folder, "pglite")}`;
    const source = await createEmbeddedDatabase(join(folder, "pglite"));
    try {
      const { username } = await seedDemo(source.db);
      // A member who left last: the ids the embedded database gave stay given.
      const [gone] = await source.db.insert(users).values(leaver).returning();
      if (!gone) throw new Error("no member");
      await source.db.delete(users).where(eq(users.id, gone.id));
      nextUserId = gone.id + 1;

      // The key the embedded install made for itself, as `npm start` does.
      secret = resolveAppSecret(config(sourceUrl), source) ?? "";
      const app = await buildApp({
        config: { ...config(sourceUrl), appSecret: secret },
        database: source,
      });
      const [adminRow] = await source.db.select().from(users).where(eq(users.username, username));
      if (!adminRow) throw new Error("no admin");
      const token = await createSession(source.db, adminRow.id, "vitest");
      cookie = `${SESSION_COOKIE}=${token}`;
      const [prism] = (await send(app, "GET", `/api/prisms/${demoMembers[0]?.username}`)).json();
      const hearted = await send(app, "POST", `/api/prisms/${prism.id}/heart`, {
        headers: { cookie: visitor(secret) },
      });
      expect(hearted.json()).toMatchObject({ hearted: true });
      // The admin's profile photo, whose bytes the move must carry.
      const uploaded = await app.inject({
        method: "PUT",
        url: "/api/user/photo",
        headers: { cookie, origin: TEST_ORIGIN, "content-type": "image/png" },
        payload: await sharp({
          create: { width: 64, height: 64, channels: 3, background: "#1f6f5c" },
        })
          .png()
          .toBuffer(),
      });
      photoUrl = uploaded.json().profileImageUrl;
      photo = (await send(app, "GET", photoUrl)).rawPayload;
      expect(photo.byteLength).toBeGreaterThan(0);
      before = await answers(app, cookie, secret);
      await app.close();
      sourceRows = await everyRow(source);
    } finally {
      await source.close();
    }
  }, 300_000);

  afterAll(async () => {
    for (const name of made) await server.unsafe(`drop database if exists ${name} with (force)`);
    await server.end();
    await rm(folder, { recursive: true, force: true });
  });

  it("copies the demo data into an empty PostgreSQL, which then answers as the embedded database did", {
    timeout: 300_000,
  }, async () => {
    const target = await emptyDatabase();
    const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: sourceUrl, NODE_ENV: "test" };
    delete env.APP_SECRET;
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/move.ts", target], {
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    const [code] = await once(child, "exit");
    expect(output).toContain(`Migrations applied in ${target}. Copying from ${sourceUrl}:`);
    expect(code, output).toBe(0);
    for (const [name, { rows }] of Object.entries(sourceRows)) {
      expect(output).toMatch(new RegExp(`^  ${name} +${rows} rows?$`, "m"));
    }
    expect(sourceRows.sessions?.rows).toBe(1);
    expect(output).toContain(`\n  DATABASE_URL=${target}\n  APP_SECRET=${secret}\n`);
    expect(output).toContain("npm start");

    const moved = openDatabase(target);
    try {
      expect(await everyRow(moved)).toEqual(sourceRows);
      const app = await buildApp({
        config: { ...config(target), appSecret: secret },
        database: moved,
      });
      try {
        expect(await answers(app, cookie, secret)).toEqual(before);
        // The admin's session goes on; the visitor's heart is still theirs.
        const signedIn = await send(app, "GET", "/api/user", { headers: { cookie } });
        expect(signedIn.json()).toMatchObject({
          username: "admin",
          isAdmin: true,
          profileImageUrl: photoUrl,
        });
        // The photo came along, byte for byte.
        const carried = await send(app, "GET", photoUrl);
        expect(carried.statusCode).toBe(200);
        expect(Buffer.compare(carried.rawPayload, photo)).toBe(0);
        expect(before.some((seen) => (seen.body as { hearted?: boolean }).hearted)).toBe(true);
        // Ids go on from where the embedded database left them.
        const [member] = await moved.db.insert(users).values(newcomer).returning();
        expect(member?.id).toBe(nextUserId);
      } finally {
        await app.close();
      }
    } finally {
      await moved.close();
    }
  });

  describe("into a database that is not empty", () => {
    it("refuses one that holds Prism's rows, and leaves it as it was", {
      timeout: 300_000,
    }, async () => {
      const target = await emptyDatabase();
      const other = openDatabase(target);
      try {
        await other.migrate();
        await other.db.insert(users).values(newcomer);
        const rowsBefore = await everyRow(other);
        await expect(moveToPostgres(config(sourceUrl), target)).rejects.toThrow(
          `${target} is not empty: it already holds rows of Prism (users). Move into a new, empty database.`,
        );
        expect(await everyRow(other)).toEqual(rowsBefore);
        expect(rowsBefore.users?.rows).toBe(1);
      } finally {
        await other.close();
      }
    });

    it("refuses one that holds tables that are not Prism's, and creates none of its own there", {
      timeout: 300_000,
    }, async () => {
      const target = await emptyDatabase();
      const other = postgres(target, { max: 1, onnotice: () => {} });
      try {
        await other`create table invoices (id int primary key)`;
        await expect(moveToPostgres(config(sourceUrl), target)).rejects.toThrow(
          `${target} is not empty: it holds tables that are not Prism's (public.invoices). Move into a new, empty database.`,
        );
        const tables =
          await other`select table_name from information_schema.tables where table_schema = 'public'`;
        expect(tables.map((row) => row.table_name)).toEqual(["invoices"]);
      } finally {
        await other.end();
      }
    });

    it("leaves the target without rows when the move stops partway", {
      timeout: 300_000,
    }, async () => {
      const target = await emptyDatabase();
      const copied: string[] = [];
      await expect(
        moveToPostgres(config(sourceUrl), target, {
          batchRows: 7,
          onTable: ({ table }) => {
            copied.push(table);
            if (table === "prisms") throw new Error("stopped");
          },
        }),
      ).rejects.toThrow("stopped");
      expect(copied).toEqual(["users", "prisms"]);
      const moved = openDatabase(target);
      try {
        const rows = Object.values(await everyRow(moved)).map((table) => table.rows);
        expect(rows.every((count) => count === 0)).toBe(true);
        // The target is still empty, so the move can be made again, here seven rows at a time.
        const report = await moveToPostgres(config(sourceUrl), target, { batchRows: 7 });
        expect(report.tables).toEqual(
          Object.entries(sourceRows).map(([table, { rows }]) => ({ table, rows })),
        );
        expect(await everyRow(moved)).toEqual(sourceRows);
      } finally {
        await moved.close();
      }
    });
  });
});

const leaver = {
  username: "leaver",
  email: "leaver@example.com",
  firstName: "Lea",
  lastName: "Ver",
};
const newcomer = {
  username: "newcomer",
  email: "newcomer@example.com",
  firstName: "New",
  lastName: "Comer",
};
