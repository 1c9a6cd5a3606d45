// Where a new response lands, by what its author is and what the prism's owner chose in Profile
// Settings: approved at once (members, or teammates, when the owner pre-approves them), waiting
// for review, or set aside as spam; and whether it is silenced (its author is).
import { aliasedTable, and, eq, sql } from "drizzle-orm";
import type { AnnotationCreate, AnnotationStatus } from "../../../contract/annotations.ts";
import type { Participant } from "../../actors.ts";
import type { Executor } from "../../db/client.ts";
import {
  annotations,
  type PrismRow,
  prisms,
  type ResponseSignals,
  teamMembers,
  users,
} from "../../db/schema.ts";
import { liveOwner } from "../../policy.ts";
import { ownerVerdict } from "./spam-model.ts";
import { type AuthorHistory, hasLink, SPAM_SCORE, scoreResponse } from "./spam-score.ts";

/** What the prism's owner chose for the responses to their prisms. */
export interface OwnerRules {
  preapproveMembers: boolean;
  preapproveTeammates: boolean;
  anonymousResponses: "check" | "hold" | "members";
  anonymousLinks: "allowed" | "held" | "spam";
  watchedWords: string[];
}

/** The owner's rules, as `createAnnotation` selects them with the prism. */
export const ownerRuleColumns = {
  preapproveMembers: users.preapproveMembers,
  preapproveTeammates: users.preapproveTeammates,
  anonymousResponses: users.anonymousResponses,
  anonymousLinks: users.anonymousLinks,
  watchedWords: users.watchedWords,
};

/** Letters, digits and marks: what a watched word must not run on into. */
const WORD_CHAR = "[\\p{L}\\p{N}\\p{M}_]";
/** The word as a pattern: its characters taken literally, any run of spaces within a phrase as one. */
const literally = (word: string) =>
  word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/\s+/g, "\\s+");

/** The first of the watched words (or phrases) the text holds as a whole word, in any case. */
export function watchedWordIn(text: string, words: string[]): string | undefined {
  return words.find((word) =>
    new RegExp(`(?<!${WORD_CHAR})${literally(word)}(?!${WORD_CHAR})`, "iu").test(text),
  );
}

interface Landing {
  status: AnnotationStatus;
  signals: ResponseSignals | null;
}

/**
 * Where a new response lands. A member's is approved at once when the owner pre-approves members,
 * or pre-approves teammates (the default) and shares a team with them, unless it holds a watched
 * word; else it waits. One without an account is scored (see spam-score.ts; its links weigh
 * nothing when the owner allows them; the owner's own content classifier, spam-model.ts, has its
 * say once it has learnt enough): scoring SPAM_SCORE or more
 * it is set aside as spam, unless the owner holds all of them for review; a link makes it spam
 * when the owner said so. Its score and reasons (a watched word among them) are kept beside its
 * person check's signals for the owner's review queue.
 */
export async function landingOf(
  tx: Executor,
  response: {
    participant: Participant;
    prism: PrismRow;
    input: AnnotationCreate;
    signals: ResponseSignals | null;
  },
  owner: OwnerRules,
): Promise<Landing> {
  const { participant, prism, input, signals } = response;
  const text = input.annotationText;
  const watched = watchedWordIn(text, owner.watchedWords);
  if ("user" in participant) {
    const preapproved =
      owner.preapproveMembers ||
      (owner.preapproveTeammates && (await sharesATeam(tx, participant.user.id, prism.userId)));
    return { status: preapproved && !watched ? "approved" : "pending", signals };
  }
  const history = await authorHistory(tx, participant.visitorHash, prism.userId);
  const scored = scoreResponse(text, signals ?? { typingMs: 0 }, history, {
    links: owner.anonymousLinks !== "allowed",
    content: await ownerVerdict(tx, prism.userId, text),
  });
  const reasons = watched ? [...scored.reasons, `Has a watched word: ${watched}`] : scored.reasons;
  const spam =
    (owner.anonymousLinks === "spam" && hasLink(text)) ||
    (owner.anonymousResponses !== "hold" && scored.score >= SPAM_SCORE);
  return {
    status: spam ? "spam" : "pending",
    signals: signals && { ...signals, score: scored.score, reasons },
  };
}

/** Whether the member and the prism's owner are in a team together. */
async function sharesATeam(tx: Executor, userId: number, ownerId: number): Promise<boolean> {
  const theirs = aliasedTable(teamMembers, "theirs");
  const [row] = await tx
    .select({ teamId: teamMembers.teamId })
    .from(teamMembers)
    .innerJoin(theirs, and(eq(theirs.teamId, teamMembers.teamId), eq(theirs.userId, ownerId)))
    .where(eq(teamMembers.userId, userId))
    .limit(1);
  return row !== undefined;
}

/** What a browser's earlier responses to an owner's prisms became, by status. */
async function authorHistory(
  tx: Executor,
  visitorHash: string,
  ownerId: number,
): Promise<AuthorHistory> {
  const rows = await tx
    .select({ status: annotations.status, count: sql<number>`count(*)::int` })
    .from(annotations)
    .innerJoin(prisms, eq(prisms.id, annotations.prismId))
    .where(and(eq(annotations.visitorHash, visitorHash), eq(prisms.userId, ownerId)))
    .groupBy(annotations.status);
  const count = (status: AnnotationStatus) => rows.find((row) => row.status === status)?.count ?? 0;
  return { approved: count("approved"), rejected: count("rejected"), spam: count("spam") };
}

/** Whether the member is silenced now (read in the response's transaction, not from the session). */
export async function isSilenced(tx: Executor, userId: number): Promise<boolean> {
  const [row] = await tx
    .select({ silencedAt: users.silencedAt })
    .from(users)
    .where(eq(users.id, userId));
  return row?.silencedAt != null;
}

/**
 * Whether the owner of the prism takes responses from people without an account: asked before
 * the person check, so that a visitor is told to sign in rather than to solve a check in vain.
 */
export async function ownerTakesAnonymous(db: Executor, prismId: number): Promise<boolean> {
  const [row] = await db
    .select({ anonymousResponses: users.anonymousResponses })
    .from(prisms)
    .innerJoin(users, liveOwner)
    .where(eq(prisms.id, prismId));
  // A prism that is not there (or whose owner's page is gone) is answered later, as 404.
  return row?.anonymousResponses !== "members";
}
