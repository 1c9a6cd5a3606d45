// A prism's History, for its owner: its versions newest first, each one's words against the
// version before it (insertions and deletions marked in type and for screen readers, not by colour
// alone), and restoring one once confirmed.
import { History, RotateCcw } from "lucide-react";
import { useMemo, useState } from "react";
import { htmlToPlainText } from "../../../contract/plain-text.ts";
import type { Prism } from "../../../contract/prisms.ts";
import { type Revision, revisionMessages } from "../../../contract/revisions.ts";
import { ConfirmDialog } from "../../components/ui/alert-dialog.tsx";
import { Button } from "../../components/ui/button.tsx";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogTitle,
} from "../../components/ui/dialog.tsx";
import { LoadError } from "../../components/ui/load-error.tsx";
import { cn } from "../../lib/cn.ts";
import { DateTime } from "../../lib/format.tsx";
import { useRestoreRevision, useRevision, useRevisions } from "./revision-queries.ts";
import { type Part, wordChanges } from "./word-changes.ts";

export function PrismHistory({
  prism,
  username,
  open,
  onOpenChange,
  initialNumber,
}: {
  prism: Prism;
  username: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The version to show first (a response's), else the current one. */
  initialNumber: number | null;
}) {
  const revisions = useRevisions(prism.id);
  const [chosen, setChosen] = useState<number | null>(initialNumber);
  const [confirming, setConfirming] = useState(false);
  const restore = useRestoreRevision(prism.id, username);
  const list = revisions.data ?? [];
  const index = Math.max(
    0,
    list.findIndex((revision) => revision.number === chosen),
  );
  const shown = list[index];
  const before = list[index + 1];
  const current = useRevision(prism.id, shown?.number);
  const previous = useRevision(prism.id, before?.number);

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-3xl">
        <div className="pr-10">
          <DialogTitle className="flex items-center gap-2 text-lg font-semibold">
            <History className="size-5" aria-hidden="true" /> History
          </DialogTitle>
          <DialogDescription className="mt-1 truncate text-sm text-muted-foreground">
            {prism.title}
          </DialogDescription>
        </div>
        {revisions.isError ? (
          <LoadError
            message="Could not load this prism's history."
            onRetry={() => void revisions.refetch()}
            retrying={revisions.isFetching}
          />
        ) : revisions.isPending ? (
          <Loading />
        ) : (
          <div className="grid gap-4 sm:grid-cols-[12rem_1fr]">
            <nav aria-label="Versions">
              <ol className="grid max-h-40 gap-1 overflow-y-auto sm:max-h-96">
                {list.map((revision, at) => (
                  <li key={revision.number}>
                    <button
                      type="button"
                      aria-current={at === index ? "true" : undefined}
                      onClick={() => setChosen(revision.number)}
                      className={cn(
                        "w-full cursor-pointer rounded-md border px-3 py-2 text-left text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring",
                        at === index
                          ? "border-primary bg-muted font-medium"
                          : "border-transparent hover:bg-muted",
                      )}
                    >
                      <span className="block">
                        Version {revision.number}
                        {revision.current ? " (current)" : ""}
                      </span>
                      <span className="block text-xs text-muted-foreground">
                        <DateTime iso={revision.createdAt} />
                      </span>
                    </button>
                  </li>
                ))}
              </ol>
            </nav>
            <section aria-labelledby="revision-heading" className="min-w-0">
              <h3 id="revision-heading" className="text-base font-semibold">
                {shown ? `Version ${shown.number}${shown.current ? " (current)" : ""}` : "Version"}
              </h3>
              <p className="mt-1 text-xs text-muted-foreground">
                {before
                  ? `Changes since version ${before.number}: added words are underlined, removed words struck through.`
                  : "The oldest version kept."}
              </p>
              {current.isError || previous.isError ? (
                <LoadError
                  message="Could not load this version."
                  onRetry={() => {
                    void current.refetch();
                    void previous.refetch();
                  }}
                  retrying={current.isFetching || previous.isFetching}
                />
              ) : current.data && (!before || previous.data) ? (
                <RevisionDiff revision={current.data} before={previous.data} />
              ) : (
                <Loading />
              )}
              {shown && !shown.current ? (
                <Button
                  className="mt-4"
                  variant="outline"
                  disabled={restore.isPending}
                  onClick={() => setConfirming(true)}
                >
                  <RotateCcw aria-hidden="true" /> Restore this version
                </Button>
              ) : null}
            </section>
          </div>
        )}
        <ConfirmDialog
          open={confirming}
          onOpenChange={setConfirming}
          title={`Restore version ${shown?.number ?? ""}?`}
          description={restoreDescription(prism, current.data)}
          actionLabel="Restore"
          onConfirm={() => {
            if (shown) restore.mutate(shown.number, { onSuccess: () => setChosen(null) });
          }}
        />
      </DialogContent>
    </Dialog>
  );
}

function Loading() {
  return (
    <p role="status" className="py-6 text-sm text-muted-foreground">
      Loading...
    </p>
  );
}

function restoreDescription(prism: Prism, revision: Revision | undefined): string {
  const kept =
    "The prism will read as this version does; the current version stays in its history.";
  return revision && revision.title !== prism.title && prism.heartsCount > 0
    ? `${kept} Its title differs, so all hearts on this prism will be reset.`
    : kept;
}

/**
 * The version's title and words against the one before: insertions and deletions marked, word by
 * word unless the versions differ too much for that (then said so above them).
 */
function RevisionDiff({ revision, before }: { revision: Revision; before: Revision | undefined }) {
  const beforeTitle = before?.title ?? revision.title;
  const beforeContent = before?.content ?? revision.content;
  const title = useMemo(
    () => wordChanges(beforeTitle, revision.title),
    [beforeTitle, revision.title],
  );
  const content = useMemo(
    () => wordChanges(htmlToPlainText(beforeContent), htmlToPlainText(revision.content)),
    [beforeContent, revision.content],
  );
  return (
    <>
      {title.wordByWord && content.wordByWord ? null : (
        <p className="mt-1 text-xs text-muted-foreground">{revisionMessages.tooManyChanges}</p>
      )}
      <div className="mt-3 grid gap-3 rounded-xl border border-border p-4">
        <p className="font-semibold">
          <Changes parts={title.parts} />
        </p>
        <p className="whitespace-pre-wrap font-serif text-sm leading-relaxed">
          <Changes parts={content.parts} />
        </p>
      </div>
    </>
  );
}

function Changes({ parts }: { parts: Part[] }) {
  return parts.map((part, at) => {
    const key = `${at}:${part.value.length}`;
    if (part.added) {
      return (
        <ins key={key} className="rounded-sm bg-emerald-100 text-emerald-950 underline">
          <span className="sr-only">[added: </span>
          {part.value}
          <span className="sr-only">]</span>
        </ins>
      );
    }
    if (part.removed) {
      return (
        <del key={key} className="rounded-sm bg-rose-100 text-rose-950 line-through">
          <span className="sr-only">[removed: </span>
          {part.value}
          <span className="sr-only">]</span>
        </del>
      );
    }
    return <span key={key}>{part.value}</span>;
  });
}
