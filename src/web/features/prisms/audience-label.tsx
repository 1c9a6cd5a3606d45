// The small label of a prism only some may see, on its title: "Team" or "Only me".
import { type Audience, audienceLabels } from "../../../contract/audiences.ts";

/** The small label of a prism only some may see; a public prism has none. */
export function AudienceLabel({ audience }: { audience: Audience }) {
  if (audience === "public") return null;
  return (
    <span className="inline-flex shrink-0 items-center whitespace-nowrap rounded-full border border-border bg-muted px-2 py-0.5 text-xs font-medium text-foreground">
      {audienceLabels[audience]}
    </span>
  );
}
