// The longest data a member can give Prism, for the small-screen stories: names and usernames
// at their limits, a prism whose title is long and whose text holds a 200-character word and a
// long URL, a response on it, a pending response with its notification, and a like.
import { eq } from "drizzle-orm";
import { limits } from "../../src/contract/limits.ts";
import type { Database } from "../../src/server/db/client.ts";
import { annotations, notifications, prisms, users } from "../../src/server/db/schema.ts";
import type { Member } from "./fixtures.ts";

/** A word with no place to break it. */
export const LONG_WORD = "Pneumonoultramicroscopic".repeat(9).slice(0, 200);
export const LONG_URL = `https://example.com/${"a-very-long-path-segment-".repeat(12)}end?query=${"x".repeat(80)}`;
export const LONG_TITLE =
  "What I need from the people I work with when the deadline is tomorrow and the plan changed again this morning";
const LONG_NAME = "Wolfeschlegelsteinhausenbergerdorffvoralternwarengewissenhaft";

/** A member with a username of the longest length allowed; admin when `isAdmin`. */
export function longMember(isAdmin = false): Member {
  const suffix = Math.random().toString(36).slice(2, 8);
  const username = `${"longname".repeat(3)}_${suffix}`.slice(0, limits.usernameMax);
  return {
    username,
    email: `${username}@example.com`,
    firstName: LONG_NAME,
    lastName: `${LONG_NAME}-${LONG_NAME}`,
    isAdmin,
  };
}

/**
 * Gives `owner` long links, a display name, one long prism (with an approved response from
 * `responder`, a pending one and their notifications), and returns the prism.
 */
export async function addLongData(
  database: Database,
  owner: { id: number; username: string },
  responder: { id: number },
) {
  const { db } = database;
  await db
    .update(users)
    .set({
      displayName: `${LONG_NAME} the Unbreakable`,
      websiteUrl: LONG_URL,
      twitterUrl: "https://x.com/prism",
      linkedinUrl: "https://www.linkedin.com/in/prism",
      lastActiveAt: new Date(),
    })
    .where(eq(users.id, owner.id));
  const text = `Mornings are for deep work. ${LONG_WORD} and then ${LONG_URL} says the rest.`;
  const [prism] = await db
    .insert(prisms)
    .values({
      userId: owner.id,
      title: LONG_TITLE,
      content: `<p>${text.replace(LONG_URL, `<a href="${LONG_URL}" target="_blank" rel="noopener noreferrer nofollow ugc">${LONG_URL}</a>`)}</p>`,
      index: 0,
      heartsCount: 1,
    })
    .returning();
  if (!prism) throw new Error("no prism");
  await db.insert(prisms).values({
    userId: owner.id,
    title: `${LONG_WORD.slice(0, 120)} second`,
    content: "<p>Plain words.</p>",
    index: 1,
  });
  const quote = "Mornings";
  const response = {
    prismId: prism.id,
    selectedText: quote,
    selectionStart: 0,
    selectionEnd: quote.length,
    prismTitle: prism.title,
  };
  const [, pending] = await db
    .insert(annotations)
    .values([
      {
        ...response,
        userId: responder.id,
        annotationText: `Same here. ${LONG_WORD}`,
        status: "approved" as const,
      },
      {
        ...response,
        annotatorName: LONG_NAME,
        annotationText: `A thought from afar: ${LONG_URL}`,
        status: "pending" as const,
      },
    ])
    .returning();
  await db.insert(notifications).values([
    {
      userId: owner.id,
      prismId: prism.id,
      type: "annotation" as const,
      actorName: LONG_NAME,
      annotationId: pending?.id ?? null,
    },
    { userId: owner.id, prismId: prism.id, type: "heart" as const, actorName: LONG_NAME },
  ]);
  return prism;
}
