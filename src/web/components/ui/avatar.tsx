// A member's initials: the first two letters of the display name or username, uppercased.
import { initials, type Person } from "../../../contract/names.ts";
import { cn } from "../../lib/cn.ts";

export function Avatar({
  user,
  className,
}: {
  user: Pick<Person, "displayName" | "username">;
  className?: string;
}) {
  return (
    <span
      aria-hidden="true"
      className={cn(
        "inline-flex shrink-0 select-none items-center justify-center rounded-full bg-gradient-to-br from-indigo-500 via-fuchsia-500 to-amber-400 font-semibold text-white",
        className,
      )}
    >
      {initials(user)}
    </span>
  );
}
