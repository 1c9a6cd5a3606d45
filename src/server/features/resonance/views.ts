// Views, privately: a prism shown to a visitor counts a read once a day, and a few times a day per
// address; the first prism of a member's page a visitor reads in a day counts that page a reader.
// What is kept is a count per prism and day (reads) and per page and day (readers); to tell a
// second view from a first, today's keys, each an HMAC of the visitor (or the address) and the
// prism (or the page) under a random salt of the day. Once the day is over its salt and keys are
// deleted, so nobody, Prism included, can tell afterwards who looked at what.
import { createHmac, randomBytes } from "node:crypto";
import { and, eq, inArray, lt, ne, sql } from "drizzle-orm";
import { limits } from "../../../contract/limits.ts";
import type { Participant } from "../../actors.ts";
import type { Db, Executor } from "../../db/client.ts";
import {
  pageReaders,
  prisms,
  prismViewAddresses,
  prismViewKeys,
  prismViews,
  users,
  viewSalts,
} from "../../db/schema.ts";
import { liveOwner, prismsVisibleTo } from "../../policy.ts";

/** User agents that announce a program rather than a reader: crawlers, previews, scripts. */
const AUTOMATED =
  /bot\b|bot\/|crawl|spider|slurp|preview|fetch|headless|lighthouse|facebookexternalhit|embedly|python|curl|wget|http-?client|okhttp|axios|java\/|go-http|node|scrapy|phantom|puppeteer|playwright/i;

/** Whether a user agent is a program's (none at all is, too). */
export function isAutomated(userAgent: string | undefined): boolean {
  return !userAgent || AUTOMATED.test(userAgent);
}

/** Today's salt, made by whichever process asks first; the days before are forgotten then. */
async function saltOf(db: Executor, day: string): Promise<string> {
  const [made] = await db
    .insert(viewSalts)
    .values({ day, salt: randomBytes(32).toString("base64url") })
    .onConflictDoNothing()
    .returning();
  if (made) {
    await db.delete(viewSalts).where(lt(viewSalts.day, day));
    await db.delete(prismViewKeys).where(lt(prismViewKeys.day, day));
    await db.delete(prismViewAddresses).where(lt(prismViewAddresses.day, day));
    return made.salt;
  }
  const [kept] = await db.select().from(viewSalts).where(eq(viewSalts.day, day));
  if (!kept) throw new Error(`no view salt for ${day}`);
  return kept.salt;
}

/** Each database's salt of the day, as this process last asked for it. */
const salts = new WeakMap<Db, { day: string; salt: Promise<string> }>();

/** The salt of `day`, asked of the database once a day per process. */
export function daySalt(db: Db, day: string): Promise<string> {
  const known = salts.get(db);
  if (known?.day === day) return known.salt;
  const asked = { day, salt: saltOf(db, day) };
  asked.salt.catch(() => {
    if (salts.get(db) === asked) salts.delete(db);
  });
  salts.set(db, asked);
  return asked.salt;
}

/**
 * Counts the prisms a page showed as read by `participant` on `day` (whose salt is `salt`), once
 * per visitor, prism and day, and at most `viewsPerAddress` times per address (`address`), prism
 * and day: not the owner's own, nor a deactivated member's, nor those that do not exist. The
 * visitor counts a reader of each owner's page once a day, with the first read counted there.
 * Answers how many reads were counted.
 */
export async function countViews(
  tx: Executor,
  participant: Participant,
  {
    address,
    prismIds,
    day,
    salt,
  }: { address: string; prismIds: number[]; day: string; salt: string },
): Promise<number> {
  const visitor =
    "user" in participant ? `member:${participant.user.id}` : `browser:${participant.visitorHash}`;
  const keyOf = (who: string, what: number | string) =>
    createHmac("sha256", salt).update(`${who}:${what}`).digest("base64url");
  const shown = await tx
    .select({ id: prisms.id, ownerId: prisms.userId })
    .from(prisms)
    .innerJoin(users, liveOwner)
    .where(
      and(
        inArray(prisms.id, [...new Set(prismIds)]),
        "user" in participant ? ne(prisms.userId, participant.user.id) : undefined,
        // A prism the reader may not see was never shown to them.
        prismsVisibleTo("user" in participant ? participant.user : null),
      ),
    );
  if (shown.length === 0) return 0;
  const byKey = new Map(shown.map(({ id }) => [keyOf(visitor, id), id]));
  const fresh = await tx
    .insert(prismViewKeys)
    .values([...byKey.keys()].map((k) => ({ key: k, day })))
    .onConflictDoNothing()
    .returning({ key: prismViewKeys.key });
  if (fresh.length === 0) return 0;
  // The address's views of each prism today, this one included: past the bound, none counts.
  const byAddress = new Map(
    fresh.map(({ key }) => {
      const prismId = byKey.get(key) ?? 0;
      return [keyOf(`address:${address}`, prismId), prismId];
    }),
  );
  const seen = await tx
    .insert(prismViewAddresses)
    .values([...byAddress.keys()].map((k) => ({ key: k, day, count: 1 })))
    .onConflictDoUpdate({
      target: prismViewAddresses.key,
      set: { count: sql`${prismViewAddresses.count} + 1` },
    })
    .returning({ key: prismViewAddresses.key, count: prismViewAddresses.count });
  const counted = seen.filter((row) => row.count <= limits.viewsPerAddress);
  if (counted.length === 0) return 0;
  const read = counted.map((row) => byAddress.get(row.key) ?? 0);
  await tx
    .insert(prismViews)
    .values(read.map((prismId) => ({ prismId, day, count: 1 })))
    .onConflictDoUpdate({
      target: [prismViews.prismId, prismViews.day],
      set: { count: sql`${prismViews.count} + 1` },
    });
  await countReaders(tx, {
    keyOf: (ownerId) => keyOf(visitor, `page:${ownerId}`),
    ownerIds: shown.filter(({ id }) => read.includes(id)).map(({ ownerId }) => ownerId),
    day,
  });
  return read.length;
}

/** Counts the visitor a reader of each page (`ownerIds`) on `day`, unless its key is already kept. */
async function countReaders(
  tx: Executor,
  { keyOf, ownerIds, day }: { keyOf: (ownerId: number) => string; ownerIds: number[]; day: string },
): Promise<void> {
  const byKey = new Map([...new Set(ownerIds)].map((ownerId) => [keyOf(ownerId), ownerId]));
  const fresh = await tx
    .insert(prismViewKeys)
    .values([...byKey.keys()].map((k) => ({ key: k, day })))
    .onConflictDoNothing()
    .returning({ key: prismViewKeys.key });
  if (fresh.length === 0) return;
  await tx
    .insert(pageReaders)
    .values(fresh.map(({ key }) => ({ userId: byKey.get(key) ?? 0, day, count: 1 })))
    .onConflictDoUpdate({
      target: [pageReaders.userId, pageReaders.day],
      set: { count: sql`${pageReaders.count} + 1` },
    });
}
