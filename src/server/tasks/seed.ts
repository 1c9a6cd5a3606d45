// Loads Prism's demo data set: members in their own voice, hearts, annotations, notifications,
// newcomers, and the admin's first entry in the audit log.
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { or, sql } from "drizzle-orm";
import { htmlToPlainText, quoteContext } from "../../contract/plain-text.ts";
import { recordAudit } from "../audit.ts";
import type { Config } from "../config.ts";
import type { Database, Db, Executor } from "../db/client.ts";
import { sameIgnoringCase } from "../db/ignoring-case.ts";
import {
  annotations,
  notifications,
  prismHearts,
  prisms,
  type UserRow,
  users,
} from "../db/schema.ts";
import { hashPassword } from "../security/passwords.ts";
import { demoAnnotations, demoHearts, demoMembers, demoNewcomers } from "./demo-data.ts";

const DEMO_ADMIN_USERNAME = "admin";

export interface DemoCredentials {
  username: string;
  password: string;
}

const dayMs = 24 * 60 * 60 * 1000;

/** What the seeding steps share: the transaction, the time it seeds at, the members' password. */
interface Seeding {
  tx: Executor;
  now: number;
  memberPassword: string;
}

interface SeededPrism {
  id: number;
  userId: number;
  title: string;
  text: string;
}

/** The demo members and their prisms, as the hearts and annotations name them. */
interface SeededMembers {
  userIds: Map<string, number>;
  userNames: Map<string, string>;
  prismsByKey: Map<string, SeededPrism>;
}

/** Loads the demo data; returns the admin's sign-in. Refuses when the demo members already exist. */
export async function seedDemo(db: Db): Promise<DemoCredentials> {
  const adminPassword = randomBytes(9).toString("base64url");
  const memberPassword = await hashPassword(randomBytes(18).toString("base64url"));
  const now = Date.now();

  await db.transaction(async (tx) => {
    const seeding: Seeding = { tx, now, memberPassword };
    await refuseWhenSeeded(tx);
    const admin = await insertAdmin(seeding, adminPassword);
    const members = await insertMembers(seeding);
    await insertNewcomers(seeding, admin);
    await insertHearts(seeding, members);
    await insertAnnotations(seeding, members);
  });
  return { username: DEMO_ADMIN_USERNAME, password: adminPassword };
}

async function refuseWhenSeeded(tx: Executor) {
  const [{ taken = 0 } = {}] = await tx
    .select({ taken: sql<number>`count(*)::int` })
    .from(users)
    .where(
      or(
        ...[DEMO_ADMIN_USERNAME, ...[...demoMembers, ...demoNewcomers].map((m) => m.username)].map(
          (username) => sameIgnoringCase(users.username, username),
        ),
      ),
    );
  if (taken > 0) throw new Error("The demo members already exist in this database");
}

async function insertAdmin({ tx, now }: Seeding, adminPassword: string): Promise<UserRow> {
  const [admin] = await tx
    .insert(users)
    .values({
      username: DEMO_ADMIN_USERNAME,
      email: "admin@prism.example",
      firstName: "Prism",
      lastName: "Admin",
      displayName: "Prism Admin",
      password: await hashPassword(adminPassword),
      isAdmin: true,
      lastActiveAt: new Date(now),
    })
    .returning();
  if (!admin) throw new Error("no admin");
  return admin;
}

async function insertMembers({ tx, now, memberPassword }: Seeding): Promise<SeededMembers> {
  const members: SeededMembers = {
    userIds: new Map(),
    userNames: new Map(),
    prismsByKey: new Map(),
  };
  for (const [i, member] of demoMembers.entries()) {
    const [user] = await tx
      .insert(users)
      .values({
        username: member.username,
        email: member.email,
        firstName: member.firstName,
        lastName: member.lastName,
        displayName: member.displayName,
        websiteUrl: member.websiteUrl,
        twitterUrl: member.twitterUrl,
        linkedinUrl: member.linkedinUrl,
        password: memberPassword,
        createdAt: new Date(now - (60 - i * 5) * dayMs),
        lastActiveAt: new Date(now - i * 7 * 60 * 60 * 1000),
      })
      .returning();
    if (!user) throw new Error("no user");
    members.userIds.set(member.username, user.id);
    members.userNames.set(
      member.username,
      member.displayName ?? `${member.firstName} ${member.lastName}`,
    );
    const rows = await tx
      .insert(prisms)
      .values(
        member.prisms.map((prism, index) => ({
          userId: user.id,
          title: prism.title,
          content: prism.content,
          editedAfterHearts: prism.editedAfterHearts ?? false,
          index,
          createdAt: new Date(now - (50 - i * 5 - index) * dayMs),
        })),
      )
      .returning();
    for (const row of rows) {
      members.prismsByKey.set(`${member.username}/${row.title}`, {
        id: row.id,
        userId: user.id,
        title: row.title,
        text: htmlToPlainText(row.content),
      });
    }
  }
  return members;
}

// Newcomers fill the Overview's "new" cards and a second page of Catalyst's Users table; the
// admin has already deactivated one of them, as the audit log records.
async function insertNewcomers({ tx, now, memberPassword }: Seeding, admin: UserRow) {
  for (const newcomer of demoNewcomers) {
    const joined = new Date(now - newcomer.joinedDaysAgo * dayMs);
    const [user] = await tx
      .insert(users)
      .values({
        username: newcomer.username,
        email: newcomer.email,
        firstName: newcomer.firstName,
        lastName: newcomer.lastName,
        password: memberPassword,
        createdAt: joined,
        lastActiveAt: joined,
        deactivatedAt: newcomer.deactivated ? new Date(now - dayMs) : null,
      })
      .returning();
    if (!user) throw new Error("no user");
    if (newcomer.deactivated) {
      await recordAudit(tx, admin, {
        action: "user.deactivate",
        targetType: "user",
        targetId: user.id,
        target: `@${user.username}`,
        before: { status: "active" },
        after: { status: "deactivated" },
      });
    }
  }
}

function findPrism({ prismsByKey }: SeededMembers, owner: string, title: string) {
  const prism = prismsByKey.get(`${owner}/${title}`);
  if (!prism) throw new Error(`Demo data names a missing prism: ${owner}/${title}`);
  return prism;
}

/** The hearts, the prisms' counts of them, and their owners' notifications. */
async function insertHearts({ tx, now }: Seeding, members: SeededMembers) {
  const given = demoHearts.flatMap(({ owner, prismTitle, by }) => {
    const prism = findPrism(members, owner, prismTitle);
    return by.map((member) => ({ prism, member }));
  });
  const hearts = given.map(({ prism, member }, i) => {
    const userId = member ? members.userIds.get(member) : undefined;
    const visitorHash = member ? null : `demo-visitor-${i}`;
    return {
      prism,
      userId: userId ?? null,
      visitorHash,
      actorName: member ? members.userNames.get(member) : null,
      i,
    };
  });
  await tx.insert(prismHearts).values(
    hearts.map((h) => ({
      prismId: h.prism.id,
      userId: h.userId,
      visitorHash: h.visitorHash,
      createdAt: new Date(now - (h.i % 20) * 60 * 60 * 1000),
    })),
  );
  // The update builder qualifies columns, so the subquery correlates with the outer prism.
  await tx.update(prisms).set({
    heartsCount: sql`(select count(*) from ${prismHearts} where ${prismHearts.prismId} = ${prisms.id})`,
  });
  await tx.insert(notifications).values(
    hearts.map((h) => ({
      userId: h.prism.userId,
      prismId: h.prism.id,
      type: "heart" as const,
      actorName: h.actorName ?? null,
      actorKey: h.userId ? `user:${h.userId}` : `visitor:${h.visitorHash}`,
      read: h.i % 3 !== 0,
      createdAt: new Date(now - (h.i % 20) * 60 * 60 * 1000),
    })),
  );
}

/** The annotations, each with its owner's notification. */
async function insertAnnotations({ tx, now }: Seeding, members: SeededMembers) {
  for (const [i, note] of demoAnnotations.entries()) {
    const prism = findPrism(members, note.owner, note.prismTitle);
    const start = prism.text.indexOf(note.quote);
    if (start < 0) throw new Error(`Demo quote not found in ${note.owner}/${note.prismTitle}`);
    const end = start + note.quote.length;
    const member = typeof note.annotator === "string" ? note.annotator : null;
    const anonymous = typeof note.annotator === "string" ? null : note.annotator;
    const createdAt = new Date(now - (i * 5 + 1) * 60 * 60 * 1000);
    const [row] = await tx
      .insert(annotations)
      .values({
        prismId: prism.id,
        selectedText: note.quote,
        annotationText: note.text,
        userId: member ? (members.userIds.get(member) ?? null) : null,
        annotatorName: anonymous?.name ?? null,
        annotatorEmail: anonymous?.email ?? null,
        visitorHash: anonymous ? `demo-annotator-${i}` : null,
        status: note.status,
        selectionStart: start,
        selectionEnd: end,
        ...quoteContext(prism.text, start, end),
        prismTitle: prism.title,
        createdAt,
      })
      .returning({ id: annotations.id });
    await tx.insert(notifications).values({
      userId: prism.userId,
      prismId: prism.id,
      type: "annotation",
      actorName: (member ? members.userNames.get(member) : anonymous?.name) ?? null,
      annotationId: row?.id,
      read: note.status !== "pending",
      createdAt,
    });
  }
}

function credentialsFile(database: Database): string | undefined {
  return database.dataDir ? join(dirname(database.dataDir), "demo-admin.json") : undefined;
}

function printCredentials(credentials: DemoCredentials) {
  console.log(
    `\n  Demo admin — username: ${credentials.username}  password: ${credentials.password}\n  (sign in at /sign-in; SEED=none starts an empty site)\n`,
  );
}

/** At start-up: seed an empty database when SEED (or its default) says demo, and show the admin's sign-in. */
export async function seedOnStart(database: Database, config: Config) {
  const mode = config.seed ?? (database.kind === "pglite" ? "demo" : "none");
  const file = credentialsFile(database);
  if (mode === "demo") {
    const [{ count = 0 } = {}] = await database.db
      .select({ count: sql<number>`count(*)::int` })
      .from(users);
    if (count === 0) {
      const credentials = await seedDemo(database.db);
      if (file) writeFileSync(file, JSON.stringify(credentials), { mode: 0o600 });
      printCredentials(credentials);
      return;
    }
  }
  if (file && existsSync(file)) {
    printCredentials(JSON.parse(readFileSync(file, "utf8")) as DemoCredentials);
  }
}
