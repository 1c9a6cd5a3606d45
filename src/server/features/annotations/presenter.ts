// The one way an annotation leaves the server: what a viewer may know, never the annotator's
// e-mail or visitor hash.
import type { Annotation } from "../../../contract/annotations.ts";
import { canModerateAnnotations, isAnnotationAuthor, type Viewer } from "../../policy.ts";
import { type AnnotationView, authorName } from "./service.ts";

export function presentAnnotation(view: AnnotationView, viewer: Viewer): Annotation {
  const { row } = view;
  return {
    id: row.id,
    prismId: row.prismId,
    userId: row.userId,
    annotatorName: row.annotatorName,
    authorName: authorName(view),
    annotationText: row.annotationText,
    selectedText: row.selectedText,
    selectionStart: row.selectionStart,
    selectionEnd: row.selectionEnd,
    status: row.status,
    orphaned: row.orphaned,
    createdAt: row.createdAt.toISOString(),
    isOwn: isAnnotationAuthor(viewer, row),
    canModerate:
      row.status === "pending" &&
      canModerateAnnotations(viewer.user, { userId: view.prismOwnerId }),
  };
}
