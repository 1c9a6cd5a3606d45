// The notifications page's rows while they load, under the page's real heading.
import { Skeleton, SkeletonRegion } from "../../components/ui/skeleton.tsx";

const ROWS = 5;

function Rows() {
  return (
    <div className="divide-y divide-border rounded-2xl border border-border">
      {Array.from({ length: ROWS }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
        <div key={i} className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center">
          <div className="grid flex-1 gap-2">
            <Skeleton className="h-4 w-full max-w-md rounded-md" />
            <Skeleton className="h-3 w-20 rounded-md" />
          </div>
          <div className="flex gap-2">
            <Skeleton className="h-8 w-24 rounded-lg" />
            <Skeleton className="size-10 rounded-lg" />
          </div>
        </div>
      ))}
    </div>
  );
}

/** The list alone, under the page's real heading. */
export function NotificationRowsSkeleton() {
  return (
    <SkeletonRegion label="Loading notifications...">
      <Rows />
    </SkeletonRegion>
  );
}
