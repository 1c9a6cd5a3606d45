// One numbered section of a profile: its title, its content, its heart, and the owner's controls.
import { MessageSquareQuote, MessagesSquare } from "lucide-react";
import { type MouseEvent, Suspense, useRef, useState } from "react";
import { annotationMessages } from "../../../contract/annotation-messages.ts";
import type { Annotation } from "../../../contract/annotations.ts";
import type { Prism } from "../../../contract/prisms.ts";
import type { Responders } from "../../../contract/responders.ts";
import { Button } from "../../components/ui/button.tsx";
import { RelativeTime } from "../../lib/format.tsx";
import type { AnnotationTarget } from "../annotations/annotation-dialog.tsx";
import { APPROVED, useAnnotationHighlights } from "../annotations/highlights.ts";
import { SelectionRespond } from "../annotations/selection-respond.tsx";
import { plainTextOf, type TextSelection } from "../annotations/text-offsets.ts";
import { ResonanceMap } from "../resonance/resonance-parts.ts";
import { TopPassageNote, useTopPassageHighlight } from "../resonance/top-passage.tsx";
import { CopyLinkButton } from "./copy-link-button.tsx";
import { HeartButton } from "./heart-button.tsx";
import { ConfirmDialog, PrismForm, PrismOwnerControls } from "./owner-parts.ts";
import type { PrismDraft } from "./prism-queries.ts";

const sectionNumber = (index: number) => `${String(index + 1).padStart(2, "0")}.`;

export function PrismSection({
  prism,
  position,
  username,
  membersOnly = false,
  path,
  active,
  onToggle,
  editMode,
  editing,
  isFirst,
  isLast,
  busy,
  onEdit,
  onOpenHistory,
  onCancelEdit,
  onSave,
  onDelete,
  onMove,
  onChooseResponders,
  annotations,
  highlights,
  onAnnotate,
  onOpenResponses,
  onOpenAnnotation,
  resonance = false,
}: {
  prism: Prism;
  position: number;
  username: string;
  /** The owner takes responses from signed-in members only (Profile Settings). */
  membersOnly?: boolean;
  /** The prism's own address, for sharing. */
  path: string;
  active: boolean;
  onToggle: () => void;
  editMode: boolean;
  editing: boolean;
  isFirst: boolean;
  isLast: boolean;
  busy: boolean;
  onEdit: () => void;
  onOpenHistory: () => void;
  onCancelEdit: () => void;
  onSave: (draft: PrismDraft) => void;
  onDelete: () => void;
  onMove: (direction: "up" | "down") => void;
  onChooseResponders: (responders: Responders) => void;
  /** The annotations of this prism that the viewer may see. */
  annotations: Annotation[];
  highlights: boolean;
  onAnnotate: (target: AnnotationTarget) => void;
  onOpenResponses: () => void;
  /** Opens one response in the Responses sidebar (a highlighted passage was clicked). */
  onOpenAnnotation: (annotationId: number) => void;
  /** The owner has the resonance map on: it shows under the open prism's text. */
  resonance?: boolean;
}) {
  const contentRef = useRef<HTMLDivElement>(null);
  // A selection leads to a response, except while the owner is in edit mode or when no one may respond.
  const annotating = !editMode && prism.responders !== "no-one";
  const highlighting = highlights && active && !editing;
  const annotationAt = useAnnotationHighlights(
    contentRef,
    prism.id,
    prism.content,
    annotations,
    APPROVED,
    highlighting,
  );
  const showsText = active && !editing && Boolean(prism.content);
  useTopPassageHighlight(contentRef, prism.id, prism.content, prism.topPassage, showsText);

  function annotate(selection: TextSelection | null) {
    onAnnotate({
      prismId: prism.id,
      prismTitle: prism.title,
      // The owner who takes members' responses only takes them on every prism open to anyone.
      responders: membersOnly && prism.responders === "anyone" ? "members" : prism.responders,
      selection,
      plainText: contentRef.current ? plainTextOf(contentRef.current) : "",
    });
  }

  /** The highlighted passage under a click or tap, unless the click ended a selection or follows a link. */
  function highlightedAt(event: MouseEvent) {
    if (!highlighting || (event.target as Element).closest("a")) return null;
    if (!(document.getSelection()?.isCollapsed ?? true)) return null;
    return annotationAt(event.clientX, event.clientY);
  }
  const [pendingDraft, setPendingDraft] = useState<PrismDraft | null>(null);
  const contentId = `prism-${prism.id}-content`;

  function handleSave(draft: PrismDraft) {
    if (draft.title !== prism.title && prism.heartsCount > 0) setPendingDraft(draft);
    else onSave(draft);
  }

  /** Small beside the title of a closed section, large under the open one. */
  const heart = (size: "sm" | "lg") => (
    <HeartButton
      prismId={prism.id}
      username={username}
      title={prism.title}
      initialCount={prism.heartsCount}
      size={size}
    />
  );

  return (
    <li id={`prism-${prism.id}`} className="scroll-mt-24 border-b border-border last:border-b-0">
      <div className="flex items-start gap-3 py-5">
        <h2 className="min-w-0 flex-1 text-xl font-semibold tracking-tight">
          <button
            type="button"
            aria-expanded={active}
            aria-controls={contentId}
            onClick={onToggle}
            className="group flex w-full cursor-pointer items-baseline gap-3 rounded-md text-left focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
          >
            <span className="shrink-0 font-mono text-sm font-normal text-muted-foreground">
              {sectionNumber(position)}
            </span>
            <span className="group-hover:text-primary">{prism.title}</span>
            {/* Written out here (not audience-label.tsx): a reading page's script stays in budget. */}
            {prism.audience === "public" ? null : (
              <span className="rounded-full border border-border px-2 text-xs font-normal">
                {prism.audience === "team" ? "Team" : "Only me"}
              </span>
            )}
          </button>
        </h2>
        {!active ? heart("sm") : null}
      </div>

      {active ? (
        <div id={contentId} className="pb-8 pl-0 sm:pl-10">
          {editing ? (
            <Suspense fallback={null}>
              <PrismForm
                initial={{ title: prism.title, content: prism.content, audience: prism.audience }}
                titlePlaceholder="Title"
                contentPlaceholder="Write in your own words."
                saving={busy}
                onSave={handleSave}
                onCancel={onCancelEdit}
                focusTitle
              />
            </Suspense>
          ) : (
            <>
              {prism.content ? (
                <SelectionRespond contentRef={contentRef} enabled={annotating} onRespond={annotate}>
                  {/* biome-ignore lint/a11y: clicking a highlight is a pointer's shortcut; the keyboard reaches the same responses through the Responses button */}
                  <div
                    ref={contentRef}
                    className="prism-content"
                    onClick={(event) => {
                      const annotationId = highlightedAt(event);
                      if (annotationId !== null) onOpenAnnotation(annotationId);
                    }}
                    onMouseMove={(event) => {
                      event.currentTarget.style.cursor =
                        highlightedAt(event) === null ? "" : "pointer";
                    }}
                    // The server sanitizes content to p, br, strong, em, u and http(s)/mailto links.
                    // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitized rich text
                    dangerouslySetInnerHTML={{ __html: prism.content }}
                  />
                </SelectionRespond>
              ) : (
                <p className="text-muted-foreground italic">Nothing written here yet.</p>
              )}
              {prism.topPassage && prism.content ? <TopPassageNote top={prism.topPassage} /> : null}
              {resonance && prism.content ? (
                <Suspense fallback={null}>
                  <ResonanceMap prism={prism} contentRef={contentRef} />
                </Suspense>
              ) : null}
              <div className="mt-6 flex flex-wrap items-center gap-3">
                {heart("lg")}
                {prism.editedAfterHearts ? (
                  <span className="text-xs text-muted-foreground">edited after hearts</span>
                ) : null}
                {prism.editedAt ? (
                  <span className="text-xs text-muted-foreground">
                    Edited <RelativeTime iso={prism.editedAt} />
                  </span>
                ) : null}
                <span className="flex-1" />
                {annotating && prism.content ? (
                  <Button variant="ghost" size="sm" onClick={() => annotate(null)}>
                    <MessageSquareQuote aria-hidden="true" /> Respond to a passage
                  </Button>
                ) : null}
                {!editMode && prism.responders === "no-one" ? (
                  <span className="text-sm text-muted-foreground">{annotationMessages.closed}</span>
                ) : null}
                <Button variant="outline" size="sm" onClick={onOpenResponses}>
                  <MessagesSquare aria-hidden="true" /> Responses ({annotations.length})
                </Button>
                <CopyLinkButton path={path} label="Copy link to this prism" />
              </div>
            </>
          )}
        </div>
      ) : null}

      {editMode && !editing ? (
        <Suspense fallback={null}>
          <PrismOwnerControls
            title={prism.title}
            active={active}
            isFirst={isFirst}
            isLast={isLast}
            busy={busy}
            responders={prism.responders}
            onMove={onMove}
            onEdit={onEdit}
            onOpenHistory={onOpenHistory}
            onDelete={onDelete}
            onChooseResponders={onChooseResponders}
          />
        </Suspense>
      ) : null}

      <ConfirmDialog
        open={pendingDraft !== null}
        onOpenChange={(open) => {
          if (!open) setPendingDraft(null);
        }}
        title="Reset hearts?"
        description="Changing the title will reset all hearts on this prism. Hearts are reset when titles change because it might significantly alter the content's meaning or context."
        actionLabel="Continue"
        onConfirm={() => {
          if (pendingDraft) onSave(pendingDraft);
          setPendingDraft(null);
        }}
      />
    </li>
  );
}
