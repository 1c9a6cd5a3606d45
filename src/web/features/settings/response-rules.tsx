// Profile Settings' rules for responses to the member's prisms: what visitors without an account
// must do (the person check, every response held for review, or sign in first), what a link in
// their responses does, and the watched words that hold any response for review.
import type { UseFormReturn } from "react-hook-form";
import type {
  AnonymousLinks,
  AnonymousResponses,
  ProfileUpdate,
  ProfileUpdateInput,
} from "../../../contract/user.ts";
import { Label } from "../../components/ui/label.tsx";
import { SettingChoice } from "./setting-choice.tsx";

type ProfileForm = UseFormReturn<ProfileUpdateInput, unknown, ProfileUpdate>;

interface Choice<T> {
  value: T;
  label: string;
  hint: string;
}

const visitorChoices: Choice<AnonymousResponses>[] = [
  {
    value: "check",
    label: "Ask for the check",
    hint: "Visitors prove they're a person before sending. Responses that look like spam go to your Spam folder.",
  },
  {
    value: "hold",
    label: "Hold all for review",
    hint: "Every visitor's response waits for you; none goes to Spam on its own.",
  },
  {
    value: "members",
    label: "Members only",
    hint: "Visitors are asked to sign in before they can respond.",
  },
];

const linkChoices: Choice<AnonymousLinks>[] = [
  { value: "allowed", label: "Allowed", hint: "A link counts for nothing against a response." },
  {
    value: "held",
    label: "Held for review",
    hint: "A response with a link waits for you; several links send it to Spam.",
  },
  {
    value: "spam",
    label: "Spam",
    hint: "A response with a link goes straight to your Spam folder.",
  },
];

function Choices<T extends string>({
  form,
  name,
  legend,
  choices,
}: {
  form: ProfileForm;
  name: "anonymousResponses" | "anonymousLinks";
  legend: string;
  choices: Choice<T>[];
}) {
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-1 text-sm font-medium">{legend}</legend>
      {choices.map(({ value, label, hint }) => (
        <SettingChoice
          key={value}
          id={`${name}-${value}`}
          type="radio"
          value={value}
          label={label}
          hint={hint}
          {...form.register(name)}
        />
      ))}
    </fieldset>
  );
}

/** The watched words, one a line, kept in the form as the list the server takes. */
function WatchedWords({ form }: { form: ProfileForm }) {
  const words = form.watch("watchedWords") ?? [];
  const error = form.formState.errors.watchedWords;
  const message = error?.message ?? (Array.isArray(error) ? error.find(Boolean)?.message : null);
  return (
    <div className="grid gap-1.5">
      <Label htmlFor="watched-words">Watched words</Label>
      <textarea
        id="watched-words"
        rows={3}
        value={words.join("\n")}
        aria-describedby="watched-words-hint"
        aria-invalid={message ? true : undefined}
        onChange={(event) =>
          form.setValue("watchedWords", event.target.value.split("\n"), { shouldDirty: true })
        }
        className="w-full rounded-md border border-input bg-background px-3 py-2 text-base focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring sm:text-sm"
      />
      <p id="watched-words-hint" className="text-xs text-muted-foreground">
        One word or phrase a line. A response that uses one waits for your review, even from a
        member you pre-approve.
      </p>
      {message ? (
        <p role="alert" className="text-sm text-destructive">
          {message}
        </p>
      ) : null}
    </div>
  );
}

export function ResponseRules({ form }: { form: ProfileForm }) {
  return (
    <section
      aria-labelledby="response-rules-heading"
      className="grid gap-5 border-t border-border pt-5"
    >
      <h2 id="response-rules-heading" className="text-base font-semibold">
        Responses to your prisms
      </h2>
      <Choices
        form={form}
        name="anonymousResponses"
        legend="Responses from visitors without an account"
        choices={visitorChoices}
      />
      <Choices
        form={form}
        name="anonymousLinks"
        legend="Links in visitors' responses"
        choices={linkChoices}
      />
      <WatchedWords form={form} />
    </section>
  );
}
