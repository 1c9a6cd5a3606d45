// One response as a prism's page lists it: who wrote it and when, the passage, the thought, where
// it stands, and Approve and Reject for whoever may decide it.
import { History } from "lucide-react";
import type { Annotation, OriginalContext } from "../../../contract/annotations.ts";
import { Button } from "../../components/ui/button.tsx";
import { cn } from "../../lib/cn.ts";
import { RelativeTime } from "../../lib/format.tsx";
import type { DecideAnnotation } from "./annotation-queries.ts";
import { DecisionButtons } from "./decision-buttons.tsx";
import { FlagButton } from "./flag-dialog.tsx";
import { OwnerReply } from "./owner-reply.tsx";

export function ResponseCard({
  annotation,
  focused = false,
  decide,
  owner,
  onOpenRevision,
  flaggable = false,
}: {
  annotation: Annotation;
  /** Readers may flag it (on a prism's page; not in the landing page's example). */
  flaggable?: boolean;
  /** The prism's owner, whose reply shows under the response; absent where replies are not kept. */
  owner?: { name: string; isViewer: boolean };
  /** Marked as the response the reader was brought to, and focusable for the page to focus it. */
  focused?: boolean;
  /** How a decision is made; Prism stores it unless this says otherwise. */
  decide?: DecideAnnotation;
  /** The owner opens the version of the prism the response was made on. */
  onOpenRevision?: ((revision: number) => void) | undefined;
}) {
  return (
    <li
      id={`annotation-${annotation.id}`}
      tabIndex={focused ? -1 : undefined}
      className={cn(
        "rounded-xl border border-border p-4 focus-visible:outline-none",
        focused && "ring-2 ring-primary",
      )}
    >
      <div className="flex items-baseline justify-between gap-3 text-sm">
        <span className="font-medium">
          {annotation.isOwn ? (
            "You"
          ) : annotation.authorUrl ? (
            <a
              href={annotation.authorUrl}
              rel="nofollow noopener noreferrer ugc"
              target="_blank"
              className="underline-offset-2 hover:underline"
            >
              {annotation.authorName ?? "Anonymous"}
            </a>
          ) : (
            (annotation.authorName ?? "Anonymous")
          )}
        </span>
        <RelativeTime
          iso={annotation.createdAt}
          className="shrink-0 text-xs text-muted-foreground"
        />
      </div>
      {annotation.originalContext ? (
        <EarlierPassage
          context={annotation.originalContext}
          onOpen={onOpenRevision && (() => onOpenRevision(annotation.revision))}
        />
      ) : (
        <blockquote className="mt-2 border-l-4 border-amber-300 pl-3 font-serif text-sm italic text-muted-foreground">
          {annotation.selectedText}
        </blockquote>
      )}
      <p className="mt-3 whitespace-pre-wrap text-sm">{annotation.annotationText}</p>
      <StatusNote annotation={annotation} />
      {annotation.canModerate ? (
        <DecisionButtons annotationId={annotation.id} decide={decide} className="mt-3 flex gap-2" />
      ) : null}
      {owner ? (
        <OwnerReply annotation={annotation} ownerName={owner.name} isOwner={owner.isViewer} />
      ) : null}
      {flaggable && annotation.status === "approved" && !annotation.isOwn ? (
        <div className="mt-2 flex justify-end">
          <FlagButton annotationId={annotation.id} author={annotation.authorName ?? "Anonymous"} />
        </div>
      ) : null}
    </li>
  );
}

/** A response whose passage is gone: the passage in the words around it on the version it answered. */
function EarlierPassage({
  context,
  onOpen,
}: {
  context: OriginalContext;
  onOpen: (() => void) | undefined;
}) {
  return (
    <div className="mt-2">
      <p className="border-l-4 border-border pl-3 font-serif text-sm text-muted-foreground">
        On an earlier version: {context.before ? "…" : ""}
        {context.before}
        <strong className="font-semibold text-foreground">{context.passage}</strong>
        {context.after}
        {context.after ? "…" : ""}
      </p>
      {onOpen ? (
        <Button variant="outline" size="sm" className="mt-2" onClick={onOpen}>
          <History aria-hidden="true" /> Open that version
        </Button>
      ) : null}
    </div>
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
