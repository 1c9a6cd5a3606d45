// /responses/{token}: an anonymous author's private page for their response: the passage, what
// they wrote, where it stands, and the owner's reply.
import { CheckCircle2, Clock, type LucideIcon, XCircle } from "lucide-react";
import { Link, useParams } from "wouter";
import type { ResponseStatus } from "../../../contract/annotations.ts";
import { LoadError } from "../../components/ui/load-error.tsx";
import { Skeleton } from "../../components/ui/skeleton.tsx";
import { ApiError } from "../../lib/api.ts";
import { RelativeTime } from "../../lib/format.tsx";
import { useResponseStatus } from "./annotation-queries.ts";

/** Where the response stands, told in words, an icon and a colour of its own. */
const statusLook: Record<
  ResponseStatus["status"],
  { text: string; Icon: LucideIcon; className: string }
> = {
  pending: {
    text: "Your annotation is pending approval from the Prism owner.",
    Icon: Clock,
    className: "bg-amber-50 text-amber-900 border-amber-200",
  },
  approved: {
    text: "Approved: everyone who reads this prism can see your response.",
    Icon: CheckCircle2,
    className: "bg-emerald-50 text-emerald-900 border-emerald-200",
  },
  rejected: {
    text: "Not approved",
    Icon: XCircle,
    className: "bg-muted text-muted-foreground border-border",
  },
};

export function ResponseStatusPage() {
  const { token = "" } = useParams();
  const response = useResponseStatus(token);

  return (
    <div className="mx-auto w-full max-w-2xl px-4 py-12">
      <h1 className="text-2xl font-semibold">Your response</h1>
      {response.isPending ? (
        <div className="mt-6 grid gap-3" aria-hidden="true">
          <Skeleton className="h-5 w-2/3" />
          <Skeleton className="h-16 w-full" />
          <Skeleton className="h-10 w-full" />
        </div>
      ) : response.isError ? (
        response.error instanceof ApiError && response.error.status === 404 ? (
          <p className="mt-6 text-muted-foreground">
            This link does not lead to a response. It may be mistyped, or the response, its prism or
            its author's page may have been removed.
          </p>
        ) : (
          <div className="mt-6">
            <LoadError
              message={response.error.message}
              onRetry={() => void response.refetch()}
              retrying={response.isFetching}
            />
          </div>
        )
      ) : (
        <StatusCard status={response.data} />
      )}
    </div>
  );
}

function StatusCard({ status }: { status: ResponseStatus }) {
  return (
    <article className="mt-6 rounded-xl border border-border p-5">
      <p className="text-sm text-muted-foreground">
        On {status.ownerName}'s Prism{" "}
        <Link to={status.prismPath} className="font-medium text-foreground underline">
          "<bdi>{status.prismTitle}</bdi>"
        </Link>
        , <RelativeTime iso={status.createdAt} />
      </p>
      <blockquote
        className={
          status.orphaned
            ? "mt-4 border-l-4 border-border pl-3 font-serif italic text-muted-foreground line-through"
            : "mt-4 border-l-4 border-amber-300 pl-3 font-serif italic text-muted-foreground"
        }
      >
        {status.passage}
      </blockquote>
      {status.orphaned ? (
        <p className="mt-1 text-xs text-muted-foreground">This passage is no longer in the text.</p>
      ) : null}
      <p className="mt-4 whitespace-pre-wrap">{status.text}</p>
      <StatusLine status={status.status} />
      {status.reply ? (
        <section
          aria-label={`Reply from ${status.ownerName}`}
          className="mt-4 rounded-lg bg-muted/60 px-4 py-3"
        >
          <div className="flex items-baseline justify-between gap-3 text-sm">
            <span className="font-medium">Reply from {status.ownerName}</span>
            <RelativeTime
              iso={status.reply.updatedAt}
              className="shrink-0 text-xs text-muted-foreground"
            />
          </div>
          <p className="mt-1 whitespace-pre-wrap">{status.reply.text}</p>
        </section>
      ) : null}
    </article>
  );
}

/** The status, announced when it changes while the page is open. */
function StatusLine({ status }: { status: ResponseStatus["status"] }) {
  const { text, Icon, className } = statusLook[status];
  return (
    <p
      role="status"
      data-status={status}
      className={`mt-4 flex items-start gap-2 rounded-md border px-3 py-2 text-sm ${className}`}
    >
      <Icon aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      <span>{text}</span>
    </p>
  );
}
