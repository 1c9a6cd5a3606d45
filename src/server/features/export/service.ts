// "Download my data": the member's whole export as a stream of JSON text, written page by page
// from keyset-paged queries so that no more than one page of rows is held at a time.
import { and, asc, count, eq, gt, ne, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import {
  type MemberExport,
  WEB_ANNOTATION_CONTEXT,
  type WebAnnotation,
} from "../../../contract/export.ts";
import { displayName } from "../../../contract/names.ts";
import { htmlToPlainText } from "../../../contract/plain-text.ts";
import type { Db } from "../../db/client.ts";
import {
  annotations,
  notifications,
  prismRevisions,
  prisms,
  type UserRow,
  users,
} from "../../db/schema.ts";
import { prismsVisibleTo } from "../../policy.ts";
import { presentReply } from "../annotations/presenter.ts";
import { presentExportedPrism } from "../prisms/presenter.ts";
import { presentCurrentUser } from "../users/presenter.ts";

/** Rows read per query: small enough that a page of the longest prisms stays a few megabytes. */
const EXPORT_PAGE = 100;

type Exported<K extends keyof MemberExport> = MemberExport[K] extends (infer T)[] ? T : never;

/** Reads rows a page at a time, each page after the last row of the one before. */
async function* paged<T>(read: (after: T | null) => Promise<T[]>): AsyncGenerator<T[]> {
  let after: T | null = null;
  for (;;) {
    const rows = await read(after);
    if (rows.length > 0) yield rows;
    if (rows.length < EXPORT_PAGE) return;
    after = rows[rows.length - 1] ?? null;
  }
}

/** `"name":[…]`, one chunk of JSON text per page. */
async function* jsonArray<T, R>(
  name: string,
  pages: AsyncGenerator<T[]>,
  present: (row: T) => R,
): AsyncGenerator<string> {
  yield `,${JSON.stringify(name)}:[`;
  let separator = "";
  for await (const rows of pages) {
    yield separator + rows.map((row) => JSON.stringify(present(row))).join(",");
    separator = ",";
  }
  yield "]";
}

const author = alias(users, "author");
const owner = alias(users, "owner");

/** Annotations with their prism, its owner and their writer, matching `where`, by id. */
function annotationPages(db: Db, where: SQL | undefined) {
  return paged((after: { row: { id: number } } | null) =>
    db
      .select({
        row: annotations,
        prismTitle: prisms.title,
        ownerUsername: owner.username,
        author: {
          username: author.username,
          displayName: author.displayName,
          firstName: author.firstName,
          lastName: author.lastName,
        },
      })
      .from(annotations)
      .innerJoin(prisms, eq(prisms.id, annotations.prismId))
      .innerJoin(owner, eq(owner.id, prisms.userId))
      .leftJoin(author, eq(author.id, annotations.userId))
      .where(and(where, after ? gt(annotations.id, after.row.id) : undefined))
      .orderBy(asc(annotations.id))
      .limit(EXPORT_PAGE),
  );
}
type AnnotationExportRow =
  ReturnType<typeof annotationPages> extends AsyncGenerator<(infer T)[]> ? T : never;

function exportUrls(origin: string) {
  const profile = (username: string) => `${origin}/${encodeURIComponent(username)}`;
  return {
    profile,
    prism: (username: string, prismId: number) => `${profile(username)}?prism=${prismId}`,
    annotation: (username: string, annotationId: number) =>
      `${profile(username)}?annotation=${annotationId}`,
  };
}

type ExportUrls = ReturnType<typeof exportUrls>;

/**
 * The annotations on the member's prisms (but a silenced member's, shown to its author and admins
 * alone), and those they wrote on others' that they may still see (a prism that left their sight
 * takes its title and passages with it).
 */
function annotationsOf(user: UserRow) {
  return {
    received: and(eq(prisms.userId, user.id), eq(annotations.silenced, false)),
    written: and(
      eq(annotations.userId, user.id),
      ne(prisms.userId, user.id),
      prismsVisibleTo(user),
    ),
  };
}

function exportedAnnotation(
  urls: ExportUrls,
  view: AnnotationExportRow,
): Exported<"annotationsReceived"> {
  return {
    id: view.row.id,
    prismId: view.row.prismId,
    prismTitle: view.prismTitle,
    prismUrl: urls.prism(view.ownerUsername, view.row.prismId),
    authorName: view.author ? displayName(view.author) : view.row.annotatorName,
    authorUsername: view.author?.username ?? null,
    selectedText: view.row.selectedText,
    annotationText: view.row.annotationText,
    selectionStart: view.row.selectionStart,
    selectionEnd: view.row.selectionEnd,
    status: view.row.status,
    orphaned: view.row.orphaned,
    revision: view.row.revision,
    createdAt: view.row.createdAt.toISOString(),
    reply: presentReply(view.row),
  };
}

function webAnnotation(urls: ExportUrls, view: AnnotationExportRow): WebAnnotation {
  const name = view.author ? displayName(view.author) : view.row.annotatorName;
  return {
    id: urls.annotation(view.ownerUsername, view.row.id),
    type: "Annotation",
    motivation: "commenting",
    created: view.row.createdAt.toISOString(),
    ...(name ? { creator: { type: "Person" as const, name } } : {}),
    body: {
      type: "TextualBody",
      value: view.row.annotationText,
      format: "text/plain",
      purpose: "commenting",
    },
    target: {
      source: urls.prism(view.ownerUsername, view.row.prismId),
      selector: [
        {
          type: "TextQuoteSelector",
          exact: view.row.selectedText,
          prefix: view.row.prefix,
          suffix: view.row.suffix,
        },
        {
          type: "TextPositionSelector",
          start: view.row.selectionStart,
          end: view.row.selectionEnd,
        },
      ],
    },
  };
}

/** `"webAnnotations":…`, the same annotations received and written as a Web Annotation collection. */
async function* webAnnotations(db: Db, user: UserRow, urls: ExportUrls): AsyncGenerator<string> {
  const { received, written } = annotationsOf(user);
  const [totals] = await db
    .select({ received: count() })
    .from(annotations)
    .innerJoin(prisms, eq(prisms.id, annotations.prismId))
    .where(received);
  const [writtenTotals] = await db
    .select({ written: count() })
    .from(annotations)
    .innerJoin(prisms, eq(prisms.id, annotations.prismId))
    .where(written);

  const collection = {
    "@context": WEB_ANNOTATION_CONTEXT,
    id: `${urls.profile(user.username)}#annotations`,
    type: "AnnotationCollection",
    label: `Annotations on and by @${user.username} on Prism`,
    total: (totals?.received ?? 0) + (writtenTotals?.written ?? 0),
  };
  yield `,"webAnnotations":${JSON.stringify(collection).slice(0, -1)},"first":{"type":"AnnotationPage","startIndex":0,"items":[`;
  let separator = "";
  for (const where of [received, written]) {
    for await (const rows of annotationPages(db, where)) {
      yield separator + rows.map((row) => JSON.stringify(webAnnotation(urls, row))).join(",");
      separator = ",";
    }
  }
  yield "]}}}";
}

/** The member's data as JSON text, in chunks; see memberExportSchema for what it adds up to. */
export async function* memberExport(db: Db, user: UserRow, origin: string): AsyncGenerator<string> {
  const urls = exportUrls(origin);
  const { received, written } = annotationsOf(user);
  yield `{"format":"prism-export","version":1,"exportedAt":${JSON.stringify(new Date().toISOString())}`;
  yield `,"account":${JSON.stringify(presentCurrentUser(user))}`;

  yield* jsonArray(
    "prisms",
    paged((after: { index: number } | null) =>
      db
        .select()
        .from(prisms)
        .where(and(eq(prisms.userId, user.id), after ? gt(prisms.index, after.index) : undefined))
        .orderBy(asc(prisms.index))
        .limit(EXPORT_PAGE),
    ),
    (prism) => presentExportedPrism(prism, urls.prism(user.username, prism.id)),
  );
  yield* jsonArray(
    "revisions",
    paged((after: { id: number } | null) =>
      db
        .select({
          id: prismRevisions.id,
          prismId: prismRevisions.prismId,
          number: prismRevisions.number,
          title: prismRevisions.title,
          content: prismRevisions.content,
          createdAt: prismRevisions.createdAt,
        })
        .from(prismRevisions)
        .innerJoin(prisms, eq(prisms.id, prismRevisions.prismId))
        .where(and(eq(prisms.userId, user.id), after ? gt(prismRevisions.id, after.id) : undefined))
        .orderBy(asc(prismRevisions.id))
        .limit(EXPORT_PAGE),
    ),
    (row): Exported<"revisions"> => ({
      prismId: row.prismId,
      number: row.number,
      title: row.title,
      html: row.content,
      text: htmlToPlainText(row.content),
      createdAt: row.createdAt.toISOString(),
    }),
  );
  yield* jsonArray("annotationsReceived", annotationPages(db, received), (view) =>
    exportedAnnotation(urls, view),
  );
  yield* jsonArray("annotationsWritten", annotationPages(db, written), (view) =>
    exportedAnnotation(urls, view),
  );
  yield* jsonArray(
    "notifications",
    paged((after: { id: number } | null) =>
      db
        .select({
          id: notifications.id,
          type: notifications.type,
          prismId: notifications.prismId,
          prismTitle: prisms.title,
          actorName: notifications.actorName,
          annotationId: notifications.annotationId,
          read: notifications.read,
          createdAt: notifications.createdAt,
        })
        .from(notifications)
        .innerJoin(prisms, eq(prisms.id, notifications.prismId))
        .where(
          and(
            eq(notifications.userId, user.id),
            prismsVisibleTo(user),
            after ? gt(notifications.id, after.id) : undefined,
          ),
        )
        .orderBy(asc(notifications.id))
        .limit(EXPORT_PAGE),
    ),
    (row): Exported<"notifications"> => ({ ...row, createdAt: row.createdAt.toISOString() }),
  );

  yield* webAnnotations(db, user, urls);
}
