// What takes a form's place once it has been sent: a check, what happened, and what next.
import { CheckCircle2, type LucideIcon } from "lucide-react";
import { Link } from "wouter";
import { cn } from "../../lib/cn.ts";
import { Button } from "./button.tsx";

type Action = { label: string; to: string } | { label: string; onClick: () => void };

export function SuccessPanel({
  icon: Icon = CheckCircle2,
  title,
  message,
  note,
  action,
}: {
  icon?: LucideIcon;
  title?: string;
  message: string;
  note?: string;
  action?: Action;
}) {
  return (
    <div
      className={cn("flex flex-col items-center", title ? "py-6" : "py-4", "text-center")}
      role="status"
    >
      <Icon className="size-12 text-emerald-600" aria-hidden="true" />
      {title ? (
        <>
          <h2 className="mt-4 text-2xl font-semibold">{title}</h2>
          <p className="mt-2 text-muted-foreground">{message}</p>
        </>
      ) : (
        <p className="mt-4">{message}</p>
      )}
      {note ? <p className="mt-2 text-sm text-muted-foreground">{note}</p> : null}
      {action && "to" in action ? (
        <Button asChild className="mt-6">
          <Link to={action.to}>{action.label}</Link>
        </Button>
      ) : action ? (
        <Button className="mt-6" onClick={action.onClick}>
          {action.label}
        </Button>
      ) : null}
    </div>
  );
}
