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
