// The Prisms tab: every prism newest first, with its author, likes and annotations; View and Delete.
import { useLocation } from "wouter";
import type { CatalystPrism } from "../../../contract/catalyst.ts";
import { displayName } from "../../../contract/names.ts";
import { AudienceLabel } from "../prisms/audience-label.tsx";
import { useDeletePrism } from "./catalyst-queries.ts";
import { CatalystTable, type Column, deleteAction, RowActions } from "./catalyst-table.tsx";
import type { TableView } from "./table-view.ts";

const DELETE_CONFIRM = "Are you sure you want to delete this prism? This action cannot be undone.";

export function PrismsTable(view: TableView) {
  const [, navigate] = useLocation();
  const deletePrism = useDeletePrism();
  const columns: Column<CatalystPrism>[] = [
    {
      header: "Title",
      cell: ({ prism }) => (
        <span className="flex items-center gap-2">
          <span className="block max-w-[300px] truncate font-medium" title={prism.title}>
            {prism.title}
          </span>
          <AudienceLabel audience={prism.audience} />
        </span>
      ),
    },
    {
      header: "Author",
      cell: ({ author }) => (
        <>
          <span className="block">{displayName(author)}</span>
          <span className="block text-xs text-muted-foreground">@{author.username}</span>
        </>
      ),
    },
    {
      header: "Likes",
      cell: ({ prism }) => (
        <span className="tabular-nums">
          {prism.heartsCount}
          {prism.editedAfterHearts ? (
            <>
              <span aria-hidden="true" title="Edited after receiving likes">
                *
              </span>
              <span className="sr-only"> (edited after receiving likes)</span>
            </>
          ) : null}
        </span>
      ),
    },
    {
      header: "Annotations",
      cell: ({ annotationsCount }) => <span className="tabular-nums">{annotationsCount}</span>,
    },
    {
      header: "Actions",
      cell: ({ prism, author }) => (
        <RowActions
          label={`Actions for "${prism.title}"`}
          actions={[
            { label: "View", onSelect: () => navigate(`/${author.username}?prism=${prism.id}`) },
            deleteAction(DELETE_CONFIRM, () => deletePrism.mutate(prism.id)),
          ]}
        />
      ),
    },
  ];
  return (
    <CatalystTable
      table="prisms"
      title="Prisms"
      columns={columns}
      rowKey={({ prism }) => prism.id}
      loadError="Error loading prisms."
      empty="No prisms yet."
      searchLabel="Search prisms by title or author"
      footnote="* edited after receiving likes"
      {...view}
    />
  );
}
