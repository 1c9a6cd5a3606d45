// The Audit tab: who did what to whom, when, with the target's facts before and after: admins'
// actions, owners' decisions in their review queue, and changes to teams.
import type { AuditAction, AuditEntry, AuditValues } from "../../../contract/catalyst.ts";
import { DateTime } from "../../lib/format.tsx";
import { CatalystTable, type Column } from "./catalyst-table.tsx";
import type { TableView } from "./table-view.ts";

const actionLabels: Record<AuditAction, string> = {
  "user.grant-admin": "Made admin",
  "user.revoke-admin": "Removed admin",
  "user.deactivate": "Deactivated user",
  "user.reactivate": "Reactivated user",
  "user.silence": "Silenced user",
  "user.unsilence": "Unsilenced user",
  "user.reset-password": "Sent password reset",
  "user.export": "Downloaded their data",
  "prism.delete": "Deleted prism",
  "prism.restore": "Restored prism version",
  "annotation.status": "Set annotation status",
  "annotation.delete": "Deleted annotation",
  "team.create": "Created team",
  "team.rename": "Renamed team",
  "team.delete": "Deleted team",
  "team.invite": "Made team invite link",
  "team.revoke-invite": "Revoked team invite link",
  "team.join": "Joined team",
  "team.leave": "Left team",
  "team.remove-member": "Removed team member",
  "domain.policy": "Set domain policy",
  "report.dismiss": "Dismissed report",
};

function Values({ values }: { values: AuditValues | null }) {
  if (!values) return <span className="text-muted-foreground">—</span>;
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-2 text-xs">
      {Object.entries(values).map(([key, value]) => (
        <div key={key} className="contents">
          <dt className="text-muted-foreground">{key}</dt>
          <dd className="max-w-[200px] truncate" title={String(value)}>
            {String(value)}
          </dd>
        </div>
      ))}
    </dl>
  );
}

const columns: Column<AuditEntry>[] = [
  {
    header: "When",
    cell: (entry) => <DateTime iso={entry.createdAt} />,
    className: "whitespace-nowrap",
  },
  {
    header: "By",
    cell: (entry) => (entry.actor ? `@${entry.actor.username}` : "Deleted account"),
  },
  { header: "Action", cell: (entry) => actionLabels[entry.action] },
  {
    header: "Target",
    cell: (entry) => (
      <span className="block max-w-[240px] truncate" title={entry.target}>
        {entry.target}
      </span>
    ),
  },
  { header: "Before", cell: (entry) => <Values values={entry.before} /> },
  { header: "After", cell: (entry) => <Values values={entry.after} /> },
];

export function AuditTable(view: TableView) {
  return (
    <CatalystTable
      table="audit"
      title="Audit log"
      columns={columns}
      rowKey={(entry) => entry.id}
      loadError="Error loading the audit log."
      empty="Nothing recorded yet."
      {...view}
    />
  );
}
