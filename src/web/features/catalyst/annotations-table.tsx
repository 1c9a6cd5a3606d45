// The Annotations tab: every annotation newest first, with its prism, annotator, status and
// readers' flags (a filter keeps those FLAGS_FOR_ADMINS people flagged); an admin sets any status or
// deletes it.
import { Link } from "wouter";
import type { AnnotationStatus } from "../../../contract/annotations.ts";
import type { CatalystAnnotation } from "../../../contract/catalyst.ts";
import { excerpt } from "../../../contract/excerpt.ts";
import { FLAGS_FOR_ADMINS, flagReasonLabels } from "../../../contract/flag-messages.ts";
import { visitorName } from "../../../contract/names.ts";
import { Badge } from "../../components/ui/badge.tsx";
import { DateTime } from "../../lib/format.tsx";
import { useAnnotationActions } from "./catalyst-queries.ts";
import { CatalystTable, type Column, deleteAction, RowActions } from "./catalyst-table.tsx";
import type { TableView } from "./table-view.ts";

const DELETE_CONFIRM =
  "Are you sure you want to delete this annotation? This action cannot be undone.";

/** An admin's moves of an annotation to another status, in the order its actions list them. */
const statusActions: { status: AnnotationStatus; label: string }[] = [
  { status: "approved", label: "Approve" },
  { status: "rejected", label: "Reject" },
  { status: "pending", label: "Set to Pending" },
  { status: "spam", label: "Mark as Spam" },
];

const statusBadge: Record<
  AnnotationStatus,
  { label: string; tone: "warning" | "success" | "danger" }
> = {
  pending: { label: "Pending", tone: "warning" },
  approved: { label: "Approved", tone: "success" },
  rejected: { label: "Rejected", tone: "danger" },
  spam: { label: "Spam", tone: "danger" },
};

/** Spec §2: the username, else the annotator's name, else 'Anonymous'. */
/** The member's username, else the visitor's chosen name marked as a visitor's, else "Anonymous". */
function annotator({ author, annotation }: CatalystAnnotation): string {
  return author?.username ?? visitorName(annotation.annotatorName) ?? "Anonymous";
}

/** Readers' flags: how many people, and their reasons with how many gave each. */
function Flags({ flags }: Pick<CatalystAnnotation, "flags">) {
  if (flags.count === 0) return <span className="text-muted-foreground">—</span>;
  return (
    <span className="flex flex-col gap-1">
      <Badge tone={flags.count >= FLAGS_FOR_ADMINS ? "danger" : "warning"}>{flags.count}</Badge>
      <span className="text-xs text-muted-foreground">
        {flags.reasons
          .map(({ reason, count }) => `${flagReasonLabels[reason]} (${count})`)
          .join(", ")}
      </span>
    </span>
  );
}

/** The filter: only responses FLAGS_FOR_ADMINS or more people flagged. */
function FlaggedFilter({ view }: { view: TableView }) {
  return (
    <label className="flex min-h-11 w-fit cursor-pointer items-center gap-3 text-sm">
      <input
        type="checkbox"
        className="size-5 accent-primary"
        checked={view.flagged}
        onChange={(event) => view.onFlaggedChange(event.target.checked)}
      />
      Flagged by {FLAGS_FOR_ADMINS} or more people
    </label>
  );
}

export function AnnotationsTable(view: TableView) {
  const { setStatus, remove } = useAnnotationActions();
  const columns: Column<CatalystAnnotation>[] = [
    {
      header: "Content",
      cell: ({ annotation }) => (
        <span className="block max-w-[200px] truncate" title={annotation.annotationText}>
          {annotation.annotationText}
        </span>
      ),
    },
    {
      header: "Prism",
      cell: ({ prism, annotation }) => (
        <Link
          to={`/${prism.ownerUsername}?annotation=${annotation.id}`}
          className="block max-w-[200px] truncate rounded-sm underline-offset-4 hover:underline"
          title={prism.title}
        >
          {prism.title}
        </Link>
      ),
    },
    {
      header: "Annotator",
      cell: (row) => (
        <span className="flex flex-wrap items-center gap-1">
          {annotator(row)}
          {/* As the Users tab marks the member: the response is shown to them and admins alone. */}
          {row.annotation.silenced ? <Badge tone="warning">Silenced</Badge> : null}
        </span>
      ),
    },
    {
      header: "Status",
      cell: ({ annotation }) => {
        const { label, tone } = statusBadge[annotation.status];
        return <Badge tone={tone}>{label}</Badge>;
      },
    },
    { header: "Flags", cell: ({ flags }) => <Flags flags={flags} /> },
    {
      header: "Created",
      cell: ({ annotation }) => <DateTime iso={annotation.createdAt} />,
      className: "whitespace-nowrap",
    },
    {
      header: "Actions",
      cell: ({ annotation }) => {
        return (
          <RowActions
            label={`Actions for the annotation "${excerpt(annotation.annotationText, 40)}"`}
            actions={[
              ...statusActions.map(({ status, label }) => ({
                label,
                hidden: annotation.status === status,
                onSelect: () => setStatus.mutate({ id: annotation.id, status }),
              })),
              deleteAction(DELETE_CONFIRM, () => remove.mutate(annotation.id)),
            ]}
          />
        );
      },
    },
  ];
  return (
    <CatalystTable
      table="annotations"
      title="Annotations"
      columns={columns}
      rowKey={({ annotation }) => annotation.id}
      loadError="Error loading annotations."
      empty={
        view.flagged
          ? `No responses flagged by ${FLAGS_FOR_ADMINS} or more people.`
          : "No annotations yet."
      }
      searchLabel="Search annotations by text or annotator"
      filters={view.flagged ? { flagged: "true" } : {}}
      toolbar={<FlaggedFilter view={view} />}
      {...view}
    />
  );
}
