// What a list says when it has nothing in it: what is missing, then what will come, framed.
import { cn } from "../../lib/cn.ts";

export function EmptyState({
  title,
  description,
  className,
}: {
  title: string;
  description: string;
  className?: string;
}) {
  return (
    <div
      className={cn("rounded-2xl border border-dashed border-border p-12 text-center", className)}
    >
      <p className="text-lg font-medium">{title}</p>
      <p className="mt-2 text-muted-foreground">{description}</p>
    </div>
  );
}
