// The landing page's example prism, for a visitor to try what a reader of a member's page does:
// select a passage, press Respond, say what it brings up. The dialog, its rules and the selection
// are a real profile's; only the save differs: it is simulated (the spec's 500 ms) and nothing
// leaves the page. The response then shows as the prism's owner would see it: its passage
// highlighted, waiting for Approve or Reject, which act on this page alone.
import { MessageSquareQuote } from "lucide-react";
import { useId, useRef, useState } from "react";
import type { Annotation, AnnotationStatus } from "../../../contract/annotations.ts";
import { displayName, visitorName } from "../../../contract/names.ts";
import { Button } from "../../components/ui/button.tsx";
import type { AnnotationTarget } from "../annotations/annotation-dialog.tsx";
import { AnnotationDialog } from "../annotations/annotation-parts.ts";
import type { DecideAnnotation, SaveAnnotation } from "../annotations/annotation-queries.ts";
import { useAnnotationHighlights } from "../annotations/highlights.ts";
import { ResponseCard } from "../annotations/response-card.tsx";
import { SelectionRespond } from "../annotations/selection-respond.tsx";
import { plainTextOf, type TextSelection } from "../annotations/text-offsets.ts";
import { useCurrentUser } from "../auth/auth-queries.ts";

/** The spec's "demo annotation save" (§9). */
const SIMULATED_SAVE_MS = 500;

/** No stored prism has this id. */
const EXAMPLE_PRISM_ID = 0;
const TITLE = "How to disagree with me";
const TEXT =
  'Tell me early and tell me plainly. I would much rather hear "I think this is wrong, and here is why" on Monday than discover a quiet workaround on Friday.';

/** The owner sees every response highlighted until they reject it. */
const HIGHLIGHTED: readonly AnnotationStatus[] = ["pending", "approved"];

export function ExamplePrism() {
  const { user } = useCurrentUser();
  const contentRef = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const responsesId = useId();
  const lastId = useRef(0);
  const [responses, setResponses] = useState<Annotation[]>([]);
  const [target, setTarget] = useState<AnnotationTarget | null>(null);
  const [latestId, setLatestId] = useState<number | null>(null);
  /** The response just saved, for focus to go to once the dialog has closed. */
  const justSaved = useRef<number | null>(null);
  useAnnotationHighlights(contentRef, EXAMPLE_PRISM_ID, TEXT, responses, HIGHLIGHTED, true);

  function annotate(selection: TextSelection | null) {
    setTarget({
      prismId: EXAMPLE_PRISM_ID,
      prismTitle: TITLE,
      responders: "anyone",
      selection,
      plainText: contentRef.current ? plainTextOf(contentRef.current) : TEXT,
    });
  }

  /** The response as Prism would have stored it, shown to the prism's owner. */
  const save: SaveAnnotation = (input) =>
    new Promise((resolve) => {
      lastId.current += 1;
      const response: Annotation = {
        id: lastId.current,
        prismId: input.prismId,
        userId: user?.id ?? null,
        annotatorName: user ? null : (input.annotatorName ?? null),
        authorName: user ? displayName(user) : visitorName(input.annotatorName),
        annotationText: input.annotationText,
        selectedText: input.selectedText,
        selectionStart: input.selectionStart,
        selectionEnd: input.selectionEnd,
        status: "pending",
        orphaned: false,
        revision: 1,
        createdAt: new Date().toISOString(),
        reply: null,
        isOwn: false,
        canModerate: true,
      };
      setTimeout(() => resolve(response), SIMULATED_SAVE_MS);
    });

  /** The owner's decision, final as on a real page. */
  const decide: DecideAnnotation = async ({ id, status }) => {
    const response = responses.find((r) => r.id === id);
    if (!response) throw new Error(`No response ${id}`);
    const decided = { ...response, status, canModerate: false };
    setResponses((all) => all.map((r) => (r.id === id ? decided : r)));
    return decided;
  };

  return (
    <>
      <article
        aria-labelledby={titleId}
        className="mt-10 rounded-2xl border border-border p-6 shadow-sm sm:p-8"
      >
        <p className="font-mono text-sm text-muted-foreground">01.</p>
        <h3 id={titleId} className="mt-1 text-xl font-semibold">
          {TITLE}
        </h3>
        <SelectionRespond contentRef={contentRef} enabled onRespond={annotate}>
          <div ref={contentRef} className="prism-content mt-4">
            <p>{TEXT}</p>
          </div>
        </SelectionRespond>
        <div className="mt-6 flex justify-end">
          <Button variant="ghost" size="sm" onClick={() => annotate(null)}>
            <MessageSquareQuote aria-hidden="true" /> Respond to a passage
          </Button>
        </div>
      </article>
      {responses.length > 0 ? (
        <div className="mt-8">
          <h3 id={responsesId} className="text-lg font-semibold">
            Responses
          </h3>
          <p className="mt-1 text-sm text-muted-foreground">
            As the prism's owner sees them. Approve and Reject change nothing but this page.
          </p>
          <ul aria-labelledby={responsesId} className="mt-4 grid gap-4">
            {responses.map((response) => (
              <ResponseCard
                key={response.id}
                annotation={response}
                focused={response.id === latestId}
                decide={decide}
              />
            ))}
          </ul>
        </div>
      ) : null}
      <AnnotationDialog
        target={target}
        onClose={() => setTarget(null)}
        save={save}
        onCreated={(response) => {
          setTarget(null);
          setResponses((all) => [...all, response]);
          setLatestId(response.id);
          justSaved.current = response.id;
        }}
        // Once a response is saved, focus goes to it rather than back to what opened the dialog:
        // that brings it into view (on a phone the list is below the prism), has a screen reader
        // read it, and lets the keyboard go on from it.
        onCloseAutoFocus={(event) => {
          const saved = justSaved.current;
          justSaved.current = null;
          const card = saved === null ? null : document.getElementById(`annotation-${saved}`);
          if (!card) return;
          event.preventDefault();
          card.focus();
        }}
      />
    </>
  );
}
