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
