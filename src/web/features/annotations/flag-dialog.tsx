// Flag on a published response: a small button that opens a dialog asking why (spam, abuse or
// harassment, private information, something else), with a note if the reader wishes.
import { Flag } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import type { FlagReason } from "../../../contract/annotations.ts";
import { flagReasonLabels } from "../../../contract/flag-messages.ts";
import { Button } from "../../components/ui/button.tsx";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogTitle,
} from "../../components/ui/dialog.tsx";
import { Label } from "../../components/ui/label.tsx";
import { useFlagResponse } from "./flag-queries.ts";

/** The longest note, as the server takes it (the contract's FLAG_NOTE_MAX, without its schemas). */
const NOTE_MAX = 500;

const reasons = Object.entries(flagReasonLabels) as [FlagReason, string][];

/** What each reason means, under its label. */
const hints: Record<FlagReason, string> = {
  spam: "Advertising, or written by a script.",
  abuse: "Insults, threats or hate toward someone.",
  private: "Someone's address, phone number or other private details.",
  other: "Something else the prism's owner should know about.",
};

export function FlagButton({ annotationId, author }: { annotationId: number; author: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        variant="ghost"
        size="sm"
        className="text-muted-foreground"
        aria-label={`Flag the response by ${author}`}
        onClick={() => setOpen(true)}
      >
        <Flag aria-hidden="true" /> Flag
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent>
          {open ? <FlagForm annotationId={annotationId} onDone={() => setOpen(false)} /> : null}
        </DialogContent>
      </Dialog>
    </>
  );
}

function FlagForm({ annotationId, onDone }: { annotationId: number; onDone: () => void }) {
  const [reason, setReason] = useState<FlagReason | null>(null);
  const [note, setNote] = useState("");
  const [missing, setMissing] = useState(false);
  const flag = useFlagResponse(annotationId);
  const id = useId();

  function send(event: FormEvent) {
    event.preventDefault();
    if (!reason) {
      setMissing(true);
      return;
    }
    flag.mutate({ reason, note: note.trim() || undefined }, { onSuccess: onDone });
  }

  return (
    <form className="grid gap-4" onSubmit={send} noValidate>
      <DialogTitle className="pr-8 text-lg font-semibold">Flag this response</DialogTitle>
      <DialogDescription>
        The prism's owner will see your flag and its reason. The response's author won't know who
        flagged it.
      </DialogDescription>
      <fieldset
        className="grid gap-2"
        aria-describedby={missing ? `${id}-missing` : undefined}
        aria-invalid={missing || undefined}
      >
        <legend className="mb-2 text-sm font-medium">Why are you flagging it?</legend>
        {reasons.map(([value, label]) => (
          <label
            key={value}
            className="flex min-h-11 cursor-pointer items-start gap-3 rounded-lg border border-border p-3 has-[:checked]:border-primary has-[:checked]:bg-primary/5"
          >
            <input
              type="radio"
              name={`${id}-reason`}
              value={value}
              checked={reason === value}
              onChange={() => {
                setReason(value);
                setMissing(false);
              }}
              className="mt-0.5 size-4 accent-primary"
              aria-describedby={`${id}-${value}`}
            />
            <span className="grid gap-0.5 text-sm">
              <span className="font-medium">{label}</span>
              <span id={`${id}-${value}`} className="text-xs text-muted-foreground">
                {hints[value]}
              </span>
            </span>
          </label>
        ))}
        {missing ? (
          <p id={`${id}-missing`} className="text-sm text-destructive">
            Choose a reason
          </p>
        ) : null}
      </fieldset>
      <div className="grid gap-1.5">
        <Label htmlFor={`${id}-note`}>Add a note (optional)</Label>
        <textarea
          id={`${id}-note`}
          value={note}
          maxLength={NOTE_MAX}
          rows={3}
          onChange={(event) => setNote(event.target.value)}
          className="w-full rounded-md border border-input bg-background px-3 py-2 text-base focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring sm:text-sm"
        />
      </div>
      <div className="flex flex-wrap justify-end gap-2">
        <Button type="button" variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" disabled={flag.isPending}>
          Send flag
        </Button>
      </div>
    </form>
  );
}
