// The Responses sidebar: the annotations of one prism that this viewer may see.
import { useEffect } from "react";
import type { Annotation } from "../../../contract/annotations.ts";
import {
  Dialog,
  DialogDescription,
  DialogTitle,
  SheetContent,
} from "../../components/ui/dialog.tsx";
import { LoadError } from "../../components/ui/load-error.tsx";
import { cn } from "../../lib/cn.ts";
import { relativeTime } from "../../lib/format.ts";
import { DecisionButtons } from "./decision-buttons.tsx";

export function ResponsesSidebar({
  open,
  onOpenChange,
  prismTitle,
  annotations,
  loadFailed,
  onRetry,
  retrying,
  focusId,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  prismTitle: string;
  annotations: Annotation[];
  /** The prism's annotations could not be loaded: say so, with Retry, rather than "none". */
  loadFailed: boolean;
  onRetry: () => void;
  retrying: boolean;
  /** An annotation to bring into view (from a deep link or a notification). */
  focusId: number | null;
}) {
  useEffect(() => {
    if (!open || focusId === null) return;
    const timer = setTimeout(() => {
      document.getElementById(`annotation-${focusId}`)?.scrollIntoView({ block: "center" });
    }, 50);
    return () => clearTimeout(timer);
  }, [open, focusId]);

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <SheetContent>
        <div className="border-b border-border px-6 py-5 pr-14">
          <DialogTitle className="text-lg font-semibold">Responses</DialogTitle>
          <DialogDescription className="mt-1 truncate text-sm text-muted-foreground">
            {prismTitle}
          </DialogDescription>
        </div>
        <div className="flex-1 overflow-y-auto px-6 py-4">
          {loadFailed ? (
            <LoadError
              message="Failed to fetch annotations"
              onRetry={onRetry}
              retrying={retrying}
            />
          ) : annotations.length === 0 ? (
            <p className="py-10 text-center text-muted-foreground">
              No responses yet. Select a passage of this prism to respond.
            </p>
          ) : (
            <ul className="grid gap-4">
              {annotations.map((annotation) => (
                <li
                  key={annotation.id}
                  id={`annotation-${annotation.id}`}
                  className={cn(
                    "rounded-xl border border-border p-4",
                    annotation.id === focusId && "ring-2 ring-primary",
                  )}
                >
                  <div className="flex items-baseline justify-between gap-3 text-sm">
                    <span className="font-medium">
                      {annotation.isOwn ? "You" : (annotation.authorName ?? "Anonymous")}
                    </span>
                    <time
                      dateTime={annotation.createdAt}
                      className="shrink-0 text-xs text-muted-foreground"
                    >
                      {relativeTime(annotation.createdAt)}
                    </time>
                  </div>
                  <blockquote
                    className={cn(
                      "mt-2 border-l-4 pl-3 font-serif text-sm italic text-muted-foreground",
                      annotation.orphaned ? "border-border line-through" : "border-amber-300",
                    )}
                  >
                    {annotation.selectedText}
                  </blockquote>
                  {annotation.orphaned ? (
                    <p className="mt-1 text-xs text-muted-foreground">
                      This passage is no longer in the text.
                    </p>
                  ) : null}
                  <p className="mt-3 whitespace-pre-wrap text-sm">{annotation.annotationText}</p>
                  <StatusNote annotation={annotation} />
                  {annotation.canModerate ? (
                    <DecisionButtons annotationId={annotation.id} className="mt-3 flex gap-2" />
                  ) : null}
                </li>
              ))}
            </ul>
          )}
        </div>
      </SheetContent>
    </Dialog>
  );
}

function StatusNote({ annotation }: { annotation: Annotation }) {
  if (annotation.status === "pending") {
    const text = annotation.canModerate
      ? "This annotation is pending approval."
      : annotation.isOwn
        ? "Your annotation is pending approval from the Prism owner."
        : null;
    return text ? (
      <p className="mt-3 rounded-md bg-amber-50 px-3 py-2 text-xs text-amber-900">{text}</p>
    ) : null;
  }
  if (annotation.status === "rejected") {
    return (
      <p className="mt-3 rounded-md bg-muted px-3 py-2 text-xs text-muted-foreground">
        Not approved
      </p>
    );
  }
  return null;
}
