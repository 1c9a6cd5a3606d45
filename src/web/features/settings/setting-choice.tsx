// One choice of Profile Settings: its box, its label, and a line saying what it does, which the
// box names as its description.
import type { UseFormRegisterReturn } from "react-hook-form";
import { Label } from "../../components/ui/label.tsx";

/** An on/off box, or one radio button of a group (then `value` is what it stands for). */
export function SettingChoice({
  id,
  type,
  value,
  label,
  hint,
  ...registered
}: {
  id: string;
  type: "checkbox" | "radio";
  value?: string;
  label: string;
  hint: string;
} & UseFormRegisterReturn) {
  return (
    <div className="flex items-start gap-3">
      <input
        id={id}
        type={type}
        value={value}
        aria-describedby={`${id}-hint`}
        className="mt-0.5 size-4 accent-primary"
        {...registered}
      />
      <div className="grid gap-1">
        <Label htmlFor={id}>{label}</Label>
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {hint}
        </p>
      </div>
    </div>
  );
}
