// The Annotations tab: every annotation newest first, with its prism, annotator and status; an
// admin sets any status or deletes it.
import { Link } from "wouter";
import type { AnnotationStatus } from "../../../contract/annotations.ts";
import type { CatalystAnnotation } from "../../../contract/catalyst.ts";
import { excerpt } from "../../../contract/excerpt.ts";
import { visitorName } from "../../../contract/names.ts";
import { Badge } from "../../components/ui/badge.tsx";
import { DateTime } from "../../lib/format.tsx";
import { useAnnotationActions } from "./catalyst-queries.ts";
import { CatalystTable, type Column, deleteAction, RowActions } from "./catalyst-table.tsx";
import type { TableView } from "./table-view.ts";

const DELETE_CONFIRM =
  "Are you sure you want to delete this annotation? This action cannot be undone.";

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
    { header: "Annotator", cell: (row) => annotator(row) },
    {
      header: "Status",
      cell: ({ annotation }) => {
        const { label, tone } = statusBadge[annotation.status];
        return <Badge tone={tone}>{label}</Badge>;
      },
    },
    {
      header: "Created",
      cell: ({ annotation }) => <DateTime iso={annotation.createdAt} />,
      className: "whitespace-nowrap",
    },
    {
      header: "Actions",
      cell: ({ annotation }) => {
        const set = (status: AnnotationStatus) => () =>
          setStatus.mutate({ id: annotation.id, status });
        return (
          <RowActions
            label={`Actions for the annotation "${excerpt(annotation.annotationText, 40)}"`}
            actions={[
              {
                label: "Approve",
                hidden: annotation.status === "approved",
                onSelect: set("approved"),
              },
              {
                label: "Reject",
                hidden: annotation.status === "rejected",
                onSelect: set("rejected"),
              },
              {
                label: "Set to Pending",
                hidden: annotation.status === "pending",
                onSelect: set("pending"),
              },
              {
                label: "Mark as Spam",
                hidden: annotation.status === "spam",
                onSelect: set("spam"),
              },
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
      empty="No annotations yet."
      searchLabel="Search annotations by text or annotator"
      {...view}
    />
  );
}
