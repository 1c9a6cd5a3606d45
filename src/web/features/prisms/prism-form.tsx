// Writing a prism: a title and the rich-text editor (its own lazily loaded chunk).
import { Suspense, useEffect, useId, useRef, useState } from "react";
import { lazyComponent } from "../../app/stale-scripts.ts";
import { Button } from "../../components/ui/button.tsx";
import { Input } from "../../components/ui/input.tsx";
import { Label } from "../../components/ui/label.tsx";
import { AudienceChoice } from "./audience-choice.tsx";
import type { PrismDraft } from "./prism-queries.ts";

const PrismEditor = lazyComponent(() => import("./prism-editor.tsx"), "PrismEditor");

export function PrismForm({
  initial,
  titlePlaceholder,
  contentPlaceholder,
  saving,
  onSave,
  onCancel,
  saveLabel = "Save",
  focusTitle = false,
}: {
  initial: PrismDraft;
  titlePlaceholder: string;
  contentPlaceholder: string;
  saving: boolean;
  onSave: (draft: PrismDraft) => void;
  onCancel?: () => void;
  saveLabel?: string;
  /**
   * Puts the caret in the title as the form appears: after Edit, Add a prism, and on a new
   * account's first prism, the next keys type there.
   */
  focusTitle?: boolean;
}) {
  const [title, setTitle] = useState(initial.title);
  const [content, setContent] = useState(initial.content);
  const [audience, setAudience] = useState(initial.audience);
  const titleId = useId();
  const canSave = title.trim() !== "" && !saving;
  const titleRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (focusTitle) titleRef.current?.focus();
  }, [focusTitle]);

  return (
    <form
      className="grid gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        if (canSave) onSave({ title: title.trim(), content, audience });
      }}
    >
      <div className="grid gap-1.5">
        <Label htmlFor={titleId}>Title</Label>
        <Input
          id={titleId}
          ref={titleRef}
          value={title}
          maxLength={200}
          placeholder={titlePlaceholder}
          onChange={(event) => setTitle(event.target.value)}
          size="lg"
          className="font-semibold"
        />
      </div>
      <Suspense
        fallback={
          <div
            className="min-h-[244px] animate-pulse rounded-xl border border-border bg-muted/50"
            aria-hidden="true"
          />
        }
      >
        <PrismEditor
          value={initial.content}
          onChange={setContent}
          placeholder={contentPlaceholder}
          label="Content"
        />
      </Suspense>
      <AudienceChoice value={audience} disabled={saving} onChange={setAudience} />
      <div className="flex justify-end gap-2">
        {onCancel ? (
          <Button variant="outline" onClick={onCancel} disabled={saving}>
            Cancel
          </Button>
        ) : null}
        <Button type="submit" disabled={!canSave}>
          {saving ? "Saving..." : saveLabel}
        </Button>
      </div>
    </form>
  );
}
