// The text input, with its invalid state, in three sizes (height and text).
import type { ComponentProps } from "react";
import { cn } from "../../lib/cn.ts";

const sizes = {
  sm: "h-8 text-sm",
  md: "h-10 text-sm",
  lg: "h-11 text-lg",
} as const;

export function Input({
  className,
  size = "md",
  ...props
}: Omit<ComponentProps<"input">, "size"> & { size?: keyof typeof sizes }) {
  return (
    <input
      className={cn(
        "flex w-full rounded-lg border border-border bg-background px-3 py-2 shadow-xs placeholder:text-muted-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:cursor-not-allowed disabled:opacity-60 aria-invalid:border-destructive",
        sizes[size],
        className,
      )}
      {...props}
    />
  );
}
