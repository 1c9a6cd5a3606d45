// Reports from other servers: a `Flag` names a member's actor, one of their prisms (its
// `Article`, or its page) or a response on one (a reply that came from the fediverse, by its
// note, or the owner's answer to one), with the reporter's comment. It is kept for Catalyst, about
// the member it concerns, until an admin dismisses it.
import { Article, Note } from "@fedify/fedify/vocab";
import { and, eq, isNull } from "drizzle-orm";
import type { Db, Executor } from "../../db/client.ts";
import { annotations, federationReports, prisms, users } from "../../db/schema.ts";
import { notFound } from "../../http-error.ts";
import type { FederationContext } from "./objects.ts";

/** The longest comment kept, in characters: a report's reason, not an essay. */
export const REPORT_COMMENT_MAX = 2000;

/** What a report is about: the member, and the prism or response it names when it names one. */
export interface ReportTarget {
  userId: number;
  prismId: number | null;
  annotationId: number | null;
}

const numeric = (value: string | undefined) =>
  value && /^\d{1,9}$/.test(value) ? Number(value) : null;

/** What one object of a `Flag` names on Prism, when it names something here. */
async function targetOf(
  ctx: FederationContext,
  db: Db,
  address: URL,
): Promise<ReportTarget | null> {
  const parsed = ctx.parseUri(address);
  if (parsed?.type === "actor") {
    const userId = numeric(parsed.identifier);
    const [user] = userId === null ? [] : await db.select().from(users).where(eq(users.id, userId));
    return user ? { userId: user.id, prismId: null, annotationId: null } : null;
  }
  const prismId =
    parsed?.type === "object" && parsed.class === Article
      ? numeric(parsed.values.id)
      : address.origin === ctx.origin
        ? numeric(address.searchParams.get("prism") ?? undefined)
        : null;
  if (prismId !== null) {
    const [prism] = await db.select().from(prisms).where(eq(prisms.id, prismId));
    return prism ? { userId: prism.userId, prismId: prism.id, annotationId: null } : null;
  }
  const annotationId =
    parsed?.type === "object" && parsed.class === Note ? numeric(parsed.values.id) : null;
  const [response] = await db
    .select({ id: annotations.id, prismId: prisms.id, userId: prisms.userId })
    .from(annotations)
    .innerJoin(prisms, eq(prisms.id, annotations.prismId))
    .where(
      annotationId === null
        ? eq(annotations.remoteNoteId, address.href)
        : eq(annotations.id, annotationId),
    )
    .limit(1);
  return response
    ? { userId: response.userId, prismId: response.prismId, annotationId: response.id }
    : null;
}

/**
 * What a `Flag`'s objects name here: the member (the first named, directly or by what is
 * theirs), with the first of their prisms and responses it names; null when it names nothing here.
 */
export async function reportTarget(
  ctx: FederationContext,
  db: Db,
  objects: URL[],
): Promise<ReportTarget | null> {
  const found: ReportTarget[] = [];
  for (const address of objects.slice(0, 20)) {
    const target = await targetOf(ctx, db, address);
    if (target) found.push(target);
  }
  const [first] = found;
  if (!first) return null;
  const theirs = found.filter((target) => target.userId === first.userId);
  return {
    userId: first.userId,
    prismId: theirs.find((target) => target.prismId !== null)?.prismId ?? null,
    annotationId: theirs.find((target) => target.annotationId !== null)?.annotationId ?? null,
  };
}

/** A report as the inbox received it. */
export interface NewReport extends ReportTarget {
  activityId: string;
  reporterActorId: string;
  reporterDomain: string;
  objects: string[];
  comment: string;
}

/** An admin dismisses an open report; 404 when there is none open by that id. */
export async function dismissReport(db: Executor, id: number) {
  const [dismissed] = await db
    .update(federationReports)
    .set({ dismissedAt: new Date() })
    .where(and(eq(federationReports.id, id), isNull(federationReports.dismissedAt)))
    .returning();
  if (!dismissed) throw notFound("Report not found");
  const [member] = await db
    .select({ username: users.username })
    .from(users)
    .where(eq(users.id, dismissed.userId));
  return { report: dismissed, username: member?.username ?? "" };
}

/** Keeps a report (once, however often its `Flag` is delivered); whether it is new. */
export async function addReport(db: Executor, report: NewReport): Promise<boolean> {
  const inserted = await db
    .insert(federationReports)
    .values({ ...report, comment: report.comment.slice(0, REPORT_COMMENT_MAX) })
    .onConflictDoNothing()
    .returning({ id: federationReports.id });
  return inserted.length > 0;
}
