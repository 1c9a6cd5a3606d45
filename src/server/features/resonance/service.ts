// Resonance: which passages of a prism drew responses, its hearts and views by day for its owner,
// and the passage marked "Top passage" for its readers, kept on the prism as its responses change.
import { and, asc, eq, gte, inArray, isNull, notInArray, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { htmlToPlainText } from "../../../contract/plain-text.ts";
import {
  type DayCount,
  RESONANCE_DAYS,
  type Resonance,
  resonanceMessages,
  type ThisWeek,
  TOP_PASSAGE_PEOPLE,
  type TopPassage,
  type WeekCounts,
} from "../../../contract/resonance.ts";
import type { Db, Executor } from "../../db/client.ts";
import {
  annotations,
  pageReaders,
  prismHearts,
  prisms,
  prismViews,
  type UserRow,
} from "../../db/schema.ts";
import { forbidden, notFound } from "../../http-error.ts";
import { canSeeHistory, prismsVisibleTo } from "../../policy.ts";
import { coverage, mostCovered, type Span } from "./coverage.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

/** The UTC date `daysAgo` days before `now`, as `YYYY-MM-DD`. */
export function utcDay(now: Date, daysAgo = 0): string {
  return new Date(now.getTime() - daysAgo * DAY_MS).toISOString().slice(0, 10);
}

/** The responses of these prisms that resonance counts: anchored, approved or (with `pending`) not yet decided. */
function countedResponses(db: Executor, prismIds: number[], pending: boolean) {
  return db
    .select({
      prismId: annotations.prismId,
      id: annotations.id,
      start: annotations.selectionStart,
      end: annotations.selectionEnd,
      userId: annotations.userId,
      visitorHash: annotations.visitorHash,
    })
    .from(annotations)
    .where(
      and(
        inArray(annotations.prismId, prismIds),
        eq(annotations.orphaned, false),
        // A silenced member's responses count nowhere but for them.
        eq(annotations.silenced, false),
        pending
          ? inArray(annotations.status, ["approved", "pending"])
          : eq(annotations.status, "approved"),
      ),
    );
}

type Counted = Awaited<ReturnType<typeof countedResponses>>[number];

/** A member by their account, an anonymous author by their browser. */
const span = (row: Counted): Span => ({
  start: row.start,
  end: row.end,
  who: row.userId !== null ? `member:${row.userId}` : `browser:${row.visitorHash ?? row.id}`,
});

const withText = (text: string, stretch: { start: number; end: number; count: number }) => ({
  ...stretch,
  text: text.slice(stretch.start, stretch.end),
});

/** Field by field: jsonb keeps an object's keys in an order of its own. */
const samePassage = (a: TopPassage | null, b: TopPassage | null) =>
  a === b ||
  (a !== null &&
    b !== null &&
    a.start === b.start &&
    a.end === b.end &&
    a.count === b.count &&
    a.text === b.text);

/**
 * Works out the prism's top passage again inside the caller's transaction, after its responses
 * changed; when it moved, stores it (`moved`: its owner's list shows something new).
 */
export async function refreshTopPassage(
  tx: Executor,
  prismId: number,
): Promise<{ topPassage: TopPassage | null; moved: boolean }> {
  const [prism] = await tx
    .select({ content: prisms.content, topPassage: prisms.topPassage })
    .from(prisms)
    .where(eq(prisms.id, prismId));
  if (!prism) return { topPassage: null, moved: false };
  const responses = await countedResponses(tx, [prismId], false);
  const top = mostCovered(coverage(responses.map(span), true), TOP_PASSAGE_PEOPLE);
  const topPassage: TopPassage | null = top ? withText(htmlToPlainText(prism.content), top) : null;
  if (samePassage(topPassage, prism.topPassage)) return { topPassage, moved: false };
  await tx.update(prisms).set({ topPassage }).where(eq(prisms.id, prismId));
  return { topPassage, moved: true };
}

/**
 * Works out the top passages that responses written around the commands lack: those from before
 * top passages were kept, and the demo's. Run at start-up; a prism whose approved responses are
 * too few to make one is not looked at.
 */
export async function settleTopPassages(db: Db): Promise<number> {
  const unsettled = await db
    .select({ prismId: annotations.prismId })
    .from(annotations)
    .innerJoin(prisms, eq(prisms.id, annotations.prismId))
    .where(
      and(
        eq(annotations.status, "approved"),
        eq(annotations.orphaned, false),
        eq(annotations.silenced, false),
        isNull(prisms.topPassage),
      ),
    )
    .groupBy(annotations.prismId)
    .having(sql`count(*) >= ${TOP_PASSAGE_PEOPLE}`);
  let settled = 0;
  for (const { prismId } of unsettled) {
    const { topPassage } = await db.transaction((tx) => refreshTopPassage(tx, prismId));
    if (topPassage) settled += 1;
  }
  return settled;
}

/** Every day from `first` to today, with the counts of those that have one. */
function everyDay(now: Date, days: number, counts: { day: string; count: number }[]): DayCount[] {
  const byDay = new Map(counts.map((row) => [row.day, Number(row.count)]));
  return Array.from({ length: days }, (_, i) => {
    const day = utcDay(now, days - 1 - i);
    return { day, count: byDay.get(day) ?? 0 };
  });
}

/** Not the owner's own: their hearts and responses to their own prisms move nobody. */
const notBy = (author: AnyPgColumn, ownerId: number) => sql`${author} is distinct from ${ownerId}`;

const heartDay = sql<string>`to_char(${prismHearts.createdAt} at time zone 'UTC', 'YYYY-MM-DD')`;

/** The owner's (or an admin's) resonance map of one prism; 403 for anyone else. */
export async function prismResonance(
  db: Executor,
  actor: UserRow,
  prismId: number,
  now = new Date(),
): Promise<Resonance> {
  const [prism] = await db
    .select({ userId: prisms.userId })
    .from(prisms)
    .where(and(eq(prisms.id, prismId), prismsVisibleTo(actor)));
  if (!prism) throw notFound("Prism not found");
  if (!canSeeHistory(actor, prism)) throw forbidden(resonanceMessages.ownerOnly);
  const first = utcDay(now, RESONANCE_DAYS - 1);
  const [responses, hearts, views] = await Promise.all([
    countedResponses(db, [prismId], true),
    db
      .select({ day: heartDay, count: sql<number>`count(*)::int` })
      .from(prismHearts)
      .where(
        and(
          eq(prismHearts.prismId, prismId),
          gte(prismHearts.createdAt, new Date(first)),
          notBy(prismHearts.userId, prism.userId),
        ),
      )
      .groupBy(heartDay),
    db
      .select({ day: prismViews.day, count: prismViews.count })
      .from(prismViews)
      .where(and(eq(prismViews.prismId, prismId), gte(prismViews.day, first))),
  ]);
  return {
    segments: coverage(responses.map(span)),
    hearts: everyDay(now, RESONANCE_DAYS, hearts),
    views: everyDay(now, RESONANCE_DAYS, views),
  };
}

/** Adds a count to this week's or last week's, by its day. */
function tally(weeks: [WeekCounts, WeekCounts], lastWeekStart: string, thisWeekStart: string) {
  return (key: keyof WeekCounts, day: string, count: number) => {
    if (day >= thisWeekStart) weeks[0][key] += count;
    else if (day >= lastWeekStart) weeks[1][key] += count;
  };
}

/**
 * A member's "This week": readers of their page, reads of its prisms, hearts and responses against
 * the week before, and each prism's most responded passage.
 */
export async function thisWeek(db: Executor, owner: UserRow, now = new Date()): Promise<ThisWeek> {
  const owned = await db
    .select({ id: prisms.id, title: prisms.title, content: prisms.content })
    .from(prisms)
    .where(eq(prisms.userId, owner.id))
    .orderBy(asc(prisms.index));
  const ids = owned.map((prism) => prism.id);
  const weeks: [WeekCounts, WeekCounts] = [
    { readers: 0, views: 0, hearts: 0, responses: 0 },
    { readers: 0, views: 0, hearts: 0, responses: 0 },
  ];
  if (ids.length === 0) return { thisWeek: weeks[0], lastWeek: weeks[1], prisms: [] };
  const lastWeekStart = utcDay(now, 13);
  const add = tally(weeks, lastWeekStart, utcDay(now, 6));
  const since = new Date(lastWeekStart);
  const responseDay = sql<string>`to_char(${annotations.createdAt} at time zone 'UTC', 'YYYY-MM-DD')`;
  const [readers, views, hearts, received, responses] = await Promise.all([
    db
      .select({ day: pageReaders.day, count: pageReaders.count })
      .from(pageReaders)
      .where(and(eq(pageReaders.userId, owner.id), gte(pageReaders.day, lastWeekStart))),
    db
      .select({ day: prismViews.day, count: sql<number>`sum(${prismViews.count})::int` })
      .from(prismViews)
      .where(and(inArray(prismViews.prismId, ids), gte(prismViews.day, lastWeekStart)))
      .groupBy(prismViews.day),
    db
      .select({ day: heartDay, count: sql<number>`count(*)::int` })
      .from(prismHearts)
      .where(
        and(
          inArray(prismHearts.prismId, ids),
          gte(prismHearts.createdAt, since),
          notBy(prismHearts.userId, owner.id),
        ),
      )
      .groupBy(heartDay),
    db
      .select({ day: responseDay, count: sql<number>`count(*)::int` })
      .from(annotations)
      .where(
        and(
          inArray(annotations.prismId, ids),
          notInArray(annotations.status, ["rejected", "spam"]),
          gte(annotations.createdAt, since),
          notBy(annotations.userId, owner.id),
        ),
      )
      .groupBy(responseDay),
    countedResponses(db, ids, true),
  ]);
  for (const row of readers) add("readers", row.day, row.count);
  for (const row of views) add("views", row.day, Number(row.count));
  for (const row of hearts) add("hearts", row.day, Number(row.count));
  for (const row of received) add("responses", row.day, Number(row.count));
  return {
    thisWeek: weeks[0],
    lastWeek: weeks[1],
    prisms: owned.map((prism) => {
      const top = mostCovered(
        coverage(responses.filter((row) => row.prismId === prism.id).map(span)),
        1,
      );
      return {
        id: prism.id,
        title: prism.title,
        mostResponded: top ? withText(htmlToPlainText(prism.content), top) : null,
      };
    }),
  };
}
