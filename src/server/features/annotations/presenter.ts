// The one way an annotation leaves the server: what a viewer may know, never the annotator's
// e-mail or visitor hash.
import type {
  Annotation,
  AnnotationCreated,
  AnnotationReply,
  Flag,
  ResponseStatus,
  ReviewPage,
} from "../../../contract/annotations.ts";
import { displayName } from "../../../contract/names.ts";
import type { Viewer } from "../../actors.ts";
import type { annotationFlags, annotations } from "../../db/schema.ts";
import {
  canModerateAnnotations,
  isAnnotationAuthor,
  shownStatus,
  statusToAuthor,
} from "../../policy.ts";
import {
  type AnnotationView,
  authorName,
  responderName,
  type responseByStatusToken,
  type reviewQueue,
} from "./service.ts";

export function presentAnnotation(view: AnnotationView, viewer: Viewer): Annotation {
  const { row } = view;
  return {
    id: row.id,
    prismId: row.prismId,
    userId: row.userId,
    annotatorName: row.annotatorName,
    authorName: authorName(view),
    ...(row.remoteNoteUrl && { authorUrl: row.remoteNoteUrl }),
    annotationText: row.annotationText,
    selectedText: row.selectedText,
    selectionStart: row.selectionStart,
    selectionEnd: row.selectionEnd,
    status: shownStatus(viewer, row, { userId: view.prismOwnerId }),
    orphaned: row.orphaned,
    revision: row.revision,
    ...(row.orphaned && {
      originalContext: {
        before: row.contextBefore,
        passage: row.selectedText,
        after: row.contextAfter,
      },
    }),
    createdAt: row.createdAt.toISOString(),
    reply: presentReply(row),
    isOwn: isAnnotationAuthor(viewer, row),
    canModerate:
      row.status === "pending" &&
      canModerateAnnotations(viewer.user, { userId: view.prismOwnerId }),
  };
}

/**
 * A response as its author is answered when they write it: with the address of its status page
 * when they wrote it anonymously (the only time its token is told), else none.
 */
export function presentAnnotationCreated(
  view: AnnotationView,
  viewer: Viewer,
  statusToken: string | null,
): AnnotationCreated {
  return {
    ...presentAnnotation(view, viewer),
    statusUrl: statusToken ? `/responses/${statusToken}` : null,
  };
}

/** A page of the owner's review queue, each response as their panel shows it, with its prism. */
export function presentReviewPage(
  { items, nextCursor, counts }: Awaited<ReturnType<typeof reviewQueue>>,
  viewer: Viewer,
): ReviewPage {
  return {
    items: items.map(({ prismTitle, flags, ...view }) => ({
      ...presentAnnotation(view, viewer),
      prismTitle,
      reasons: view.row.signals?.reasons ?? [],
      flags,
    })),
    nextCursor,
    counts,
  };
}

/** A reader's own flag, as recorded. */
export function presentFlag(flag: typeof annotationFlags.$inferSelect): Flag {
  return {
    annotationId: flag.annotationId,
    reason: flag.reason,
    note: flag.note,
    createdAt: flag.createdAt.toISOString(),
  };
}

/** The prism owner's reply to a response, if they wrote one. */
export function presentReply(
  row: Pick<
    typeof annotations.$inferSelect,
    "replyText" | "repliedAt" | "replyUpdatedAt" | "createdAt"
  >,
): AnnotationReply | null {
  if (row.replyText === null) return null;
  return {
    text: row.replyText,
    createdAt: (row.repliedAt ?? row.createdAt).toISOString(),
    updatedAt: (row.replyUpdatedAt ?? row.createdAt).toISOString(),
  };
}

/** What a status link shows its anonymous author; never the e-mail they left. */
export function presentResponseStatus({
  row,
  prismTitle,
  owner,
}: Awaited<ReturnType<typeof responseByStatusToken>>): ResponseStatus {
  return {
    prismId: row.prismId,
    prismTitle,
    prismPath: `/${encodeURIComponent(owner.username)}?prism=${row.prismId}`,
    ownerName: displayName(owner),
    passage: row.selectedText,
    text: row.annotationText,
    authorName: responderName(row),
    status: statusToAuthor(row),
    orphaned: row.orphaned,
    createdAt: row.createdAt.toISOString(),
    reply: presentReply(row),
  };
}
