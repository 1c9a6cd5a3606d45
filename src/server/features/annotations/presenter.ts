import type { Annotation } from "../../../contract/annotations.ts";
import { canModerateAnnotations } from "../../policy.ts";
import { type AnnotationView, authorName, isOwn, type Viewer } from "./service.ts";

/** What a viewer may know of an annotation: never the annotator's e-mail or visitor hash. */
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
    isOwn: isOwn(row, viewer),
    canModerate:
      row.status === "pending" &&
      canModerateAnnotations(viewer.user, { userId: view.prismOwnerId }),
  };
}
