// The heart control: the visitor's heart on a prism and its count, in three sizes.
import { Heart } from "lucide-react";
import { cn } from "../../lib/cn.ts";
import { useHeartStatus, useToggleHeart } from "./prism-queries.ts";

const sizes = {
  sm: { button: "h-7 gap-1 px-2 text-xs", icon: "size-3.5" },
  md: { button: "h-9 gap-1.5 px-3 text-sm", icon: "size-4" },
  lg: { button: "h-11 gap-2 px-4 text-base", icon: "size-5" },
} as const;

export function HeartButton({
  prismId,
  username,
  title,
  initialCount,
  size = "md",
}: {
  prismId: number;
  username: string;
  title: string;
  initialCount: number;
  size?: keyof typeof sizes;
}) {
  const status = useHeartStatus(prismId);
  const toggle = useToggleHeart(prismId, username);
  const hearted = status.data?.hearted ?? false;
  const count = status.data?.heartsCount ?? initialCount;
  const style = sizes[size];
  return (
    <button
      type="button"
      aria-pressed={hearted}
      // Not `disabled` while its toggle is on the way: a disabled button loses the keyboard's focus,
      // and a second Space would then press nothing.
      aria-disabled={toggle.isPending}
      onClick={() => {
        if (!toggle.isPending) toggle.mutate();
      }}
      className={cn(
        "inline-flex cursor-pointer items-center rounded-full border font-medium transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring aria-disabled:opacity-70",
        hearted
          ? "border-rose-200 bg-rose-50 text-rose-800 hover:bg-rose-100"
          : "border-border bg-background text-muted-foreground hover:bg-muted hover:text-foreground",
        style.button,
      )}
    >
      <Heart className={cn(style.icon, hearted && "fill-current")} aria-hidden="true" />
      {/* Named by what it shows, the count, then what it counts; pressed when the heart is yours. */}
      <span>{count}</span>{" "}
      <span className="sr-only">{`${count === 1 ? "heart" : "hearts"} for "${title}"`}</span>
    </button>
  );
}
