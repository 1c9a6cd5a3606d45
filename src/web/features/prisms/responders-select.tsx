// The owner's choice, in edit mode, of who may respond to one prism.
import { useId } from "react";
import type { Responders } from "../../../contract/responders.ts";

/** Each choice, as the select and the phone's menu name it. */
export const responderChoices: { value: Responders; label: string }[] = [
  { value: "anyone", label: "Anyone" },
  { value: "members", label: "Members only" },
  { value: "no-one", label: "No one" },
];

export function RespondersSelect({
  value,
  disabled,
  onChange,
}: {
  value: Responders;
  disabled: boolean;
  onChange: (responders: Responders) => void;
}) {
  const id = useId();
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="text-sm text-muted-foreground">
        Who may respond
      </label>
      <select
        id={id}
        value={value}
        disabled={disabled}
        onChange={(event) => onChange(event.target.value as Responders)}
        className="h-8 rounded-md border border-border bg-background px-2 text-sm shadow-xs focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:opacity-50"
      >
        {responderChoices.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </select>
    </div>
  );
}
