// A card for one diagnostic tool: icon, title, description, then its controls.
import type { ReactNode } from "react";
import { Card } from "../../components/ui/card.tsx";

export function ToolCard({
  icon,
  title,
  description,
  stacked = false,
  children,
}: {
  icon: ReactNode;
  title: string;
  description: string;
  /** Icon above the title (cards side by side), rather than beside it. */
  stacked?: boolean;
  children: ReactNode;
}) {
  const badge = (
    <span className="w-fit rounded-lg bg-muted p-2 text-primary [&_svg]:size-5" aria-hidden="true">
      {icon}
    </span>
  );
  if (stacked) {
    return (
      <Card className="flex flex-col p-6">
        {badge}
        <h2 className="mt-4 text-lg font-semibold">{title}</h2>
        <p className="mt-1 flex-1 text-sm text-muted-foreground">{description}</p>
        <div className="mt-5">{children}</div>
      </Card>
    );
  }
  return (
    <Card className="p-6">
      <div className="flex items-start gap-3">
        {badge}
        <div>
          <h2 className="text-lg font-semibold">{title}</h2>
          <p className="mt-1 text-sm text-muted-foreground">{description}</p>
        </div>
      </div>
      <div className="mt-6">{children}</div>
    </Card>
  );
}
