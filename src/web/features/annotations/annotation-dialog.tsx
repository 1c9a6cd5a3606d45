// The dialog that opens on a selected passage: the quote, the reader's thought, Respond.
import { Copy } from "lucide-react";
import { type KeyboardEvent, Suspense, useEffect, useId, useRef, useState } from "react";
import { useLocation } from "wouter";
import { annotationMessages } from "../../../contract/annotation-messages.ts";
import type { Annotation, AnnotationCreate } from "../../../contract/annotations.ts";
import { limits } from "../../../contract/limits.ts";
import { type Responders, respondersAdmit } from "../../../contract/responders.ts";
import { lazyComponent } from "../../app/stale-scripts.ts";
import { Button } from "../../components/ui/button.tsx";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogTitle,
} from "../../components/ui/dialog.tsx";
import { Input } from "../../components/ui/input.tsx";
import { Label } from "../../components/ui/label.tsx";
import { copyLink } from "../../lib/clipboard.ts";
import { useCoarsePointer } from "../../lib/pointer.ts";
import { usePageAddress } from "../../lib/router.tsx";
import { rememberPage } from "../../lib/storage.ts";
import { waitUntil } from "../../lib/wait.ts";
import { useCurrentUser } from "../auth/auth-queries.ts";
import { type SaveAnnotation, useCreateAnnotation } from "./annotation-queries.ts";
import type { PersonCheckHandle } from "./person-check.tsx";
import { snapToWords } from "./snap-to-words.ts";
import type { TextSelection } from "./text-offsets.ts";

const PersonCheck = lazyComponent(() => import("./person-check.tsx"), "PersonCheck");

export interface AnnotationTarget {
  prismId: number;
  prismTitle: string;
  /** Who the prism's owner lets respond. */
  responders: Responders;
  /** The passage selected in the prism, or null to let the reader pick one in the dialog. */
  selection: TextSelection | null;
  /** The prism's plain text, for picking a passage. */
  plainText: string;
}

export function AnnotationDialog({
  target,
  onClose,
  onCreated,
  save,
  onCloseAutoFocus,
}: {
  target: AnnotationTarget | null;
  onClose: () => void;
  onCreated: (annotation: Annotation) => void;
  /** How the response is saved; Prism stores it unless this says otherwise. */
  save?: SaveAnnotation;
  /** Where focus goes once the dialog has closed: back where it was, unless this prevents it. */
  onCloseAutoFocus?: (event: Event) => void;
}) {
  return (
    <Dialog open={target !== null} onOpenChange={(open) => !open && onClose()}>
      {target ? (
        <DialogContent aria-describedby={undefined} onCloseAutoFocus={onCloseAutoFocus}>
          <AnnotationDialogBody
            target={target}
            onCreated={onCreated}
            onCancel={onClose}
            save={save}
          />
        </DialogContent>
      ) : null}
    </Dialog>
  );
}

/** What the dialog's body is given, and passes on to its form. */
interface BodyProps {
  target: AnnotationTarget;
  onCreated: (annotation: Annotation) => void;
  onCancel: () => void;
  save: SaveAnnotation | undefined;
}

function AnnotationDialogBody({ target, onCreated, onCancel, save }: BodyProps) {
  const { user } = useCurrentUser();
  const [sent, setSent] = useState<{ annotation: Annotation; statusUrl: string } | null>(null);
  if (sent) {
    return <StatusLink statusUrl={sent.statusUrl} onDone={() => onCreated(sent.annotation)} />;
  }
  if (!respondersAdmit(target.responders, user !== null))
    return <MembersOnly onCancel={onCancel} />;
  return (
    <AnnotationForm
      key={`${target.prismId}:${target.selection?.selectionStart}:${target.selection?.selectionEnd}`}
      target={target}
      onCreated={(annotation) => {
        // An anonymous author keeps a private link to follow the response; a member is notified.
        const statusUrl = "statusUrl" in annotation ? annotation.statusUrl : null;
        if (typeof statusUrl === "string") setSent({ annotation, statusUrl });
        else onCreated(annotation);
      }}
      onCancel={onCancel}
      save={save}
    />
  );
}

/** Sent: the anonymous author's private link to what becomes of the response, to copy and keep. */
function StatusLink({ statusUrl, onDone }: { statusUrl: string; onDone: () => void }) {
  const id = useId();
  const url = `${window.location.origin}${statusUrl}`;
  return (
    <div className="grid gap-4">
      <DialogTitle className="pr-8 text-lg font-semibold">Response sent</DialogTitle>
      <DialogDescription>
        Keep this private link to see whether your response is approved and to read the owner's
        reply.
      </DialogDescription>
      <div className="grid gap-1.5">
        <Label htmlFor={id}>Your private link</Label>
        <div className="flex gap-2">
          <Input
            id={id}
            readOnly
            value={url}
            onFocus={(event) => event.currentTarget.select()}
            className="font-mono text-xs"
          />
          <Button variant="outline" onClick={() => void copyLink(url)}>
            <Copy aria-hidden="true" /> Copy
          </Button>
        </div>
        <p className="text-xs text-muted-foreground">
          It is shown only now. Anyone with the link can read your response.
        </p>
      </div>
      <div className="flex justify-end">
        <Button onClick={onDone}>Done</Button>
      </div>
    </div>
  );
}

/** A visitor on a members-only prism: why they cannot respond, and a way to sign in and come back. */
function MembersOnly({ onCancel }: { onCancel: () => void }) {
  const page = usePageAddress();
  const [, navigate] = useLocation();
  return (
    <div className="grid gap-4">
      <DialogTitle className="pr-8 text-lg font-semibold">Respond to this passage</DialogTitle>
      <DialogDescription>{annotationMessages.membersOnly}</DialogDescription>
      <div className="flex justify-end gap-2">
        <Button variant="outline" onClick={onCancel}>
          Cancel
        </Button>
        <Button
          onClick={() => {
            rememberPage(page);
            navigate("/sign-in");
          }}
        >
          Sign in
        </Button>
      </div>
    </div>
  );
}

/** A promise of what a ref will be given, and the ref callback that gives it. */
function useReady<T>() {
  const [ready] = useState(() => {
    let given: (value: T) => void = () => {};
    const promise = new Promise<T>((resolve) => {
      given = resolve;
    });
    return { promise, ref: (value: T | null) => void (value && given(value)) };
  });
  return ready;
}

/**
 * What a response without an account carries (see contract/person-check.ts): the check's proof,
 * the honeypot's value, and how long the form was open, once that is past the floor (a person
 * who sends sooner waits out the rest).
 */
async function personCheckFields(check: PersonCheckHandle, honeypot: string, openedAt: number) {
  const [altcha] = await Promise.all([check.proof(), waitUntil(openedAt + limits.typingFloorMs)]);
  return {
    altcha: altcha ?? undefined,
    website: honeypot || undefined,
    typingMs: Math.min(Math.round(performance.now() - openedAt), limits.typingMsMax),
  };
}

function AnnotationForm({ target, onCreated, onCancel, save }: BodyProps) {
  const { user } = useCurrentUser();
  const touch = useCoarsePointer();
  const [thought, setThought] = useState("");
  const [name, setName] = useState("");
  const [email, setEmail] = useState("");
  const [picked, setPicked] = useState<TextSelection | null>(null);
  const [checking, setChecking] = useState(false);
  const [openedAt] = useState(() => performance.now());
  const open = useRef(true);
  const honeypot = useRef<HTMLInputElement>(null);
  const check = useReady<PersonCheckHandle>();
  const ids = {
    thought: useId(),
    name: useId(),
    email: useId(),
    emailHint: useId(),
    passage: useId(),
    website: useId(),
  };
  const create = useCreateAnnotation(onCreated, save);
  const selection = target.selection ?? picked;
  const sending = checking || create.isPending;
  const canRespond = thought.trim() !== "" && selection !== null && !sending;
  // Only a response Prism stores from someone without an account is checked (the landing page's
  // example keeps its responses in the page).
  const checksPerson = !user && !save;

  useEffect(() => {
    open.current = true;
    return () => {
      open.current = false;
    };
  }, []);

  function handlePick(area: HTMLTextAreaElement) {
    setPicked(snapToWords(target.plainText, area.selectionStart, area.selectionEnd));
  }

  async function submit() {
    if (!canRespond || !selection) return;
    const input: AnnotationCreate = {
      prismId: target.prismId,
      selectedText: selection.selectedText,
      selectionStart: selection.selectionStart,
      selectionEnd: selection.selectionEnd,
      annotationText: thought.trim(),
      ...(user
        ? {}
        : { annotatorName: name.trim() || undefined, annotatorEmail: email.trim() || undefined }),
    };
    if (!checksPerson) return create.mutate(input);
    setChecking(true);
    const handle = await check.promise;
    const fields = await personCheckFields(handle, honeypot.current?.value ?? "", openedAt);
    setChecking(false);
    // Closed meanwhile: the reader chose not to send it.
    if (!open.current) return;
    create.mutate({ ...input, ...fields }, { onError: () => handle.renew() });
  }

  function handleKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void submit();
    }
  }

  return (
    <form
      className="grid gap-4"
      // The form checks itself: the person check's box is one the browser would otherwise refuse
      // to send while it is still confirming, where a reader's Respond waits for it instead.
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <DialogTitle className="pr-8 text-lg font-semibold">Respond to this passage</DialogTitle>
      <DialogDescription className="sr-only">From "{target.prismTitle}"</DialogDescription>
      {target.selection ? null : (
        <div className="grid gap-1.5">
          <Label htmlFor={ids.passage}>Select the words you want to respond to</Label>
          <textarea
            id={ids.passage}
            // Not readOnly for a keyboard: browsers give a read-only box no caret, so it could not
            // be selected with Shift and the arrows; the value is controlled and edits are ignored.
            // A touch screen selects by touch and hold, which a read-only box allows, and no
            // on-screen keyboard opens for a box that takes no typing.
            readOnly={touch}
            aria-readonly="true"
            inputMode="none"
            rows={6}
            value={target.plainText}
            onChange={() => {}}
            onSelect={(event) => handlePick(event.currentTarget)}
            className="w-full resize-y rounded-lg border border-border bg-muted/40 px-3 py-2 font-serif text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
          />
          <p className="text-xs text-muted-foreground">
            {touch
              ? "Touch and hold a word, then drag the handles to select."
              : "Use Shift and the arrow keys to select."}
          </p>
        </div>
      )}
      {selection ? (
        <blockquote className="border-l-4 border-amber-300 bg-amber-50 px-4 py-3 font-serif text-base italic text-foreground">
          {selection.selectedText}
        </blockquote>
      ) : null}
      <div className="grid gap-1.5">
        <Label htmlFor={ids.thought}>Your thought</Label>
        <textarea
          id={ids.thought}
          rows={4}
          maxLength={2000}
          value={thought}
          onChange={(event) => setThought(event.target.value)}
          onKeyDown={handleKeyDown}
          enterKeyHint="send"
          placeholder="What does this bring up for you?"
          className="w-full resize-y rounded-lg border border-border bg-background px-3 py-2 text-sm shadow-xs placeholder:text-muted-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
        />
        <p className="text-xs text-muted-foreground">
          {touch ? "Tap Respond to send." : "Enter to send, Shift+Enter for a new line."}
        </p>
      </div>
      {user ? null : (
        <fieldset className="grid gap-3 sm:grid-cols-2">
          <legend className="mb-2 text-sm text-muted-foreground">
            Optional. Your e-mail is only ever seen by Prism, never shown.
          </legend>
          <div className="grid gap-1.5">
            <Label htmlFor={ids.name}>Name</Label>
            <Input
              id={ids.name}
              value={name}
              maxLength={100}
              autoComplete="name"
              onChange={(e) => setName(e.target.value)}
            />
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor={ids.email}>Email</Label>
            <Input
              id={ids.email}
              type="email"
              value={email}
              autoComplete="email"
              aria-describedby={ids.emailHint}
              onChange={(e) => setEmail(e.target.value)}
            />
            <p id={ids.emailHint} className="text-xs text-muted-foreground">
              {email.trim()
                ? "We will e-mail you the owner's decision, and their reply: two e-mails at most, each with a one-click unsubscribe."
                : "Leave an address to hear when the owner decides and replies."}
            </p>
          </div>
        </fieldset>
      )}
      {checksPerson ? (
        <>
          {/* A field people neither see nor hear, nor reach with Tab: only scripts fill it. */}
          <div className="sr-only" aria-hidden="true">
            <label htmlFor={ids.website}>Website</label>
            <input
              id={ids.website}
              ref={honeypot}
              name="website"
              type="text"
              tabIndex={-1}
              autoComplete="off"
            />
          </div>
          {/* Its room is kept while its code loads (50 px, 70 with a finger's checkbox): the
              buttons below do not move under a finger or a pointer about to press them. */}
          <div className="min-h-[50px] pointer-coarse:min-h-[70px]">
            <Suspense fallback={null}>
              <PersonCheck ref={check.ref} />
            </Suspense>
          </div>
        </>
      ) : null}
      <p className="text-xs text-muted-foreground">
        The author may review responses before others can see them.
      </p>
      <div className="flex justify-end gap-2">
        <Button variant="outline" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" disabled={!canRespond}>
          {sending ? "Sending..." : "Respond"}
        </Button>
      </div>
    </form>
  );
}
