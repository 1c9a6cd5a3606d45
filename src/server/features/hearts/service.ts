// Hearts: one per member or anonymous visitor per prism, counted exactly.
import { and, eq, type SQL, sql } from "drizzle-orm";
import type { Audience } from "../../../contract/audiences.ts";
import type { PrismEvent } from "../../../contract/events.ts";
import type { Participant } from "../../actors.ts";
import type { Db, Executor } from "../../db/client.ts";
import { param, prepared, preparedSql } from "../../db/prepared.ts";
import { prismHearts, prisms, type UserRow, users } from "../../db/schema.ts";
import { notFound } from "../../http-error.ts";
import { eventSql, notificationSql, type StatementNames } from "../../live/bus.ts";
import { liveOwner, prismHearersSql, prismsVisibleTo, viewerKind } from "../../policy.ts";

/** Statements for the participant's own heart on a prism, by member id or by visitor hash. */
function ownHeart(db: Db, column: typeof prismHearts.userId | typeof prismHearts.visitorHash) {
  return db
    .select({ id: prismHearts.id })
    .from(prismHearts)
    .where(
      and(
        eq(prismHearts.prismId, sql.placeholder("prismId")),
        eq(column, sql.placeholder("participant")),
      ),
    )
    .limit(1)
    .prepare(`heart_by_${column.name}`);
}

function statements(db: Db) {
  return prepared(db, "heart_status", () => ({
    count: db
      .select({
        heartsCount: prisms.heartsCount,
        owner: users.username,
        ownerId: prisms.userId,
        audience: prisms.audience,
      })
      .from(prisms)
      .innerJoin(users, liveOwner)
      .where(eq(prisms.id, sql.placeholder("prismId")))
      .prepare("heart_count"),
    byUser: ownHeart(db, prismHearts.userId),
    byVisitor: ownHeart(db, prismHearts.visitorHash),
  }));
}

/** A prism's heart count, with its owner and who may see it. */
export async function heartCount(db: Db, prismId: number): Promise<HeartCount> {
  const [prism] = await statements(db).count.execute({ prismId });
  if (!prism) throw notFound("Prism not found");
  return prism;
}

export interface HeartCount {
  heartsCount: number;
  owner: string;
  ownerId: number;
  audience: Audience;
}

/** Whether the participant hearted the prism. */
export async function hasHearted(
  db: Db,
  prismId: number,
  participant: Participant,
): Promise<boolean> {
  const { byUser, byVisitor } = statements(db);
  const [mine] =
    "user" in participant
      ? await byUser.execute({ prismId, participant: participant.user.id })
      : await byVisitor.execute({ prismId, participant: participant.visitorHash });
  return mine !== undefined;
}

interface HeartToggle {
  hearted: boolean;
  heartsCount: number;
  /** What the statement announced: the new count, and the owner's notification if one was made. */
  events: PrismEvent[];
}

interface ToggleRow {
  added: boolean;
  heartsCount: number | null;
  heartChanged: PrismEvent | null;
  notificationCreated: PrismEvent | null;
}

/** The heart statement's events, from its relations `prism` (with its owner) and `counted`. */
const heartChanged = eventSql("heart.changed", {
  prismId: sql`prism.id`,
  heartsCount: sql`counted.hearts_count`,
  username: sql`prism.username`,
  audience: prismHearersSql(sql`prism.user_id`, sql`prism.audience`),
});
const notificationCreated = eventSql("notification.created", { userId: sql`prism.user_id` });

/**
 * Flips the participant's heart on a prism, moves its count and, for a new heart from someone
 * other than the owner, tells the owner once per actor and prism (`notifyOfHeart`), and makes the
 * NOTIFY of its events (`notificationSql`, named by the event bus) and returns them: one prepared
 * statement, so one round trip and its own transaction, written once for each kind of viewer.
 * The prism's row is locked from the count's update to the commit and every heart on the prism
 * waits for it, so nothing else happens in between.
 *
 * The commit does not wait for the disk (`synchronous_commit` off for this transaction only):
 * the lock is then held for microseconds instead of a disk flush, which is what lets one prism
 * take thousands of hearts a second. Should the database server crash, the last fraction of a
 * second of hearts may be lost, each whole (heart, count and notification commit together), so
 * counts stay exact; nothing else Prism writes is committed this way.
 *
 * Neither insert nor delete happens when another toggle of the same heart committed after this
 * statement began (the heart was there for the insert, invisible to the delete): then it runs
 * again and flips it, as it would have one after the other. Each round follows a committed
 * change of that heart, so it ends.
 */
export async function toggleHeart(
  db: Db,
  prismId: number,
  participant: Participant,
  /** The names of the events it announces (`EventBus.statement`). */
  names: StatementNames,
  /** The insert that tells the owner of a new heart (the notifications' own, `notifyOfHeart`). */
  notifyOwner: { insert: SQL; values: Record<string, unknown> },
): Promise<HeartToggle> {
  const viewer = "user" in participant ? participant.user : null;
  const statement = toggleStatement(db, viewer, notifyOwner.insert);
  const values = {
    ...names,
    ...notifyOwner.values,
    prismId,
    participant: "user" in participant ? participant.user.id : participant.visitorHash,
  };
  for (;;) {
    const [row] = await statement.execute(values);
    if (!row) throw notFound("Prism not found");
    if (row.heartsCount === null) continue;
    return {
      hearted: row.added,
      heartsCount: row.heartsCount,
      events: [row.heartChanged, row.notificationCreated].filter((event) => event !== null),
    };
  }
}

/**
 * `toggleHeart`'s statement for a kind of viewer (`viewerKind`), written once: its values are
 * the prism (`prismId`), the participant (`participant`: a member's id or a visitor's hash), the
 * owner's notice's and the events' names. `notifyOwner` is the same SQL on every call
 * (`notifyOfHeart`'s), so the first call's is the one written.
 */
function toggleStatement(db: Db, viewer: UserRow | null, notifyOwner: SQL) {
  const kind = viewerKind(viewer);
  return preparedSql<ToggleRow>(db, `heart_toggle_${kind}`, () => {
    const prismId = param("prismId", "int");
    const [userId, visitorHash] =
      kind === "visitor"
        ? [sql`null::int`, param("participant", "text")]
        : [param("participant", "int"), sql`null::text`];
    const own =
      kind === "visitor"
        ? sql`${prismHearts.visitorHash} = ${visitorHash}`
        : sql`${prismHearts.userId} = ${userId}`;
    return sql`
      with durability as materialized (
        select set_config('synchronous_commit', 'off', true)
      ), prism as (
        select ${prisms.id}, ${prisms.userId}, ${prisms.audience}, ${users.username} from ${prisms}
        join ${users} on ${liveOwner}
        where ${prisms.id} = ${prismId} and ${prismsVisibleTo(viewer, userId)}
      ), added as (
        insert into ${prismHearts} (prism_id, user_id, visitor_hash)
        select id, ${userId}, ${visitorHash} from prism
        on conflict do nothing
        returning user_id
      ), removed as (
        delete from ${prismHearts}
        where ${prismHearts.prismId} = ${prismId} and ${own} and not exists (select from added)
        returning 1
      ), counted as (
        update ${prisms}
        set hearts_count = hearts_count + (select count(*) from added) - (select count(*) from removed)
        where ${prisms.id} = ${prismId}
          and (exists (select from added) or exists (select from removed))
        returning hearts_count
      ), notified as (
        ${notifyOwner}
      )
      select
        exists (select from added) as added,
        (select hearts_count from counted) as "heartsCount",
        (select ${heartChanged} from counted) as "heartChanged",
        (select ${notificationCreated} from notified) as "notificationCreated",
        (select ${notificationSql(heartChanged)} from counted) as "heartAnnounced",
        (select ${notificationSql(notificationCreated)} from notified) as "notificationAnnounced"
      from prism, durability`;
  });
}

/**
 * Takes a member's hearts out of the counts of the prisms they hearted (the heart rows go with
 * the member, by cascade). Returns those prisms with their new counts and owners.
 */
export async function uncountHeartsOf(
  tx: Executor,
  userId: number,
): Promise<{ prismId: number; heartsCount: number; ownerId: number }[]> {
  const given = tx
    .select({ prismId: prismHearts.prismId, n: sql<number>`count(*)::int`.as("n") })
    .from(prismHearts)
    .where(eq(prismHearts.userId, userId))
    .groupBy(prismHearts.prismId)
    .as("given");
  return tx
    .update(prisms)
    .set({ heartsCount: sql`greatest(${prisms.heartsCount} - ${given.n}, 0)` })
    .from(given)
    .where(eq(prisms.id, given.prismId))
    .returning({ prismId: prisms.id, heartsCount: prisms.heartsCount, ownerId: prisms.userId });
}
