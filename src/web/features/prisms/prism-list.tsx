// A member's prisms in order: one open at a time, the owner's edit mode, and adding new ones.
import { Plus } from "lucide-react";
import { Suspense, useEffect, useState } from "react";
import { useHistoryState } from "wouter/use-browser-location";
import type { Annotation } from "../../../contract/annotations.ts";
import { displayName } from "../../../contract/names.ts";
import type { Prism } from "../../../contract/prisms.ts";
import { prismPath } from "../../../contract/slug.ts";
import type { PublicUser } from "../../../contract/user.ts";
import { Button } from "../../components/ui/button.tsx";
import { wantsFirstPrism } from "../../lib/first-steps.ts";
import type { AnnotationTarget } from "../annotations/annotation-dialog.tsx";
import { PrismForm } from "./owner-parts.ts";
import { type PrismDraft, usePrismWrites } from "./prism-queries.ts";
import { PrismSection } from "./prism-section.tsx";
import { randomPrompt } from "./prompts.ts";

/** The section being written: a prism's id, NEW_PRISM while adding one, or null. */
export const NEW_PRISM = -1;

export function PrismList({
  owner,
  prisms,
  isOwner,
  editMode,
  activeId,
  onActiveChange,
  annotations,
  highlights,
  onAnnotate,
  onOpenResponses,
  onOpenAnnotation,
  onOpenHistory,
  resonance = false,
}: {
  owner: PublicUser;
  prisms: Prism[];
  isOwner: boolean;
  editMode: boolean;
  activeId: number | null;
  onActiveChange: (id: number | null) => void;
  annotations: Map<number, Annotation[]>;
  highlights: boolean;
  onAnnotate: (target: AnnotationTarget) => void;
  onOpenResponses: (prismId: number) => void;
  onOpenAnnotation: (prismId: number, annotationId: number) => void;
  /** The owner opens a prism's History. */
  onOpenHistory: (prismId: number) => void;
  /** The owner has the resonance map on. */
  resonance?: boolean;
}) {
  const writes = usePrismWrites(owner.username);
  const firstSteps = wantsFirstPrism(useHistoryState());
  const [editingId, setEditingId] = useState<number | null>(null);
  const [prompt, setPrompt] = useState(randomPrompt);
  const busy =
    writes.create.isPending ||
    writes.update.isPending ||
    writes.remove.isPending ||
    writes.move.isPending ||
    writes.responders.isPending;

  // A moved section keeps the keyboard: once the list shows it in the place the server gave it
  // (a read overtaken by another change may still show the old order), the control that moved
  // it has the focus again (the other one when the section reached the end it moved toward).
  const [moved, setMoved] = useState<{
    id: number;
    index: number;
    direction: "up" | "down";
  } | null>(null);
  useEffect(() => {
    if (!moved || busy) return;
    const shown = prisms.find((prism) => prism.id === moved.id);
    if (shown && shown.index !== moved.index) return;
    const section = document.getElementById(`prism-${moved.id}`);
    const control =
      section?.querySelector<HTMLButtonElement>(`[data-move="${moved.direction}"]`) ??
      section?.querySelector<HTMLButtonElement>("[data-move]");
    control?.focus();
    setMoved(null);
  }, [moved, busy, prisms]);

  function create(draft: PrismDraft) {
    writes.create.mutate(draft, {
      onSuccess: (prism) => {
        setEditingId(null);
        onActiveChange(prism.id);
      },
    });
  }

  if (prisms.length === 0) {
    if (!isOwner) {
      return (
        <p className="rounded-2xl border border-dashed border-border p-10 text-center text-lg text-muted-foreground">
          {displayName(owner)} hasn't added any prisms yet, but just you wait.
        </p>
      );
    }
    return (
      <section
        aria-labelledby="first-prism-heading"
        className="rounded-2xl border border-border p-6 shadow-sm"
      >
        <h2 id="first-prism-heading" className="mb-4 text-lg font-semibold">
          Write your first prism
        </h2>
        <Suspense fallback={null}>
          <PrismForm
            initial={{ title: "", content: "", audience: "public" }}
            titlePlaceholder="Let's give them something to talk about."
            contentPlaceholder="Allow us to reintroduce yourself."
            saving={writes.create.isPending}
            onSave={create}
            focusTitle={firstSteps}
          />
        </Suspense>
      </section>
    );
  }

  return (
    <>
      <ol className="rounded-2xl border border-border px-5 shadow-sm sm:px-6">
        {prisms.map((prism, position) => (
          <PrismSection
            key={prism.id}
            prism={prism}
            position={position}
            username={owner.username}
            membersOnly={owner.membersOnly}
            path={prismPath(owner.username, prism, prisms)}
            active={activeId === prism.id}
            onToggle={() => {
              onActiveChange(activeId === prism.id ? null : prism.id);
              if (editingId === prism.id) setEditingId(null);
            }}
            editMode={isOwner && editMode}
            editing={isOwner && editMode && editingId === prism.id}
            isFirst={position === 0}
            isLast={position === prisms.length - 1}
            busy={busy}
            onEdit={() => {
              onActiveChange(prism.id);
              setEditingId(prism.id);
            }}
            onOpenHistory={() => onOpenHistory(prism.id)}
            onCancelEdit={() => setEditingId(null)}
            onSave={(draft) =>
              writes.update.mutate(
                { id: prism.id, ...draft },
                { onSuccess: () => setEditingId(null) },
              )
            }
            onDelete={() => writes.remove.mutate(prism.id)}
            onMove={(direction) =>
              writes.move.mutate(
                { id: prism.id, direction },
                { onSuccess: ({ index }) => setMoved({ id: prism.id, index, direction }) },
              )
            }
            onChooseResponders={(responders) =>
              writes.responders.mutate({ id: prism.id, responders })
            }
            annotations={annotations.get(prism.id) ?? []}
            highlights={highlights}
            onAnnotate={onAnnotate}
            onOpenResponses={() => onOpenResponses(prism.id)}
            onOpenAnnotation={(annotationId) => onOpenAnnotation(prism.id, annotationId)}
            resonance={isOwner && resonance}
          />
        ))}
      </ol>
      {isOwner && editMode ? (
        editingId === NEW_PRISM ? (
          <section
            aria-label="New prism"
            className="mt-6 rounded-2xl border border-border p-6 shadow-sm"
          >
            <Suspense fallback={null}>
              <PrismForm
                initial={{ title: "", content: "", audience: "public" }}
                titlePlaceholder={prompt}
                contentPlaceholder="Answer in your own words."
                saving={writes.create.isPending}
                onSave={create}
                onCancel={() => setEditingId(null)}
                focusTitle
              />
            </Suspense>
          </section>
        ) : (
          <Button
            variant="outline"
            className="mt-6 w-full border-dashed"
            size="lg"
            onClick={() => {
              setPrompt(randomPrompt());
              setEditingId(NEW_PRISM);
            }}
          >
            <Plus aria-hidden="true" /> Add a prism
          </Button>
        )
      ) : null}
    </>
  );
}
