// The owner's choice, in the prism form, of who may see the prism: everyone, their teams, or only
// them (a draft). Radio buttons in a fieldset, each with what it means.
import { useId } from "react";
import {
  type Audience,
  audienceChoices,
  audienceHints,
  audienceLabels,
} from "../../../contract/audiences.ts";

export function AudienceChoice({
  value,
  disabled,
  onChange,
}: {
  value: Audience;
  disabled: boolean;
  onChange: (audience: Audience) => void;
}) {
  const name = useId();
  return (
    <fieldset className="grid gap-2" disabled={disabled}>
      <legend className="mb-1 text-sm font-medium">Who can see this</legend>
      <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap sm:gap-4">
        {audienceChoices.map((choice) => (
          <label key={choice} className="flex cursor-pointer items-start gap-2 text-sm">
            <input
              type="radio"
              name={name}
              value={choice}
              checked={value === choice}
              onChange={() => onChange(choice)}
              className="mt-0.5 size-4 accent-primary"
            />
            <span>
              <span className="font-medium">{audienceLabels[choice]}</span>
              <span className="block text-muted-foreground">{audienceHints[choice]}</span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** The small label of a prism only some may see; a public prism has none. */
export function AudienceLabel({ audience }: { audience: Audience }) {
  if (audience === "public") return null;
  return (
    <span className="inline-flex shrink-0 items-center whitespace-nowrap rounded-full border border-border bg-muted px-2 py-0.5 text-xs font-medium text-foreground">
      {audienceLabels[audience]}
    </span>
  );
}
