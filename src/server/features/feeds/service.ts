// What a member's page shows outside Prism, read from the database: the prisms that leave the page
// (one rule, `publishedPrisms`), a feed's member and prisms, an embed's prism or approved
// response, and which of them an oEmbed consumer's address names.
import { and, asc, eq } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { embedMessages } from "../../../contract/embeds.ts";
import { isReservedUsername, limits } from "../../../contract/limits.ts";
import { displayName, visitorName } from "../../../contract/names.ts";
import { slugify } from "../../../contract/slug.ts";
import type { Db } from "../../db/client.ts";
import { annotations, type PrismRow, prisms, type UserRow, users } from "../../db/schema.ts";
import { badRequest, notFound } from "../../http-error.ts";
import { getActiveUser } from "../users/service.ts";

/**
 * The prisms of a member's page that are read outside Prism: in feeds and in embeds. Public ones
 * alone, listed page or not (an unlisted page's link is still shared, and its feed with it);
 * every way out of Prism follows this.
 */
export async function publishedPrisms(db: Db, owner: UserRow): Promise<PrismRow[]> {
  return db
    .select()
    .from(prisms)
    .where(and(eq(prisms.userId, owner.id), eq(prisms.audience, "public")))
    .orderBy(asc(prisms.index));
}

/** A member and the prisms of theirs that leave the page, in their page's order. */
export interface Published {
  owner: UserRow;
  prisms: PrismRow[];
}

/** What `username`'s feeds and page embed show; 404 as the profile answers it. */
export async function publishedPage(db: Db, username: string): Promise<Published> {
  const owner = await getActiveUser(db, username);
  return { owner, prisms: await publishedPrisms(db, owner) };
}

/** A prism of `username`'s that leaves the page; 404 when it is not theirs, or stays at home. */
export async function publishedPrism(
  db: Db,
  username: string,
  prismId: number,
): Promise<{ owner: UserRow; prism: PrismRow }> {
  const page = await publishedPage(db, username);
  const prism = page.prisms.find((candidate) => candidate.id === prismId);
  if (!prism) throw notFound("Prism not found");
  return { owner: page.owner, prism };
}

/** An approved response as an embed shows it: who wrote it, the passage, and the owner's reply. */
export interface PublishedResponse {
  id: number;
  prismId: number;
  selectedText: string;
  annotationText: string;
  replyText: string | null;
  /** A member's name, or a visitor's chosen one marked as a visitor's; null when they gave none. */
  authorName: string | null;
}

const author = alias(users, "author");

/** An approved response; 404 for one that is pending, rejected, spam, silenced or unknown. */
async function approvedResponse(db: Db, annotationId: number): Promise<PublishedResponse> {
  const [found] = await db
    .select({
      row: annotations,
      // The id first: Drizzle reads a left-joined object as absent when its first column is null.
      author: {
        id: author.id,
        username: author.username,
        firstName: author.firstName,
        lastName: author.lastName,
        displayName: author.displayName,
      },
    })
    .from(annotations)
    .leftJoin(author, eq(author.id, annotations.userId))
    .where(
      and(
        eq(annotations.id, annotationId),
        eq(annotations.status, "approved"),
        eq(annotations.silenced, false),
      ),
    );
  if (!found) throw notFound("Annotation not found");
  const { row } = found;
  return {
    id: row.id,
    prismId: row.prismId,
    selectedText: row.selectedText,
    annotationText: row.annotationText,
    replyText: row.replyText,
    authorName: found.author ? displayName(found.author) : visitorName(row.annotatorName),
  };
}

/**
 * An approved response to a prism of `username`'s that leaves the page; 404 for one that is
 * pending, rejected, spam, unknown, or on another prism.
 */
export async function publishedResponse(
  db: Db,
  username: string,
  prismId: number,
  annotationId: number,
): Promise<{ owner: UserRow; prism: PrismRow; response: PublishedResponse }> {
  const response = await approvedResponse(db, annotationId);
  if (response.prismId !== prismId) throw notFound("Annotation not found");
  return { ...(await publishedPrism(db, username, prismId)), response };
}

/** What an embed shows: a member's page, one prism, or one approved response on a prism. */
export type Embedded =
  | ({ kind: "page" } & Published)
  | { kind: "prism"; owner: UserRow; prism: PrismRow }
  | { kind: "response"; owner: UserRow; prism: PrismRow; response: PublishedResponse };

/** A segment that could be a username; anything else is no member's page. */
const usernameShape = /^[A-Za-z0-9_-]{1,100}$/;

/** An id the page's own deep links carry, or null for anything else. */
function idOf(value: string): number | null {
  if (!/^\d{1,10}$/.test(value)) return null;
  const id = Number(value);
  return id > 0 && id <= limits.idMax ? id : null;
}

/** What the member's page at `address` opens, as its page does: a response, a prism, or itself. */
async function embeddedAt(db: Db, address: URL): Promise<Embedded> {
  const segments = address.pathname.split("/").filter(Boolean);
  let username: string;
  let slug: string | undefined;
  try {
    [username = "", slug] = segments.map(decodeURIComponent);
  } catch {
    throw notFound(embedMessages.notEmbeddable);
  }
  if (segments.length > 2 || !usernameShape.test(username) || isReservedUsername(username)) {
    throw notFound(embedMessages.notEmbeddable);
  }
  const annotation = address.searchParams.get("annotation");
  const prism = address.searchParams.get("prism");
  if (annotation !== null) {
    const response = await approvedResponse(db, idOf(annotation) ?? 0);
    const published = await publishedPrism(db, username, response.prismId);
    return { kind: "response", ...published, response };
  }
  if (prism !== null) {
    return { kind: "prism", ...(await publishedPrism(db, username, idOf(prism) ?? 0)) };
  }
  const page = await publishedPage(db, username);
  if (slug === undefined) return { kind: "page", ...page };
  // A slug opens the first prism of the page that has it.
  const bySlug = page.prisms.find((candidate) => slugify(candidate.title) === slug);
  if (!bySlug) throw notFound("Prism not found");
  return { kind: "prism", owner: page.owner, prism: bySlug };
}

/**
 * What the page at `url` shows, for an oEmbed consumer: 400 when `url` is not an address on
 * `origin`, 404 when it is no member's page, prism or approved response.
 */
export async function embeddedByUrl(db: Db, origin: string, url: string): Promise<Embedded> {
  let address: URL;
  try {
    address = new URL(url);
  } catch {
    throw badRequest(embedMessages.otherSite);
  }
  if (address.origin !== new URL(origin).origin) {
    throw badRequest(embedMessages.otherSite);
  }
  return embeddedAt(db, address);
}
