// Stand-ins for a page's layout while its data loads: grey blocks where the content will be, for
// the eyes only (screen readers hear one "Loading" status, and the region says it is busy). The
// blocks pulse unless the visitor asked for reduced motion.
import type { ReactNode } from "react";
import { cn } from "../../lib/cn.ts";

export function SkeletonRegion({
  label,
  className,
  children,
}: {
  /** What screen readers hear, e.g. "Loading notifications...". */
  label: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div aria-busy="true" className={className}>
      <p role="status" className="sr-only">
        {label}
      </p>
      <div aria-hidden="true" data-skeleton="">
        {children}
      </div>
    </div>
  );
}

/** One grey block; its size and shape (its corners too) come from `className`. */
export function Skeleton({ className }: { className?: string }) {
  return <div className={cn("bg-muted motion-safe:animate-pulse", className)} />;
}

/**
 * A signed-in page while its member or its script loads: its real heading, then the blocks of a
 * form or a list (each page draws its own layout once its script is here). One for every such
 * page, so that the script every visitor loads carries no page's own layout.
 */
export function PageSkeleton({ title, label }: { title: string; label: string }) {
  return (
    <div className="mx-auto max-w-2xl px-4 py-12">
      <h1 className="text-3xl font-semibold tracking-tight">{title}</h1>
      <SkeletonRegion label={label}>
        <div className="mt-8 grid gap-4 rounded-2xl border border-border p-5">
          {["w-3/4", "w-1/2", "w-2/3", "w-1/3"].map((width) => (
            <div key={width} className="grid gap-2">
              <Skeleton className={`h-4 rounded-md ${width}`} />
              <Skeleton className="h-10 w-full rounded-lg" />
            </div>
          ))}
        </div>
      </SkeletonRegion>
    </div>
  );
}
