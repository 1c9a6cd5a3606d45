// A list or region that could not be loaded: what went wrong, said as an alert, and Retry.
import { RefreshCw } from "lucide-react";
import { cn } from "../../lib/cn.ts";
import { Button } from "./button.tsx";

export function LoadError({
  message,
  onRetry,
  retrying,
  compact = false,
  className,
}: {
  message: string;
  onRetry: () => void;
  /** The retry is on its way: the button waits. */
  retrying: boolean;
  /** Less padding, for a small panel such as the notification tray. */
  compact?: boolean;
  className?: string;
}) {
  return (
    <div
      role="alert"
      className={cn(
        "rounded-2xl border border-destructive/30 bg-destructive/5 text-center text-sm",
        compact ? "p-4" : "p-6",
        className,
      )}
    >
      <p className="text-destructive">{message}</p>
      <Button variant="outline" size="sm" className="mt-4" disabled={retrying} onClick={onRetry}>
        <RefreshCw aria-hidden="true" className={cn(retrying && "animate-spin")} /> Retry
      </Button>
    </div>
  );
}
