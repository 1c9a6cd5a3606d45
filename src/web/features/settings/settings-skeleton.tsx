// Profile Settings' layout while the member loads: the real heading, then the account-type box
// and the fields.
import { Skeleton, SkeletonRegion } from "../../components/ui/skeleton.tsx";

export function SettingsSkeleton() {
  return (
    <div className="mx-auto max-w-2xl px-4 py-12">
      <h1 className="text-3xl font-semibold tracking-tight">Profile Settings</h1>
      <SkeletonRegion label="Loading Profile Settings...">
        <Skeleton className="mt-3 h-5 w-80 max-w-full rounded-md" />
        <div className="mt-8 flex items-center gap-4 rounded-2xl border border-border p-5">
          <Skeleton className="size-10 shrink-0 rounded-xl" />
          <div className="grid flex-1 gap-2">
            <Skeleton className="h-4 w-24 rounded-md" />
            <Skeleton className="h-5 w-48 max-w-full rounded-md" />
          </div>
        </div>
        <div className="mt-6 grid gap-5 rounded-2xl border border-border p-6">
          {["w-24", "w-24", "w-16", "w-28", "w-28", "w-20", "w-32"].map((width, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
            <div key={i} className="grid gap-2">
              <Skeleton className={`h-4 rounded-md ${width}`} />
              <Skeleton className="h-10 w-full rounded-lg" />
            </div>
          ))}
          <div className="flex justify-end gap-3">
            <Skeleton className="h-10 w-20 rounded-lg" />
            <Skeleton className="h-10 w-20 rounded-lg" />
          </div>
        </div>
      </SkeletonRegion>
    </div>
  );
}
