// The page-internal event that opens an annotation (sent after navigating from a notification).
// The profile page may still be loading when it is sent, so the latest request is also kept for
// a few seconds for the page to pick up when it is ready.
export const OPEN_ANNOTATION_EVENT = "prism:open-annotation";
const KEEP_MS = 5000;

export interface OpenAnnotationDetail {
  annotationId: number;
  prismId: number;
  username: string;
}

let pending: { detail: OpenAnnotationDetail; at: number } | null = null;

export function requestOpenAnnotation(detail: OpenAnnotationDetail) {
  pending = { detail, at: Date.now() };
  window.dispatchEvent(new CustomEvent<OpenAnnotationDetail>(OPEN_ANNOTATION_EVENT, { detail }));
}

/** Takes a recent request for this profile that no page has handled yet. */
export function takePendingOpen(username: string): OpenAnnotationDetail | null {
  if (!pending || Date.now() - pending.at > KEEP_MS) return null;
  if (pending.detail.username.toLowerCase() !== username.toLowerCase()) return null;
  const { detail } = pending;
  pending = null;
  return detail;
}

/** Marks a request handled by a page that was already listening. */
export function clearPendingOpen() {
  pending = null;
}
