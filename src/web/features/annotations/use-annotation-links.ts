// Opening an annotation from outside the page: ?annotation={id} deep links, and the internal
// event a notification sends after navigating here.
import { useEffect, useRef } from "react";
import { toastError } from "../../lib/toast.ts";
import { useDeepLinkParam } from "../prisms/use-prism-deep-link.ts";
import { useFetchAnnotation } from "./annotation-queries.ts";
import {
  clearPendingOpen,
  OPEN_ANNOTATION_EVENT,
  type OpenAnnotationDetail,
  takePendingOpen,
} from "./open-annotation.ts";

export function useAnnotationLinks(
  username: string,
  ready: boolean,
  open: (prismId: number, annotationId: number) => void,
) {
  const { value: raw, clear, reveal } = useDeepLinkParam("annotation");
  const fetchAnnotation = useFetchAnnotation();
  const handled = useRef(new Set<string>());
  const openRef = useRef(open);
  openRef.current = open;

  useEffect(() => {
    if (!ready || raw === null || handled.current.has(raw)) return;
    handled.current.add(raw);
    if (!/^\d{1,10}$/.test(raw)) {
      toastError("Invalid annotation ID format");
      clear();
      return;
    }
    fetchAnnotation(Number(raw))
      .then((annotation) => {
        openRef.current(annotation.prismId, annotation.id);
        reveal(annotation.prismId, true);
      })
      .catch(() => {
        toastError("Could not load the requested annotation");
        clear();
      });
  }, [ready, raw, clear, reveal, fetchAnnotation]);

  useEffect(() => {
    if (!ready) return;
    const waiting = takePendingOpen(username);
    if (waiting) openRef.current(waiting.prismId, waiting.annotationId);
    const handle = (event: Event) => {
      const detail = (event as CustomEvent<OpenAnnotationDetail>).detail;
      if (detail && detail.username.toLowerCase() === username.toLowerCase()) {
        clearPendingOpen();
        openRef.current(detail.prismId, detail.annotationId);
      }
    };
    window.addEventListener(OPEN_ANNOTATION_EVENT, handle);
    return () => window.removeEventListener(OPEN_ANNOTATION_EVENT, handle);
  }, [ready, username]);
}
