// The prism owner's reply under a response: shown to whoever may see the response, and written,
// rewritten or taken back by the owner.
import { MessageSquareReply, Pencil, Trash2 } from "lucide-react";
import { useId, useState } from "react";
import { annotationMessages } from "../../../contract/annotation-messages.ts";
import type { Annotation } from "../../../contract/annotations.ts";
import { limits } from "../../../contract/limits.ts";
import { ConfirmDialog } from "../../components/ui/alert-dialog.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Label } from "../../components/ui/label.tsx";
import { RelativeTime } from "../../lib/format.tsx";
import { useOwnerReply } from "./annotation-queries.ts";

export function OwnerReply({
  annotation,
  ownerName,
  isOwner,
}: {
  annotation: Annotation;
  /** The prism owner's name, as the page shows it. */
  ownerName: string;
  /** The viewer owns the prism and so may write the reply. */
  isOwner: boolean;
}) {
  const [editing, setEditing] = useState(false);
  const { reply } = annotation;
  const canReply = isOwner && annotation.status !== "rejected";

  if (editing) {
    return <ReplyForm annotation={annotation} onDone={() => setEditing(false)} />;
  }
  if (!reply) {
    return canReply ? (
      <Button size="sm" variant="outline" className="mt-3" onClick={() => setEditing(true)}>
        <MessageSquareReply aria-hidden="true" /> Reply
      </Button>
    ) : null;
  }
  const edited = reply.updatedAt !== reply.createdAt;
  return (
    <section
      aria-label={isOwner ? "Your reply" : `Reply from ${ownerName}`}
      className="mt-3 rounded-lg bg-muted/60 px-3 py-2"
    >
      <div className="flex items-baseline justify-between gap-3 text-xs">
        <span className="font-medium">{isOwner ? "Your reply" : `Reply from ${ownerName}`}</span>
        <span className="shrink-0 text-muted-foreground">
          <RelativeTime iso={reply.updatedAt} />
          {edited ? " · edited" : null}
        </span>
      </div>
      <p className="mt-1 whitespace-pre-wrap text-sm">{reply.text}</p>
      {isOwner ? <ReplyControls annotation={annotation} onEdit={() => setEditing(true)} /> : null}
    </section>
  );
}

function ReplyControls({ annotation, onEdit }: { annotation: Annotation; onEdit: () => void }) {
  const { remove } = useOwnerReply(annotation);
  return (
    <div className="mt-2 flex gap-2">
      <Button size="sm" variant="ghost" onClick={onEdit} disabled={remove.isPending}>
        <Pencil aria-hidden="true" /> Edit reply
      </Button>
      <ConfirmDialog
        title="Delete your reply?"
        description="Your reply will no longer be shown under this response."
        actionLabel="Delete"
        destructive
        onConfirm={() => remove.mutate()}
      >
        <Button size="sm" variant="ghost" disabled={remove.isPending}>
          <Trash2 aria-hidden="true" /> Delete reply
        </Button>
      </ConfirmDialog>
    </div>
  );
}

function ReplyForm({ annotation, onDone }: { annotation: Annotation; onDone: () => void }) {
  const { save } = useOwnerReply(annotation);
  const [text, setText] = useState(annotation.reply?.text ?? "");
  const [error, setError] = useState<string | null>(null);
  const ids = { text: useId(), note: useId(), error: useId() };
  const pending = annotation.status === "pending";

  function submit() {
    const trimmed = text.trim();
    if (!trimmed) {
      setError(annotationMessages.replyRequired);
      return;
    }
    setError(null);
    save.mutate(trimmed, { onSuccess: onDone });
  }

  return (
    <form
      className="mt-3 grid gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <Label htmlFor={ids.text}>Your reply</Label>
      <textarea
        id={ids.text}
        rows={3}
        maxLength={limits.replyMax}
        value={text}
        // The owner opened the form to write: the box takes the focus.
        // biome-ignore lint/a11y/noAutofocus: opened by the owner's own click on Reply or Edit
        autoFocus
        aria-invalid={error ? true : undefined}
        aria-describedby={[pending ? ids.note : null, error ? ids.error : null]
          .filter(Boolean)
          .join(" ")}
        onChange={(event) => setText(event.target.value)}
        className="w-full resize-y rounded-lg border border-border bg-background px-3 py-2 text-sm shadow-xs focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
      />
      <p className="text-right text-xs text-muted-foreground">
        {text.length.toLocaleString("en")} / {limits.replyMax.toLocaleString("en")}
      </p>
      {pending ? (
        <p id={ids.note} className="rounded-md bg-amber-50 px-3 py-2 text-xs text-amber-900">
          Replying approves this response: it and your reply will be visible to everyone.
        </p>
      ) : null}
      {error ? (
        <p id={ids.error} role="alert" className="text-xs text-destructive">
          {error}
        </p>
      ) : null}
      <div className="flex justify-end gap-2">
        <Button size="sm" variant="outline" onClick={onDone} disabled={save.isPending}>
          Cancel
        </Button>
        <Button size="sm" type="submit" disabled={save.isPending}>
          {save.isPending ? "Saving..." : pending ? "Approve and reply" : "Save reply"}
        </Button>
      </div>
    </form>
  );
}
