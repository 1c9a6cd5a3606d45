// The Teams tab: every team newest first, with how many members it has and when it was made;
// View is not offered (a team's page is its members' alone), Delete asks first.
import type { CatalystTeam } from "../../../contract/catalyst.ts";
import { DateTime } from "../../lib/format.tsx";
import { useDeleteTeam } from "./catalyst-queries.ts";
import { CatalystTable, type Column, deleteAction, RowActions } from "./catalyst-table.tsx";
import type { TableView } from "./table-view.ts";

const DELETE_CONFIRM =
  "Are you sure you want to delete this team? Its members keep their prisms; the team, its memberships and invite links are gone. This action cannot be undone.";

export function TeamsTable(view: TableView) {
  const deleteTeam = useDeleteTeam();
  const columns: Column<CatalystTeam>[] = [
    {
      header: "Name",
      cell: (team) => (
        <>
          <span className="block max-w-[300px] truncate font-medium" title={team.name}>
            {team.name}
          </span>
          <span className="block text-xs text-muted-foreground">{team.slug}</span>
        </>
      ),
    },
    {
      header: "Members",
      cell: (team) => <span className="tabular-nums">{team.memberCount}</span>,
    },
    { header: "Created", cell: (team) => <DateTime iso={team.createdAt} /> },
    {
      header: "Actions",
      cell: (team) => (
        <RowActions
          label={`Actions for the team "${team.name}"`}
          actions={[deleteAction(DELETE_CONFIRM, () => deleteTeam.mutate(team.id))]}
        />
      ),
    },
  ];
  return (
    <CatalystTable
      table="teams"
      title="Teams"
      columns={columns}
      rowKey={(team) => team.id}
      loadError="Error loading teams."
      empty="No teams yet."
      searchLabel="Search teams by name"
      {...view}
    />
  );
}
