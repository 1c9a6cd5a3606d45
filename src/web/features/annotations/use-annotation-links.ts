// Opening an annotation from outside the page: ?annotation={id} deep links, and the internal
// event a notification sends after navigating here.
import { useEffect, useRef } from "react";
import { useSearchParams } from "react-router";
import type { Annotation } from "../../../contract/annotations.ts";
import { api } from "../../lib/api.ts";
import {
  clearPendingOpen,
  OPEN_ANNOTATION_EVENT,
  type OpenAnnotationDetail,
  takePendingOpen,
} from "../../lib/events.ts";
import { toastError } from "../../lib/toast.ts";
import { DEEP_LINK_CLEAR_MS, DEEP_LINK_SCROLL_MS } from "../prisms/use-prism-deep-link.ts";

export function useAnnotationLinks(
  username: string,
  ready: boolean,
  open: (prismId: number, annotationId: number) => void,
) {
  const [params, setParams] = useSearchParams();
  const raw = params.get("annotation");
  const handled = useRef(new Set<string>());
  const timers = useRef<ReturnType<typeof setTimeout>[]>([]);
  const openRef = useRef(open);
  openRef.current = open;

  useEffect(
    () => () => {
      for (const timer of timers.current) clearTimeout(timer);
    },
    [],
  );

  useEffect(() => {
    if (!ready || raw === null || handled.current.has(raw)) return;
    handled.current.add(raw);
    const clearParam = () =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.delete("annotation");
          return next;
        },
        { replace: true, preventScrollReset: true },
      );
    if (!/^\d{1,10}$/.test(raw)) {
      toastError("Invalid annotation ID format");
      clearParam();
      return;
    }
    api
      .get<Annotation>(`/api/annotations/${raw}`, { errorPage: false })
      .then((annotation) => {
        openRef.current(annotation.prismId, annotation.id);
        timers.current.push(
          setTimeout(() => {
            document
              .getElementById(`prism-${annotation.prismId}`)
              ?.scrollIntoView({ behavior: "smooth", block: "start" });
            timers.current.push(setTimeout(clearParam, DEEP_LINK_CLEAR_MS));
          }, DEEP_LINK_SCROLL_MS),
        );
      })
      .catch(() => {
        toastError("Could not load the requested annotation");
        clearParam();
      });
  }, [ready, raw, setParams]);

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
