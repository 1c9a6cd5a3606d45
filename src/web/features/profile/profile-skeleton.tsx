// A member's page while it loads: the avatar, name and handle, then the numbered sections.
import { Skeleton, SkeletonRegion } from "../../components/ui/skeleton.tsx";

function Sections() {
  return (
    <div className="rounded-2xl border border-border px-5 shadow-sm sm:px-6">
      {["w-3/4", "w-1/2", "w-2/3"].map((width) => (
        <div
          key={width}
          className="flex items-center gap-3 border-b border-border py-5 last:border-b-0"
        >
          <Skeleton className="h-4 w-6 shrink-0 rounded-md" />
          <Skeleton className={`h-6 rounded-md ${width}`} />
        </div>
      ))}
    </div>
  );
}

/** The prisms alone, under the member's real header. */
export function PrismListSkeleton() {
  return (
    <SkeletonRegion label="Loading prisms...">
      <Sections />
    </SkeletonRegion>
  );
}

/** The whole page, while the member's profile or the page's script loads. */
export function ProfileSkeleton() {
  return (
    <SkeletonRegion label="Loading profile..." className="mx-auto max-w-3xl px-4 py-12">
      <div className="flex flex-col items-center gap-4 sm:flex-row sm:items-start">
        <Skeleton className="size-20 shrink-0 rounded-full" />
        <div className="grid w-full justify-items-center gap-3 sm:justify-items-start">
          <Skeleton className="h-9 w-56 max-w-full rounded-md" />
          <Skeleton className="h-5 w-32 rounded-md" />
        </div>
      </div>
      <div className="mt-10">
        <Sections />
      </div>
    </SkeletonRegion>
  );
}
