// The Responses sidebar: the annotations of one prism that this viewer may see.
import { useEffect } from "react";
import { Link } from "wouter";
import type { Annotation } from "../../../contract/annotations.ts";
import {
  Dialog,
  DialogDescription,
  DialogTitle,
  SheetContent,
} from "../../components/ui/dialog.tsx";
import { LoadError } from "../../components/ui/load-error.tsx";
import { ResponseCard } from "./response-card.tsx";

export function ResponsesSidebar({
  open,
  onOpenChange,
  prismTitle,
  annotations,
  loadFailed,
  onRetry,
  retrying,
  focusId,
  owner,
  onOpenRevision,
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
  /** The prism's owner: their name, and whether the viewer is them (and so may reply). */
  owner: { name: string; isViewer: boolean };
  /** The owner opens the version of the prism a response was made on. */
  onOpenRevision?: ((revision: number) => void) | undefined;
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
          {owner.isViewer ? (
            <Link
              to="/review"
              className="mt-2 inline-block rounded-sm text-sm font-medium text-primary underline-offset-4 hover:underline"
            >
              Review waiting responses on all your prisms
            </Link>
          ) : null}
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
                <ResponseCard
                  key={annotation.id}
                  annotation={annotation}
                  focused={annotation.id === focusId}
                  owner={owner}
                  onOpenRevision={onOpenRevision}
                  flaggable
                />
              ))}
            </ul>
          )}
        </div>
      </SheetContent>
    </Dialog>
  );
}
